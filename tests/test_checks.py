"""Rule-aware layout checks, each made to fail on purpose and to pass on the real set."""

from __future__ import annotations

import pytest
from shapely.geometry import LineString

from geometry.folding import container
from geometry.intersections import Entry
from geometry.shapes import rounded_rect
from pnp.checks import (
    check_cut_outlines,
    check_fits,
    check_narrowest_web,
    check_on_background,
    check_palette,
)
from pnp.games.exploding_dice.board import board
from pnp.games.exploding_dice.checks import check_arrows, check_board_folds, check_dice_count
from pnp.games.exploding_dice.params import ExplodingDiceParams, play_model
from pnp.kit import PrintParams
from pnp.palette import INKS
from pnp.scene import CUT_STYLE, Component, Shape

TIN = container(91.5, 56.9, 14.0)  # the contest tin, from the spec


def card(w, h, r):
    c = Component("c", "c", w, h, imposition="card")
    c.outline = rounded_rect(0, 0, w, h, r)
    return c


@pytest.mark.parametrize(
    "w, h, r, fits",
    [
        (85, 55, 8, True),  # the old default card: clears the tin by 0.25 mm
        (85, 55, 3, False),  # the same card with small corners: they hit the tin's r14 corners
        (63.5, 44.45, 3, True),  # mini card, from the spec
        (88.9, 50.8, 3, False),  # business card: corners hit the tin's corners
        (105, 74, 0, False),  # folded PocketMod
        (91.0, 56.0, 14, True),  # a card with the tin's own corner radius
    ],
)
def test_tin_fit_is_geometry_not_width_and_height(w, h, r, fits):
    assert (check_fits(card(w, h, r), "tin", TIN) == []) is fits


def test_default_board_folds_into_tin_and_huge_board_cannot():
    ok = board(ExplodingDiceParams(), PrintParams())
    findings = check_board_folds(ok, TIN)
    assert [f.level for f in findings] == ["info"]
    big = board(ExplodingDiceParams(n=10, die_size=16), PrintParams())
    assert [f.level for f in check_board_folds(big, TIN)] == ["error"]


def test_dice_count_warns_when_grid_can_never_fill():
    assert check_dice_count(play_model(ExplodingDiceParams())) == []
    few = check_dice_count(play_model(ExplodingDiceParams(dice_per_colour=3)))
    assert few and few[0].level == "warning" and "12 dice cannot fill 16" in few[0].message


def test_arrow_checks():
    m = play_model(ExplodingDiceParams(arrows="pinwheel"))
    assert check_arrows(m, "pinwheel") == []
    broken = m.__class__(**{**m.__dict__, "entries": m.entries[1:]})
    assert any("no arrow enters" in f.message for f in check_arrows(broken, "pinwheel"))
    lopsided = m.__class__(
        **{
            **m.__dict__,
            "entries": tuple(Entry("W", i) for i in range(4))
            + tuple(Entry("N", i) for i in range(4)),
        }
    )
    msgs = [f.message for f in check_arrows(lopsided, "pinwheel")]
    assert any("quarter turn" in s for s in msgs)


def test_palette_checks():
    assert [
        f for f in check_palette(["red", "green", "blue", "purple"]) if f.level == "error"
    ] == []
    assert any("share a symbol" in f.message for f in check_palette(["orange", "orange"]))
    assert any(f.level == "error" for f in check_palette(["red", "mauve"]))


def test_every_ink_has_its_own_symbol_and_the_new_inks_exist():
    symbols = [k.symbol for k in INKS.values()]
    assert len(set(symbols)) == len(symbols)
    assert {"white", "brown", "grey", "beige", "gold", "black", "orange"} <= set(INKS)


def test_an_ink_is_checked_against_the_background_it_stands_on():
    on_black = check_on_background(["black", "white", "red"], "#000000", "black tile backs")
    flagged = [f for f in on_black if f.level == "error"]
    assert len(flagged) == 1 and flagged[0].message.startswith("black pieces")
    assert check_on_background(["black"], "#000000", "backs", outlined=("black",)) == []
    on_white = check_on_background(["white", "blue"], INKS["white"].hex, "white paper")
    assert [f.message.split()[0] for f in on_white if f.level == "error"] == ["white"]


def test_open_cut_line_is_an_error():
    c = Component("x", "x", 10, 10)
    c.add(Shape(LineString([(0, 0), (10, 0), (10, 10)]), layer="cut", style=CUT_STYLE))
    assert check_cut_outlines(c)[0].level == "error"
    c.items.clear()
    c.add(Shape(rounded_rect(0, 0, 10, 10, 2).exterior, layer="cut", style=CUT_STYLE))
    assert check_cut_outlines(c) == []


def _part(outline, holes=()):
    c = Component("blade", "Blade", 60, 60)
    c.add(Shape(outline.exterior, "cut", CUT_STYLE))
    for h in holes:
        c.add(Shape(h.exterior, "inner-cut", CUT_STYLE))
    return c


def test_narrowest_web_is_measured_on_the_part_that_is_cut():
    from shapely.geometry import Point, box

    # a 40 x 40 plate with a 10 mm hole whose edge is 3 mm from the plate's edge
    plate = box(0, 0, 40, 40)
    hole = Point(8, 20).buffer(5, quad_segs=64)
    findings = check_narrowest_web(_part(plate, [hole]), 4.0, "plywood")
    assert findings[0].level == "error" and "narrowest web 3.0 mm" in findings[0].message
    ok = check_narrowest_web(_part(plate, [hole]), 2.0, "plywood")
    assert ok[0].level == "info" and "3.0 mm" in ok[0].message
    # a dumbbell: two discs joined by a 2 mm neck
    dumbbell = Point(10, 30).buffer(8).union(Point(40, 30).buffer(8)).union(box(10, 29, 40, 31))
    assert "2.0 mm" in check_narrowest_web(_part(dumbbell), 3.0, "plywood")[0].message
