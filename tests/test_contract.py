"""Every registered game goes through the whole product: kit, checks, every renderer,
the gallery, and a short simulation of the same kit."""

from __future__ import annotations

import re

import pytest

from pnp.build import build_gallery_for, build_game, make_kit
from pnp.checks import has_errors
from pnp.games import registry

GAMES = list(registry())


@pytest.mark.parametrize("slug", GAMES)
def test_kit_builds_checks_and_renders(slug, tmp_path):
    game, kit = make_kit(slug, paper="letter")
    assert not has_errors(game.checks(kit))
    result = build_game(slug, ["letter"], tmp_path, formats=["pdf", "svg", "png", "dxf"])
    names = {p.name for p in result.files}
    assert f"{slug}-letter.pdf" in names
    for comp in kit.components:
        assert f"{comp.name}.svg" in names and f"{comp.name}.png" in names
        assert (f"{comp.name}.dxf" in names) == comp.has_cut_lines()
    assert not list(tmp_path.rglob("*.tmp")), "a temporary file was left behind"
    index = build_gallery_for(tmp_path)
    html = index.read_text(encoding="utf-8")
    for href in re.findall(r'(?:href|src)="([^"#:]+)"', html):
        assert (tmp_path / href).exists(), href
    assert f"{slug}/{slug}-letter.pdf" in html


@pytest.mark.parametrize("slug", GAMES)
def test_the_simulated_set_is_the_printed_set(slug):
    game, kit = make_kit(slug)
    engine = game.engine
    assert engine is not None, f"{slug} has no rules engine"
    players = engine.MIN_PLAYERS
    model = engine.prepare(kit.params, players)
    assert model == kit.model, "the engine must play the kit that prints"
    for bot in engine.BOTS:
        record = engine.play_one(model, players, bot, f"contract:{bot}")
        assert record.turns > 0 and record.end
