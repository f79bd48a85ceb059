"""`make test GAME=slug` (pytest --game slug): the tests about one game, found by their
file's name, by a parameter that names the game, or by a `game` marker (game_tests)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from game_tests import initials, named_for, names_game
from toy_game import GAME as TOY

ROOT = Path(__file__).resolve().parent.parent


def test_a_file_is_about_a_game_by_its_package_or_its_initials():
    assert initials("home-in-one-piece") == "hiop"
    assert named_for("test_dh_rules", "desert-home")
    assert named_for("test_desert_home_rules", "desert-home")
    assert named_for("test_kit_desert_home", "desert-home")
    assert named_for("test_game_lantern_race", "lantern-race")
    assert named_for("test_parcheesi_kernel", "parcheesi")
    assert named_for("test_hiop_tree", "home-in-one-piece")
    assert not named_for("test_dhx_rules", "desert-home")
    assert not named_for("test_png", "parcheesi")  # a one-letter initial names nothing
    assert not named_for("test_dice_components", "desert-home")
    assert not named_for("test_kit_parcheesi", "desert-home")


def test_a_parameter_names_a_game_by_slug_gamedef_or_golden_key():
    assert names_game("parcheesi", "parcheesi") and names_game("parcheesi/board", "parcheesi")
    assert names_game(TOY, "lamps") and not names_game(TOY, "parcheesi")
    assert not names_game("parcheesi-ish", "parcheesi") and not names_game(3, "parcheesi")


def collect_only(*args: str) -> subprocess.CompletedProcess:
    """`pytest --collect-only ARGS` in a new process, with pnp's settings."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only"]
        + ["--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml"), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


MARKED = """
import pytest

pytestmark = pytest.mark.game("desert-home")


def test_about_the_desert():
    pass
"""


@pytest.mark.slow  # pytest collecting in a new process
def test_game_keeps_one_games_files_and_cases(tmp_path):
    (tmp_path / "test_marked_for_a_game.py").write_text(MARKED)
    files = [
        "test_dh_rules.py",
        "test_kit_desert_home.py",
        "test_parcheesi_rules.py",
        "test_atomic.py",
        "test_contract.py",
        "test_golden.py",
        "test_conformance.py",
    ]
    args = [str(ROOT / "tests" / f) for f in files] + [str(tmp_path / "test_marked_for_a_game.py")]

    def collect(*options: str) -> list[str]:
        r = collect_only(*options, *args)
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
        return [line for line in r.stdout.splitlines() if "::" in line]

    every, desert = collect(), collect("--game", "desert-home")
    assert desert and set(desert) < set(every)

    def of(name: str, tests: list[str]) -> list[str]:
        return [t for t in tests if f"{name}::" in t]

    for own in ("test_dh_rules.py", "test_kit_desert_home.py"):
        assert of(own, desert) == of(own, every) != []
    assert [t for t in desert if t.endswith("::test_about_the_desert")]  # the marked file
    assert not of("test_parcheesi_rules.py", desert) and not of("test_atomic.py", desert)
    for shared in ("test_contract.py", "test_golden.py", "test_conformance.py"):
        chosen = of(shared, desert)
        assert chosen and all("desert-home" in t for t in chosen), shared
        assert chosen == [t for t in of(shared, every) if "[desert-home" in t]


@pytest.mark.slow  # pytest in a new process
def test_an_unknown_game_is_one_usage_line():
    r = collect_only("--game", "chess", str(ROOT / "tests" / "test_atomic.py"))
    assert r.returncode == 4, r.stdout + r.stderr
    assert "--game chess: no such game" in r.stderr and "Traceback" not in r.stderr
