"""Solitaire-testing: the runner, metrics and report behind ``pnp simulate`` and
``pnp solve``, as plain calls that return data (the command line is `pnp.cli`).

The engine contract every game implements (`pnp.contract.gamedef.Engine`) and the records it hands
back (`pnp.play.outcome`) live below the games: the games never import this package, which
imports them.
"""
