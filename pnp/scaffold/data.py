"""The reference data of a game `pnp new` has just written: its conformance file and its
golden files, made by the same code `make conformance` and `make golden` run, with the game
registered for the moment (it joins the registry when its line is added)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

from pnp.conformance_data import rewrite
from pnp.errors import PnpError
from pnp.games import registered
from pnp.scaffold import Names, check_free, new_game, remove_made

GOLDEN_TIMEOUT = 600  # seconds: a kit of a few components builds in seconds


def create_game(slug: str, root: Path) -> list[Path]:
    """`pnp new`: the skeleton of game `slug` and its reference data, written into the
    checkout at `root` -- or, if anything fails (a write, the golden run, Ctrl-C), nothing:
    every path it makes was free before (`check_free`), and each is removed again."""
    names = Names.of(slug)
    check_free(names, root)
    try:
        return new_game(slug, root) + write_reference_data(slug, root)
    except BaseException:
        remove_made(names, root)
        raise


def write_reference_data(slug: str, root: Path) -> list[Path]:
    """Write `tests/conformance/<slug>.json` and `tests/golden/<slug>/` for a game written
    into `root`, the checkout this pnp runs from."""
    names = Names.of(slug)
    module = f"pnp.games.{names.pkg}.game"
    game = importlib.import_module(module).GAME
    with registered(game):
        conformance = rewrite(slug, root / "tests" / "conformance")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "tests/test_golden.py",
            "--update-golden",
            "--with-game",
            module,
            "-k",
            slug,
        ],
        cwd=root,
        env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")},  # not a worker
        capture_output=True,
        text=True,
        timeout=GOLDEN_TIMEOUT,
    )
    golden = root / "tests" / "golden" / slug
    if run.returncode != 0 or not golden.is_dir():
        last = (run.stdout.strip().splitlines() or [""])[-1]
        raise PnpError(
            f"the golden files of {slug} could not be written ({last}): run `make golden`"
        )
    return [conformance, golden]
