"""`pnp new`: the skeleton of a game, written into a copy of this checkout, or with
`--package DIR` as a plugin repository of its own, and tried as a new user would: its files
are lint-clean and typed, held by the import contracts, and its tests pass. Nothing is
installed: the plugin is declared to Python as pip would (`pnp.testing.install`)."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from cli_run import one_error_line, run
from tiers import ci_keeps

import pnp.scaffold.data
from pnp.runtime.errors import PnpError
from pnp.scaffold import Names, new_game, new_package
from pnp.scaffold.data import create_game
from pnp.testing.install import fake_install

ROOT = Path(__file__).resolve().parent.parent


def checkout_copy(dest: Path) -> Path:
    """The parts of this checkout a game lives in and its tests read, copied (the kernels,
    test caches and outputs left out). Python's byte-code caches come along: the sources
    keep their times, so the copy's pnp and tests load without compiling every module again."""
    skip = shutil.ignore_patterns("*.so", ".pytest_cache", ".hypothesis")
    for part in ("pnp", "geometry", "templates", "tests", "docs"):
        shutil.copytree(ROOT / part, dest / part, ignore=skip)
    for name in ("pyproject.toml", "README.md", "mkdocs.yml", "Makefile", "LICENSE"):
        shutil.copy(ROOT / name, dest)
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
@pytest.mark.parametrize("tier", ci_keeps(["not slow and not long", "slow and not long"], 0))
def test_a_new_game_passes_the_suite_with_one_registry_line(tmp_path, tier):
    """As a new user: `pnp new`, add the line it prints, and every test that takes the
    game (the contract, golden, conformance and its own tests) passes, the fast tier's in
    CI and the slow tier's in the long one; its files are lint-clean and typed."""
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
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-m", tier]
        + ["-k", "lantern", "tests"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "lantern" in (root / "pnp/games/__init__.py").read_text()
    # the import contracts name games by wildcard: the new game is held with no edit
    with (pkg / "rules" / "__init__.py").open("a") as rules:
        rules.write("\nimport pnp.draw.scene  # noqa: E402, F401\n")
    with (pkg / "game.py").open("a") as game:
        game.write("\nimport pnp.games.lantern_race.kit  # noqa: E402, F401\n")
    run = subprocess.run(
        [str(bin_ / "lint-imports"), "--no-cache"],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode != 0 and "2 broken" in run.stdout, run.stdout[-3000:]
    assert "pnp.games.lantern_race.rules -> pnp.draw.scene" in run.stdout
    assert "pnp.games.lantern_race.game -> pnp.games.lantern_race.kit" in run.stdout


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

    def failing(module: str, tests: Path) -> list[Path]:
        where = tests.parent
        seen["package"] = sorted(p.name for p in (where / "pnp/games/lantern_race").iterdir())
        (where / "tests/conformance/lantern-race.json").write_text('{"cases": [')
        raise failure

    monkeypatch.setattr(pnp.scaffold.data, "write_reference_data", failing)
    with pytest.raises(type(failure)):
        create_game("lantern-race", root)
    assert "game.py" in seen["package"]  # the skeleton was in place when it failed
    assert files_of(root) == before


# --- a game in a repository of its own (--package) ----------------------------------------


def listing(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def test_a_package_goes_only_to_a_new_or_empty_folder_and_a_free_module_name(tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine")
    (tmp_path / "a-file").write_text("mine")
    before = listing(tmp_path)
    with pytest.raises(PnpError, match="not an empty folder"):
        new_package("lantern-race", tmp_path / "full")
    with pytest.raises(PnpError, match="not an empty folder"):
        new_package("lantern-race", tmp_path / "a-file")
    with pytest.raises(PnpError, match="'parcheesi' is taken"):
        new_package("parcheesi", tmp_path / "parcheesi")  # pnp would refuse it as a plugin
    with pytest.raises(PnpError, match="'json' is already installed"):
        new_package("json", tmp_path / "json-game")  # it would shadow the standard library
    with pytest.raises(PnpError, match="not a game slug"):
        new_package("Lantern Race", tmp_path / "lantern")
    assert listing(tmp_path) == before


def test_a_failure_while_making_the_reference_data_leaves_nothing(tmp_path):
    def fails(module: str, tests: Path) -> list[Path]:
        assert (tests.parent / "pyproject.toml").is_file() and module == "lantern_race"
        raise RuntimeError("the reference data could not be made")

    (tmp_path / "empty").mkdir()
    with pytest.raises(RuntimeError):
        new_package("lantern-race", tmp_path / "games" / "lantern", fails)
    with pytest.raises(RuntimeError):
        new_package("lantern-race", tmp_path / "empty", fails)
    assert listing(tmp_path) == ["empty"]


def test_a_write_that_fails_in_the_temporary_folder_names_the_destination(tmp_path):
    """pnp's temporary folder is its own business: the error names where the file was going."""

    def disk_full(module: str, tests: Path) -> list[Path]:
        raise OSError(errno.ENOSPC, "No space left on device", str(tests / "golden" / "x.json"))

    dest = tmp_path / "lantern"
    with pytest.raises(PnpError) as refused:
        new_package("lantern-race", dest, disk_full)
    assert str(refused.value) == f"cannot write {dest}/tests/golden/x.json: No space left on device"
    assert listing(tmp_path) == []


def test_pnp_new_where_no_folder_can_be_is_one_line_naming_the_users_path(capsys, tmp_path):
    (tmp_path / "a-file").write_text("mine")
    dest = tmp_path / "a-file" / "lantern"
    code, out, err = run(capsys, "new", "lantern-race", "--package", str(dest))
    line = one_error_line(err)
    assert code == 2 and out == ""
    assert line == (
        f"error: cannot write the game's repository {dest}: {tmp_path / 'a-file'} is not a folder"
    )
    too_long = tmp_path / ("o" * 300) / "lantern"
    code, out, err = run(capsys, "new", "lantern-race", "--package", str(too_long))
    assert code == 2 and "File name too long" in one_error_line(err)
    assert ".pnp-new-" not in err
    assert listing(tmp_path) == ["a-file"]


def test_the_package_declares_its_game_dependency_and_rule_cards(tmp_path):
    written = new_package("lantern-race", tmp_path / "lantern")
    repo = tmp_path / "lantern"
    assert {p.relative_to(repo).as_posix() for p in written} == set(listing(repo)) - {
        "lantern_race",
        "lantern_race/rule_cards",
        "lantern_race/rules",
        "lantern_race/kit",
        "tests",
    }
    project = tomllib.loads((repo / "pyproject.toml").read_text())
    assert project["project"]["dependencies"] == ["pnp-kits"]
    assert project["project"]["optional-dependencies"]["test"] == ["pnp-kits[testing]"]
    assert project["project"]["entry-points"]["pnp.games"] == {
        "lantern-race": "lantern_race.game:GAME"
    }
    data = project["tool"]["setuptools"]["package-data"]["lantern_race"]
    cards = sorted(p.name for p in (repo / "lantern_race" / "rule_cards").glob("*.j2"))
    assert cards == ["rule-1-goal.j2", "rule-2-turn.j2"] and data == ["rule_cards/*.j2"]
    game = (repo / "lantern_race" / "game.py").read_text()
    assert 'PACKAGE = "lantern_race"' in game and 'templates=(PACKAGE, "rule_cards")' in game
    assert "class TestLanternRace(GameSuite):" in (repo / "tests" / "test_pnp.py").read_text()
    assert "pip install -e" in (repo / "README.md").read_text()


def test_pnp_new_into_a_folder_that_is_not_empty_is_one_line(capsys, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    code, out, err = run(capsys, "new", "lantern-race", "--package", str(tmp_path))
    assert code == 2 and out == "" and "is not an empty folder" in one_error_line(err)
    assert listing(tmp_path) == ["notes.txt"]


def installed_as_pip_would(repo: Path, site: Path) -> dict[str, str]:
    """The environment of a process that sees the repository as installed: its package on
    the path and its distribution declared with the entry points its pyproject names."""
    project = tomllib.loads((repo / "pyproject.toml").read_text())["project"]
    fake_install(site, project["name"], project["entry-points"])
    path = os.pathsep.join([str(repo), str(site)])
    return {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")} | {
        "PYTHONPATH": path
    }


@pytest.mark.slow
def test_a_package_made_by_pnp_new_passes_its_tests_lint_and_types(tmp_path):
    """As a new user out of the tree: `pnp new SLUG --package DIR`, install, `pytest DIR`:
    every test passes at once (pnp's bar included, both tiers), pnp lists the game, and
    its files are lint-clean and typed under the repository's own settings."""
    repo = tmp_path / "lantern-race"
    made = subprocess.run(
        [sys.executable, "-m", "pnp", "new", "lantern-race", "--package", str(repo)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert made.returncode == 0, made.stderr
    assert "pip install -e" in made.stdout and (repo / "tests/golden/lantern-race").is_dir()
    env = installed_as_pip_would(repo, tmp_path / "site")
    listed = subprocess.run(
        [sys.executable, "-m", "pnp", "list"], capture_output=True, text=True, env=env
    )
    assert "lantern-race" in listed.stdout and listed.stderr == "", listed.stderr
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(repo)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert tests.returncode == 0, tests.stdout[-3000:] + tests.stderr[-2000:]
    assert " passed" in tests.stdout and "skipped" in tests.stdout  # the game has no solver
    bin_ = Path(sys.executable).parent
    for tool in (["ruff", "check", "."], ["ruff", "format", "--check", "."], ["mypy", "."]):
        checked = subprocess.run(
            [str(bin_ / tool[0]), *tool[1:]],
            cwd=repo,
            env=env | {"MYPYPATH": str(ROOT)},  # pnp's source, as a wheel would give it
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert checked.returncode == 0, checked.stdout[-3000:] + checked.stderr[-2000:]
