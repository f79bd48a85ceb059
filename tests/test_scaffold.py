"""`pnp new`: the skeleton of a game, written into a copy of this checkout and tried there
as a new user would: its files are lint-clean and typed, and its own tests pass."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pnp.errors import PnpError
from pnp.scaffold import Names, new_game

ROOT = Path(__file__).resolve().parent.parent


def checkout_copy(dest: Path) -> Path:
    """The parts of this checkout a game lives in, copied (caches and outputs left out)."""
    skip = shutil.ignore_patterns("__pycache__", "*.so", ".pytest_cache", ".hypothesis")
    for part in ("pnp", "geometry", "templates", "tests"):
        shutil.copytree(ROOT / part, dest / part, ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", dest)
    return dest


@pytest.mark.parametrize(
    "slug", ["Lantern", "2race", "race--home", "race_home", "-race", "", "class", "a" * 41]
)
def test_a_bad_slug_is_one_clear_line(slug):
    with pytest.raises(PnpError, match="slug|keyword") as err:
        Names.of(slug)
    assert "\n" not in str(err.value)


def test_names_follow_the_slug():
    n = Names.of("lantern-race")
    assert (n.pkg, n.cls, n.title) == ("lantern_race", "LanternRace", "Lantern Race")


def test_an_existing_game_or_a_folder_that_is_no_checkout_is_refused(tmp_path):
    with pytest.raises(PnpError, match="not a pnp checkout"):
        new_game("lantern-race", tmp_path)
    root = checkout_copy(tmp_path / "repo")
    before = sorted(p for p in root.rglob("*"))
    with pytest.raises(PnpError, match="already exists"):
        new_game("parcheesi", root)
    assert sorted(p for p in root.rglob("*")) == before  # nothing written, nothing left


@pytest.mark.slow
def test_the_skeleton_is_clean_typed_and_passes_its_tests(tmp_path):
    root = checkout_copy(tmp_path)
    written = new_game("lantern-race", root)
    pkg = root / "pnp/games/lantern_race"
    assert pkg / "rules.py" in written
    assert (root / "templates/rules/lantern-race/rule-1-goal.j2").is_file()
    bin_ = Path(sys.executable).parent
    test = root / "tests/test_game_lantern_race.py"
    for tool in (["ruff", "check"], ["ruff", "format", "--check"]):
        run = subprocess.run(
            [str(bin_ / tool[0]), *tool[1:], str(pkg), str(test)],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 0, run.stdout + run.stderr
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(test)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "passed" in run.stdout
