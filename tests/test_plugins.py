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
"""
ENTRY_POINTS = """[pnp.games]
lamps = lamps_plugin:GAME
missing = lamps_plugin_gone:GAME
notagame = lamps_plugin:NOT_A_GAME
clash = lamps_plugin:CLASH
notemplates = lamps_plugin:NO_TEMPLATES
"""
BROKEN = ("missing", "notagame", "clash", "notemplates")


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An installed package `lamps_plugin` declaring one good game and four broken ones."""
    package = tmp_path / "lamps_plugin"
    (package / "rules").mkdir(parents=True)
    (package / "__init__.py").write_text(PLUGIN)
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
    for name, line in zip(sorted(BROKEN), sorted(lines), strict=True):
        assert line.startswith(f"warning: plugin '{name}' could not be loaded: ")
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
