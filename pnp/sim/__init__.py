"""Solitaire-testing: the runner, metrics and report behind ``pnp simulate``.

The engine contract every game implements, and the records it hands back, live in
`pnp.outcome`, below the games: the games never import this package, which imports them.
"""
