"""The Makefile's targets, read with `make -n` (what would run, nothing run).

`make -n` still runs the recipe of a makefile it can remake, and `.venv/.installed` is
remade when pyproject.toml or a kernel source is newer than it: so every dry run here says
`-o .venv/.installed` (take set-up as done), works on a copy of the Makefile in a temporary
folder, and is tried with the Makefile both older and newer than pyproject.toml. A test
never installs anything, whatever git's checkout left the files' times."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STAMP = ".venv/.installed"


def sets_up(line: str) -> bool:
    """A line of set-up's recipe (making .venv, pip installing into it)."""
    return line.endswith("-m venv .venv") or line.startswith((".venv/bin/python -m pip", "touch"))


pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


@pytest.fixture(params=["makefile-older", "makefile-newer"])
def checkout(request, tmp_path: Path) -> Path:
    """The Makefile and pyproject.toml, the Makefile an hour older or newer than it."""
    shutil.copy(ROOT / "Makefile", tmp_path)
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    then = 1_700_000_000
    older = request.param == "makefile-older"
    os.utime(tmp_path / "Makefile", (then, then + (-3600 if older else 3600)))
    os.utime(tmp_path / "pyproject.toml", (then, then))
    return tmp_path


def dry_run(folder: Path, *args: str) -> str:
    """What `make -n ARGS` would run in `folder`, set-up taken as done (`-o`)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    r = subprocess.run(
        ["make", "-n", "--no-print-directory", "-o", STAMP, *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert r.returncode == 0, r.stderr
    assert not [line for line in r.stdout.splitlines() if sets_up(line.strip())], r.stdout
    return r.stdout


@pytest.mark.parametrize(
    "game, anchor", [("", True), ("parcheesi", True), ("exploding-dice", False)]
)
def test_make_bench_installs_openspiel_only_for_parcheesi(checkout, game, anchor):
    out = dry_run(checkout, "bench", f"GAME={game}")
    assert ("open_spiel" in out) is anchor
    assert ("OPEN_SPIEL_PYTHON" in out) is anchor
    assert f"-m pnp.bench {game}".rstrip() in out


@pytest.mark.parametrize(
    "target, runs",
    [
        ("test", '-m "not slow and not long"'),
        ("test-slow", '-m "slow and not long"'),
        ("test-long", "-m long"),
        ("test-all", "pytest -n"),
        ("golden", "tests/test_golden.py --update-golden"),
    ],
)
def test_game_picks_one_games_tests_and_golden_files(checkout, target, runs):
    every = dry_run(checkout, target)
    one = dry_run(checkout, target, "GAME=desert-home")
    assert runs in every and "--game" not in every
    assert one.strip() == f"{every.strip()} --game desert-home"


@pytest.mark.parametrize("target", ["test", "test-slow", "test-long", "test-all"])
def test_the_tiers_run_on_the_cores_with_work_stealing(checkout, target):
    """An idle worker takes queued tests from a busy one: no core waits out a long test."""
    assert "--dist worksteal" in dry_run(checkout, target)


def test_ci_runs_the_readmes_test_command_then_the_slow_tier():
    """CI runs what the README tells a newcomer to run, then the slow tier; the long runs
    are left to `make test-all`."""
    root = Path(__file__).resolve().parent.parent
    ci = (root / ".ci" / "run").read_text()
    runs = [line.split()[1] for line in ci.splitlines() if line.startswith("make test")]
    assert runs == ["test", "test-slow"]
    assert "make test " in (root / "README.md").read_text()


def test_make_conformance_rewrites_one_games_data_or_all(checkout):
    assert "-m pnp.reference.conformance_data all" in dry_run(checkout, "conformance")
    one = dry_run(checkout, "conformance", "GAME=parcheesi")
    assert "-m pnp.reference.conformance_data parcheesi" in one
