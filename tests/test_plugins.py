"""Games from other installed packages (the `pnp.games` entry-point group), with their own
rule templates: a working plugin is a game like the others, a broken one is one warning
line and nothing else changes. The packages here are real ones, on sys.path with a
dist-info folder, as pip would install them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pnp import templating
from pnp.cards import CardFormat, rule_deck
from pnp.games import get_game, registry
from pnp.games.plugins import plugins
from pnp.params import PrintParams

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
ENTRY_POINTS = """[pnp.games]
lamps = lamps_plugin:GAME
missing = lamps_plugin_gone:GAME
notagame = lamps_plugin:NOT_A_GAME
clash = lamps_plugin:CLASH
notemplates = lamps_plugin:NO_TEMPLATES
dots = lamps_plugin:DOTS
empty = lamps_plugin:EMPTY
number = lamps_plugin:NUMBER
all = lamps_plugin:ALL
title = lamps_plugin:TITLE
documents = lamps_plugin:DOCUMENTS
engine = lamps_plugin:ENGINE
params = lamps_plugin:PARAMS
exits = lamps_plugin_exits:GAME
"""
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


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An installed package `lamps_plugin` declaring one good game and four broken ones."""
    package = tmp_path / "lamps_plugin"
    (package / "rules").mkdir(parents=True)
    (package / "__init__.py").write_text(PLUGIN)
    (tmp_path / "lamps_plugin_exits.py").write_text(EXITS)
    (package / "rules" / "rule-1-goal.j2").write_text("title: Goal\nLight all {{ lamps }} lamps.\n")
    (package / "rules" / "rule-2-turn.j2").write_text("title: Turn\nSwitch one lamp.\n")
    info = tmp_path / "lamps_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lamps-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(Path(__file__).parent))  # toy_game
    plugins.cache_clear()
    yield tmp_path
    plugins.cache_clear()
    for slug in ("lamps-plugin", "lamps-bare"):
        templating.use_game_templates(slug, None)


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
    info = site / "sleepy_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sleepy-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[pnp.games]\nsleepy = sleepy_plugin:GAME\n")
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
    from pnp.gamedef import game_problem

    assert {slug: game_problem(game) for slug, game in registry().items()} == {
        slug: None for slug in registry()
    }
