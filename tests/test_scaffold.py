"""`pnp new`: the skeleton of a game, written into a copy of this checkout and tried there
as a new user would: its files are lint-clean and typed, and its own tests pass."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pnp.scaffold.data
from pnp.errors import PnpError
from pnp.scaffold import Names, new_game
from pnp.scaffold.data import create_game

ROOT = Path(__file__).resolve().parent.parent


def checkout_copy(dest: Path) -> Path:
    """The parts of this checkout a game lives in, copied (caches and outputs left out)."""
    skip = shutil.ignore_patterns("__pycache__", "*.so", ".pytest_cache", ".hypothesis")
    for part in ("pnp", "geometry", "templates", "tests"):
        shutil.copytree(ROOT / part, dest / part, ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", dest)
    return dest


@pytest.mark.parametrize(
    "slug",
    ["Lantern", "2race", "race--home", "race_home", "-race", "", "class", "a" * 41, "race\n"],
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
    with pytest.raises(PnpError, match="'parcheesi' is taken"):
        new_game("parcheesi", root)
    (root / "templates/rules/lantern-race").mkdir()
    with pytest.raises(PnpError, match="lantern-race already exists"):
        new_game("lantern-race", root)
    (root / "templates/rules/lantern-race").rmdir()
    assert sorted(p for p in root.rglob("*")) == before  # nothing written, nothing left


@pytest.mark.slow
def test_a_new_game_passes_the_suite_with_one_registry_line(tmp_path):
    """As a new user: `pnp new`, add the line it prints, and every test that takes the
    game (the contract, golden, conformance and its own tests, both tiers) passes; its
    files are lint-clean and typed."""
    root = checkout_copy(tmp_path)
    run = subprocess.run(
        [sys.executable, "-m", "pnp", "new", "lantern-race"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    line = next(x.strip() for x in run.stdout.splitlines() if x.startswith("    "))
    assert line == '"lantern_race",'
    registry = root / "pnp/games/__init__.py"
    text = registry.read_text()
    registry.write_text(text.replace('    "desert_home",\n)', f'    "desert_home",\n    {line}\n)'))
    pkg = root / "pnp/games/lantern_race"
    test = root / "tests/test_game_lantern_race.py"
    assert (root / "tests/golden/lantern-race/board.json").is_file()
    assert (root / "tests/conformance/lantern-race.json").is_file()
    bin_ = Path(sys.executable).parent
    for tool in (["ruff", "check"], ["ruff", "format", "--check"], ["mypy"]):
        run = subprocess.run(
            [str(bin_ / tool[0]), *tool[1:], str(pkg), str(test)],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-k", "lantern", "tests"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "lantern" in (root / "pnp/games/__init__.py").read_text()


def test_pnp_new_with_a_bad_slug_is_one_line_and_writes_nothing(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "pnp", "new", "Lantern Race"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("error: 'Lantern Race'")
    assert not (ROOT / "pnp/games/lantern_race").exists()


def files_of(root: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) under `root`, but Python's byte-code caches,
    which any command that imports pnp may write."""
    return {
        p.relative_to(root).as_posix(): (None if p.is_dir() else p.read_bytes())
        for p in sorted(root.rglob("*"))
        if "__pycache__" not in p.parts
    }


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bytes | None]]:
    root = checkout_copy(tmp_path_factory.mktemp("checkout"))
    return root, files_of(root)


BAD_NAMES = [
    "a'b",  # quotes
    '"race"',
    "..",
    "../race",
    "race/home",
    "race\n",
    "",
    "class",  # a keyword
    "all",  # the word for every game
    "parcheesi",  # a registered game
    "plugins",  # a module of pnp.games: the package would shadow it
    "lantern race",
]


@pytest.mark.parametrize("slug", BAD_NAMES)
def test_a_slug_that_is_no_free_name_is_refused_and_nothing_changes(checkout, slug):
    root, before = checkout
    with pytest.raises(PnpError) as refused:
        create_game(slug, root)
    assert "\n" not in str(refused.value)
    assert files_of(root) == before


@pytest.mark.parametrize("slug", ["a'b", ".."])
def test_pnp_new_refuses_a_slug_in_one_line_and_the_checkout_stays_byte_identical(checkout, slug):
    root, before = checkout
    run = subprocess.run(
        [sys.executable, "-m", "pnp", "new", slug],
        cwd=root,  # this copy's pnp, so its checkout is the one `pnp new` writes into
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and run.stdout == "", run.stderr
    assert run.stderr.count("\n") == 1 and "is not a game slug" in run.stderr
    assert files_of(root) == before


@pytest.mark.parametrize("failure", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_a_failure_after_the_skeleton_is_written_takes_it_all_out_again(
    checkout, monkeypatch, failure
):
    """The reference data is written after the skeleton is in place (the golden run needs
    it there): a failure then, half a conformance file written, leaves no trace either."""
    root, before = checkout
    seen = {}

    def failing(slug: str, where: Path) -> list[Path]:
        seen["package"] = sorted(p.name for p in (where / "pnp/games/lantern_race").iterdir())
        (where / "tests/conformance/lantern-race.json").write_text('{"cases": [')
        raise failure

    monkeypatch.setattr(pnp.scaffold.data, "write_reference_data", failing)
    with pytest.raises(type(failure)):
        create_game("lantern-race", root)
    assert "game.py" in seen["package"]  # the skeleton was in place when it failed
    assert files_of(root) == before
