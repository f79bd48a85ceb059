"""The `pnp` console script and ``python -m pnp``.

The signal handlers go in before the command line is imported (its libraries take a
while to load), and a Ctrl-C or SIGTERM that comes while pnp is loading is held until it
has loaded (C extensions such as numpy print a KeyboardInterrupt that hits their import as a
traceback of their own); it then ends like any other: one line, exit 130 or 143 (see
`pnp.runtime.interrupt`).
"""

from __future__ import annotations

from pnp.runtime import interrupt


def main() -> None:
    with interrupt.command_signals():
        try:
            with interrupt.held():
                from pnp.cli import main as cli_main
        except KeyboardInterrupt:
            interrupt.finish()
        try:
            cli_main()
        finally:  # the exit code is ours: never a kill by SIGINT (see the function)
            interrupt.forget_keyboard_interrupts()


if __name__ == "__main__":
    main()
