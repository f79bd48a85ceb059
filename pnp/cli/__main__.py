"""``python -m pnp.cli``: the command line without the early signal handlers of
``python -m pnp`` (the tests use it)."""

from pnp.cli import main

main()
