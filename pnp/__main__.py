"""The `pnp` console script and ``python -m pnp``.

The signal handlers go in before the command line is imported (about half a second),
so a Ctrl-C or SIGTERM while pnp is still loading ends like any other: one line, exit
130 or 143 (see `pnp.interrupt`), not an import traceback.
"""

from __future__ import annotations

from pnp import interrupt


def main() -> None:
    with interrupt.command_signals():
        try:
            from pnp.cli import main as cli_main
        except KeyboardInterrupt:
            interrupt.finish()
        cli_main()


if __name__ == "__main__":
    main()
