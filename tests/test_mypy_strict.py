"""The typed core stays under `mypy --strict`: pyproject.toml turns on, for the core's
modules, every flag mypy's own --strict turns on (`make lint` runs mypy with that config),
and a loosely typed module placed in the core is refused while one outside it passes."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from mypy.main import process_options
from mypy.options import PER_MODULE_OPTIONS

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
PLAY = ["engine", "rules", "rules.state", "rules.bots", "rules.model"]
"""A game's play modules: its rules, its engine and its bots, strict in every game."""
CORE = [
    "pnp.play.state",
    "pnp.contract.gamedef",
    "pnp.contract.hooks",
    "pnp.sim.*",
    "pnp.studio.*",
    "geometry.*",
    *(f"pnp.games.*.{m}" for m in PLAY),
]


def _mypy_config() -> dict:
    return tomllib.loads(PYPROJECT.read_text())["tool"]["mypy"]


def _strict_flags() -> tuple[dict[str, object], dict[str, object]]:
    """What mypy's --strict changes from the defaults, by mypy itself (so a flag a later
    mypy adds to --strict shows up here): (per-module flags, global flags)."""
    _, strict = process_options(["--strict", "--config-file=", "x.py"], require_targets=False)
    _, plain = process_options(["--config-file=", "x.py"], require_targets=False)
    on, off = strict.snapshot(), plain.snapshot()
    changed = {k: v for k, v in on.items() if v != off.get(k)}
    per_module = {k: v for k, v in changed.items() if k in PER_MODULE_OPTIONS}
    return per_module, {k: v for k, v in changed.items() if k not in per_module}


def _core_override() -> dict:
    found = [o for o in _mypy_config()["overrides"] if "disallow_untyped_defs" in o]
    assert len(found) == 1, "one override holds the strict core"
    return found[0]


def test_the_core_modules_are_the_strict_ones() -> None:
    assert sorted(_core_override()["module"]) == sorted(CORE)


def test_the_core_gets_every_flag_of_mypy_strict() -> None:
    per_module, global_flags = _strict_flags()
    assert len(per_module) >= 10  # mypy 1.10+: the generics, defs, calls, reexport... flags
    override = _core_override()
    assert {k: override.get(k) for k in per_module} == per_module
    config = _mypy_config()
    assert {k: config.get(k) for k in global_flags} == global_flags


def test_no_override_loosens_the_core() -> None:
    """An override for a core module (e.g. `ignore_errors` for one file) would undo it."""
    core = {m.removesuffix(".*") for m in CORE}
    strict = _core_override()
    for override in _mypy_config()["overrides"]:
        if override == strict:
            continue
        modules = override["module"]
        names = [modules] if isinstance(modules, str) else modules
        for name in names:
            stem = name.removesuffix(".*")
            assert not any(stem == c or stem.startswith(c + ".") for c in core), name


LOOSE = "def half(x):\n    return x / 2\n"


@pytest.mark.slow
def test_mypy_refuses_untyped_code_in_the_core_only(tmp_path: Path) -> None:
    """mypy with the project's config, on stand-in modules named as the core's are."""
    files = {
        "pnp/play/state.py": True,
        "pnp/contract/gamedef.py": True,
        "pnp/sim/loose.py": True,
        "pnp/studio/loose.py": True,
        "geometry/loose.py": True,
        "pnp/games/lamps/engine.py": True,  # a game's play modules, in any game
        "pnp/games/lamps/rules/__init__.py": True,
        "pnp/games/lamps/rules/bots.py": True,
        "pnp/loose.py": False,  # the rest of pnp keeps the default settings
        "pnp/games/lamps/kit/board.py": False,  # and a game's print side
    }
    for package in (
        "pnp",
        "pnp/play",
        "pnp/contract",
        "pnp/sim",
        "pnp/studio",
        "geometry",
        "pnp/games",
        "pnp/games/lamps",
        "pnp/games/lamps/rules",
        "pnp/games/lamps/kit",
    ):
        (tmp_path / package).mkdir(parents=True, exist_ok=True)
        (tmp_path / package / "__init__.py").write_text("")
    for name in files:
        (tmp_path / name).write_text(LOOSE)
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(PYPROJECT),
            "--cache-dir",
            str(tmp_path / "cache"),
            *files,
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    refused = {line.split(":")[0] for line in run.stdout.splitlines() if "[no-untyped-def]" in line}
    assert refused == {name for name, strict in files.items() if strict}, run.stdout
    assert run.returncode == 1
