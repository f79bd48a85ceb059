"""TOML config: overrides reach the kit, mistakes become one clear PnpError."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.build import resolve_params
from pnp.games import get_game
from pnp.games.exploding_dice.params import dice, play_model
from pnp.runtime.errors import PnpError

GAME = get_game("exploding-dice")


def write(tmp_path, text):
    p = tmp_path / "kit.toml"
    p.write_text(text)
    return p


def test_overrides_reach_params_and_printing(tmp_path):
    cfg = write(
        tmp_path,
        'die_size = 12\narrows = "pinwheel"\npaper = "letter"\nkerf = 0.15\n'
        "card_width = 80\n[faces]\nred = [1, 1, 2, 2, 3, 3]\n",
    )
    params, printing, chosen = resolve_params(GAME, cfg)
    assert params.die_size == 12.0 and params.arrows == "pinwheel"
    assert printing.paper == "letter" and printing.kerf == 0.15 and params.card_width == 80
    assert chosen
    reds = [d.faces for d in dice(params) if d.colour == 0]
    assert reds == [(1, 1, 2, 2, 3, 3)] * 4
    assert len(play_model(params).entries) == 8


def test_per_die_faces(tmp_path):
    cfg = write(
        tmp_path, "[faces]\nblue = [[1,2,3,4,5,6],[1,1,1,1,1,1],[2,2,2,2,2,1],[6,5,4,3,2,1]]\n"
    )
    params, _, _ = resolve_params(GAME, cfg)
    blues = [d.faces for d in dice(params) if d.colour == 2]
    assert blues[1] == (1,) * 6 and blues[3] == (6, 5, 4, 3, 2, 1)


@pytest.mark.parametrize(
    "text, needle",
    [
        ("die_size = ", "not valid TOML"),
        ("dice_size = 12", "unknown key 'dice_size'"),
        ('die_size = "big"', "must be a number"),
        ("die_size = 0", "'die_size' must be from 5 to 40"),
        ("die_size = -4", "'die_size' must be from 5 to 40"),
        ('paper = "a5"', "unknown paper 'a5'"),
        ('arrows = "spiral"', "'arrows' must be one of all, pinwheel"),
        ("n = 5", "from 2 to 16 in steps of 2"),
        ("[faces]\nred = [1, 2, 3]", "six values"),
        ("[faces]\npink = [1, 2, 3, 4, 5, 6]", "unknown colour 'pink'"),
        ("kerf = -1", "kerf"),
    ],
)
def test_bad_config_is_one_clear_error(tmp_path, text, needle):
    cfg = write(tmp_path, text)
    with pytest.raises(PnpError, match=needle):
        params, printing, _ = resolve_params(GAME, cfg)
        play_model(params)


def test_missing_config_file(tmp_path):
    with pytest.raises(PnpError, match="does not exist"):
        resolve_params(GAME, tmp_path / "nope.toml")


def _nested(depth: int, opener: str) -> str:
    """A TOML value `depth` levels deep: '[' a list, '{' an inline table, mixed by turns."""
    out, close = "", ""
    for i in range(depth):
        kind = opener[i % len(opener)]
        out += "[" if kind == "[" else "{a = "
        close = ("]" if kind == "[" else "}") + close
    return out + "1" + close


@settings(max_examples=25, deadline=None)
@given(
    depth=st.integers(1, 5000),
    opener=st.sampled_from(["[", "{", "[{", "{[", "[[{"]),
    key=st.sampled_from(["die_size", "faces", "colours", "x"]),
    table=st.booleans(),
)
def test_any_nesting_depth_is_read_or_refused_in_one_line(
    tmp_path_factory, depth, opener, key, table
):
    text = (
        f"[faces]\nred = {_nested(depth, opener)}\n"
        if table
        else f"{key} = {_nested(depth, opener)}\n"
    )
    cfg = tmp_path_factory.mktemp("deep") / "kit.toml"
    cfg.write_text(text)
    try:
        params, _, _ = resolve_params(GAME, cfg)
        play_model(params)
    except PnpError as exc:
        assert "\n" not in str(exc)
    else:
        raise AssertionError(f"a nested {key} was accepted")


def test_a_players_key_leaves_the_kit_as_it_is(tmp_path):
    """The seat count is for simulate and tune: a kit that does not depend on it builds
    the same with it (Exploding Dice's kit is the same for 2 to 4 players)."""
    plain, printing, _ = resolve_params(GAME, write(tmp_path, "n = 6\n"))
    seated, seated_printing, _ = resolve_params(GAME, write(tmp_path, "n = 6\nplayers = 3\n"))
    assert (seated, seated_printing) == (plain, printing)


@pytest.mark.parametrize(
    "slug, text, needle",
    [
        ("exploding-dice", "players = 5", "a whole number from 2 to 4, got 5"),
        ("exploding-dice", "players = 1", "a whole number from 2 to 4, got 1"),
        ("exploding-dice", 'players = "three"', "got 'three'"),
        ("exploding-dice", "players = 3.5", "got 3.5"),
        ("exploding-dice", "players = true", "got True"),
        ("desert-home", "players = 3", "'players' is the number of players, 2, got 3"),
        ("building-community", "players = 7", "a whole number from 2 to 6, got 7"),
    ],
)
def test_a_bad_players_key_is_one_error_line(tmp_path, slug, text, needle):
    with pytest.raises(PnpError) as exc:
        resolve_params(get_game(slug), write(tmp_path, text))
    assert needle in str(exc.value) and "\n" not in str(exc.value)
    assert str(exc.value).startswith("config file ")


def test_a_building_community_players_key_is_its_kit_key_and_its_seat_count(tmp_path):
    """Its layout check solves for the players of its kit; the same key seats them."""
    from pnp.sim.command import plan_simulation

    cfg = write(tmp_path, "players = 4\n")
    params, _, _ = resolve_params(get_game("building-community"), cfg)
    plan = plan_simulation("building-community", games=1, config=cfg)
    assert params.players == 4 and plan.job.players == 4
