"""pnp: print-and-play kits that are solitaire-tested before they are printed."""

__version__ = "0.1.0"
