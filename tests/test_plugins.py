"""Games from other installed packages (the `pnp.games` entry-point group), with their own
rule templates: a working plugin is a game like the others, a broken one is one warning
line and nothing else changes. The packages here are real ones, on sys.path with a
dist-info folder, as pip would install them."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pnp.contract.params import PrintParams
from pnp.draw import templating
from pnp.draw.cards import CardFormat, rule_deck
from pnp.games import built_in_slugs, get_game, registry
from pnp.games.plugins import GROUP, plugins
from pnp.testing.install import fake_install, installed

PLUGIN = """
import dataclasses
from toy_game import GAME as _TOY

GAME = dataclasses.replace(_TOY, slug="lamps-plugin", templates=("lamps_plugin", "rules"))
CLASH = dataclasses.replace(_TOY, slug="exploding-dice")
NOT_A_GAME = "lamps"
NO_TEMPLATES = dataclasses.replace(_TOY, slug="lamps-bare", templates=("lamps_plugin", "gone"))
DOTS = dataclasses.replace(_TOY, slug="..")
EMPTY = dataclasses.replace(_TOY, slug="")
NUMBER = dataclasses.replace(_TOY, slug=5)
ALL = dataclasses.replace(_TOY, slug="all")
TITLE = dataclasses.replace(_TOY, slug="lamps-title", title=7)
DOCUMENTS = dataclasses.replace(_TOY, slug="lamps-docs", documents=(("pattern", 3),))
ENGINE = dataclasses.replace(_TOY, slug="lamps-engine", engine=object())
PARAMS = dataclasses.replace(_TOY, slug="lamps-params", default_params=dict)

"""
EXITS = "raise SystemExit(3)\n"
ENTRY_POINTS = {
    "lamps": "lamps_plugin:GAME",
    "missing": "lamps_plugin_gone:GAME",
    "notagame": "lamps_plugin:NOT_A_GAME",
    "clash": "lamps_plugin:CLASH",
    "notemplates": "lamps_plugin:NO_TEMPLATES",
    "dots": "lamps_plugin:DOTS",
    "empty": "lamps_plugin:EMPTY",
    "number": "lamps_plugin:NUMBER",
    "all": "lamps_plugin:ALL",
    "title": "lamps_plugin:TITLE",
    "documents": "lamps_plugin:DOCUMENTS",
    "engine": "lamps_plugin:ENGINE",
    "params": "lamps_plugin:PARAMS",
    "exits": "lamps_plugin_exits:GAME",
}
BROKEN = {
    "missing": "ModuleNotFoundError",
    "notagame": "it gives a str, not a pnp GameDef",
    "clash": "its slug 'exploding-dice' is another game's",
    "notemplates": "gone",
    "dots": "'..' is not a game slug",
    "empty": "'' is not a game slug",
    "number": "a slug must be a string, not int 5",
    "all": "'all' is the word for every game",
    "title": "its title must be a line of text, got 7",
    "documents": "its documents must be (name, title) pairs",
    "engine": "its engine lacks BOTS",
    "params": "its default_params() gives a dict, not a parameter dataclass",
    "exits": "SystemExit: 3",
}
TESTS = Path(__file__).parent  # toy_game


def plugin_package(folder: Path) -> Path:
    """The package `lamps_plugin`: one good game (the toy, renamed, with rule templates of
    its own) and broken ones (`BROKEN`), and a module that exits when imported."""
    package = folder / "lamps_plugin"
    (package / "rules").mkdir(parents=True)
    (package / "__init__.py").write_text(PLUGIN)
    (folder / "lamps_plugin_exits.py").write_text(EXITS)
    (package / "rules" / "rule-1-goal.j2").write_text("title: Goal\nLight all {{ lamps }} lamps.\n")
    (package / "rules" / "rule-2-turn.j2").write_text("title: Turn\nSwitch one lamp.\n")
    return folder


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Path]:
    """`lamps_plugin` installed, declaring one good game and four broken ones."""
    plugin_package(tmp_path)
    with installed(tmp_path, "lamps-plugin", {GROUP: ENTRY_POINTS}, [TESTS]):
        yield tmp_path


@pytest.fixture
def good_plugin(tmp_path: Path) -> Iterator[Path]:
    """`lamps_plugin` installed, declaring its good game only: pnp lists `lamps-plugin`."""
    plugin_package(tmp_path)
    with installed(tmp_path, "lamps-plugin", {GROUP: {"lamps": ENTRY_POINTS["lamps"]}}, [TESTS]):
        yield tmp_path


def test_a_plugin_game_joins_the_registry_and_a_broken_one_is_one_line(site, capsys):
    games = registry()
    assert "lamps-plugin" in games and get_game("lamps-plugin").title == "Lamps"
    assert games["exploding-dice"].engine.__name__ == "pnp.games.exploding_dice.engine"
    assert "lamps-bare" not in games
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == len(BROKEN)
    for (name, reason), line in zip(sorted(BROKEN.items()), sorted(lines), strict=True):
        assert line.startswith(f"warning: plugin '{name}' could not be loaded: ")
        assert reason in line
    assert not set(games) & {"..", "", 5, "all", "lamps-title", "lamps-docs", "lamps-engine"}
    registry()
    assert capsys.readouterr().err == "", "said once, not on every look at the registry"


def test_a_plugin_game_brings_its_own_rule_templates(site):
    get_game("lamps-plugin")  # the registry hands its templates to the jinja environment
    cards, findings = rule_deck(
        "lamps-plugin",
        {"lamps": 5},
        CardFormat(63.5, 88.9, 3.0, PrintParams().bleed),
        "#2F3E55",
    )
    assert [c.title for c in cards] == ["Rule card 1: Goal", "Rule card 2: Turn"]
    assert not [f for f in findings if f.level == "error"]
    assert "Light all 5 lamps." in templating.render("rules/lamps-plugin/rule-1-goal.j2", lamps=5)
    assert templating.game_templates("exploding-dice", "rule-1") == ["rule-1-overview.j2"]


def test_pnp_list_shows_the_plugin_and_warns_once_per_broken_one(site):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(Path(__file__).parent)])}
    r = subprocess.run(
        [sys.executable, "-m", "pnp.cli", "list"], capture_output=True, text=True, env=env
    )
    assert r.returncode == 0, r.stderr
    assert "lamps-plugin" in r.stdout and "exploding-dice" in r.stdout
    warned = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(warned) == len(BROKEN) and all(w.startswith("warning: plugin '") for w in warned)
    assert "Traceback" not in r.stderr


def test_no_plugins_no_noise(capsys):
    plugins.cache_clear()
    registry()
    assert capsys.readouterr().err == ""


SLEEPER = "import time\ntime.sleep(3600)\n"


@pytest.fixture
def sleepy_site(site: Path) -> Path:
    """One more installed plugin, whose import never ends (it sleeps for an hour)."""
    (site / "sleepy_plugin.py").write_text(SLEEPER)
    fake_install(site, "sleepy-plugin", {GROUP: {"sleepy": "sleepy_plugin:GAME"}})
    return site


def _pnp(site: Path, *args: str, timeout: str = "1") -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), str(Path(__file__).parent)]),
        "PNP_PLUGIN_TIMEOUT": timeout,
    }
    return subprocess.run(
        [sys.executable, "-m", "pnp.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


@pytest.mark.slow
def test_a_plugin_that_hangs_at_import_does_not_hang_pnp_list(sleepy_site):
    """The wait for each plugin is bounded (here 1 s): `pnp list` ends, lists every other
    game and says in one line which plugin it gave up on."""
    r = _pnp(sleepy_site, "list")
    assert r.returncode == 0, r.stderr
    assert "lamps-plugin" in r.stdout and "exploding-dice" in r.stdout
    said = [ln for ln in r.stderr.splitlines() if "'sleepy'" in ln]
    assert said == [
        "warning: plugin 'sleepy' could not be loaded: it did not finish importing within "
        "1 s (PNP_PLUGIN_TIMEOUT)"
    ]
    assert len(r.stderr.splitlines()) == len(BROKEN) + 1


@pytest.mark.slow
def test_a_command_of_a_built_in_game_imports_no_plugin(sleepy_site):
    """With a plugin that would hang for an hour and a wait of a minute, `check` and
    `simulate` of a built-in game neither wait nor warn: they never import a plugin."""
    for args in (["check", "exploding-dice"], ["simulate", "exploding-dice", "--games", "5"]):
        r = _pnp(sleepy_site, *args, timeout="3600")
        assert r.returncode == 0, r.stderr
        assert "warning: plugin" not in r.stderr


def test_every_built_in_game_would_pass_as_a_plugin():
    """The checks a plugin meets are no stricter than the games pnp ships."""
    from pnp.contract.gamedef import game_problem

    assert {slug: game_problem(game) for slug, game in registry().items()} == {
        slug: None for slug in registry()
    }


REFERENCE_TESTS = ("test_golden.py", "test_conformance.py", "test_contract.py", "test_bad_input.py")
"""pnp's own tests of every game: they take the built-in games (and the toy) only."""


