"""The reference data of a game `pnp new` has just written: its conformance file and its
golden files, made by the same code `make conformance` and `make golden` run
(`pnp.conformance_data.rewrite`, `pnp.golden.write_golden`), with the game registered for
the moment, as its registry line or its entry point will register it."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pnp.conformance_data import rewrite
from pnp.games import registered
from pnp.golden import write_golden
from pnp.templating import use_game_templates


@contextmanager
def importable(root: Path, module: str) -> Iterator[None]:
    """`module` importable from `root` for the block, and forgotten after it (a plugin's
    package written into a temporary folder is moved once its data is made)."""
    sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    try:
        yield
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m == module or m.startswith(module + ".")]:
            del sys.modules[name]


def write_reference_data(module: str, tests: Path) -> list[Path]:
    """Write `<tests>/conformance/<slug>.json` and `<tests>/golden/<slug>/` for the game
    whose package is `module`, found in the folder above `tests`."""
    with importable(tests.parent, module):
        game = importlib.import_module(f"{module}.game").GAME
        try:
            with registered(game):
                conformance = rewrite(game.slug, tests / "conformance")
                golden = write_golden(tests / "golden", game.slug)
        finally:
            use_game_templates(game.slug, None)
    return [conformance, golden]
