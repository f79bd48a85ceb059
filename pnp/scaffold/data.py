"""`pnp new`'s whole job: the skeleton and the reference data of a new game, its
conformance file and golden files, made by the same code `make conformance` and `make
golden` run (`pnp.reference.conformance_data.rewrite`, `pnp.reference.golden.write_golden`),
with the game registered for the moment, as its registry line or its entry point will
register it."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pnp.draw.templating import use_game_templates
from pnp.games import registered
from pnp.reference.conformance_data import rewrite
from pnp.reference.golden import write_golden
from pnp.scaffold import Names, check_free, checkout_layout, new_game, new_package, remove_made


def create_game(slug: str, root: Path) -> list[Path]:
    """`pnp new`: the skeleton of game `slug` and its reference data, written into the
    checkout at `root` -- or, if anything fails (a write, the golden files, Ctrl-C),
    nothing: every path it makes was free before (`check_free`), and each is removed
    again."""
    names = Names.of(slug)
    check_free(names, root)
    layout = checkout_layout(names)
    try:
        return new_game(slug, root) + write_reference_data(layout.module, root / layout.tests)
    except BaseException:
        remove_made(names, root)
        raise


def create_package(slug: str, dest: Path) -> list[Path]:
    """`pnp new --package`: game `slug` as a plugin repository in `dest`, its reference
    data made before it is moved in (or nothing, on a failure)."""
    return new_package(slug, dest, write_reference_data)


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
