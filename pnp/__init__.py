"""pnp: print-and-play kits that are solitaire-tested before they are printed."""

import os

# pnp's arrays are small (shapely, matplotlib): an OpenBLAS thread pool would only spin
# beside the simulation workers (its cost: README, `make bench`). A setting of the user's wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