def test_pnps_own_game_tests_leave_an_installed_plugin_game_to_its_own_suite(good_plugin):
    """Installed beside pnp, a plugin game is in the registry, and the games pnp's own
    game tests are made for (read from the modules as pytest imports them) are still the
    built-in ones: its golden files and conformance data live in its own repository."""
    assert "lamps-plugin" in registry()
    for name in REFERENCE_TESTS:
        made = runpy.run_path(str(TESTS / name))
        if "GAMES" in made:
            assert list(made["GAMES"]) == list(built_in_slugs()), name
    golden = runpy.run_path(str(TESTS / "test_golden.py"))
    assert {k.split("/")[0] for k in golden["KITS"] + golden["PARTS"]} == set(built_in_slugs())


@pytest.mark.slow  # pytest in a new process: the reference-data tests
def test_pnps_reference_data_tests_pass_with_a_plugin_installed(good_plugin):
    """The tests that failed with a plugin installed (its golden files and conformance
    data are not pnp's) pass, and collect the same tests as without it."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(good_plugin), str(TESTS)])}
    listed = subprocess.run(
        [sys.executable, "-m", "pnp.cli", "list"], capture_output=True, text=True, env=env
    )
    assert "lamps-plugin" in listed.stdout, listed.stderr
    files = [str(TESTS / name) for name in REFERENCE_TESTS]

    def pytest_run(*args: str, env: dict[str, str] | None = None) -> str:
        r = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
            cwd=TESTS.parent,
            capture_output=True,
            text=True,
            env={k: v for k, v in (env or os.environ).items() if not k.startswith("PYTEST_")},
            timeout=600,
        )
        assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
        return r.stdout

    def collected(**kw: dict[str, str]) -> list[str]:
        out = pytest_run("--collect-only", *files, **kw)
        return [line for line in out.splitlines() if "::" in line]

    without = collected()
    assert len(without) > 100 and collected(env=env) == without
    # the two that failed: every game's data file, and one game's golden files (the
    # cheapest kit to build; the collection above shows the plugin adds no case)
    ran = pytest_run("-k", "ships_its_data or every_part_has and building", *files[:2], env=env)
    assert " passed" in ran and "failed" not in ran
