"""One-line notices said once per process: a compiled kernel that was not built is said the
same way by every game, on stderr, the first time a game is played without it."""

from __future__ import annotations

import sys

_said: set[str] = set()


def once(line: str) -> None:
    """Print `line` on stderr unless this process has said it already."""
    if line not in _said:
        _said.add(line)
        print(line, file=sys.stderr, flush=True)
