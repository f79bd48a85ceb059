"""Rule-aware layout checks, each made to fail on purpose and to pass on the real set."""

from __future__ import annotations

import pytest
from shapely.geometry import LineString

from geometry.folding import container
from geometry.intersections import Entry
from geometry.shapes import rounded_rect
from pnp.contract.palette import INKS
from pnp.draw.checks import (
    check_cut_outlines,
    check_fits,
    check_narrowest_web,
    check_on_background,
    check_palette,
)
from pnp.draw.kit import PrintParams
from pnp.draw.scene import CUT_STYLE, Component, Shape
from pnp.games.exploding_dice.kit.board import board
from pnp.games.exploding_dice.kit.checks import check_arrows, check_board_folds, check_dice_count
from pnp.games.exploding_dice.params import ExplodingDiceParams, play_model

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


# --- guide lines against the ink they cross ----------------------------------------------


def test_contrast_ratio_is_wcag():
    from pnp.draw.colour import contrast_ratio

    assert contrast_ratio("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast_ratio("#000000", "#000000") == pytest.approx(1.0)
    assert contrast_ratio("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)  # WCAG's grey


def _fold_on(fill: str, *, halo: bool) -> Component:
    from pnp.draw.scene import SCORE_STYLE, Style, shown_on

    c = Component("piece", "piece", 20, 40)
    c.add(Shape(rounded_rect(0, 0, 20, 40, 1), style=Style(fill=fill, stroke=None)))
    fold = Shape(LineString([(0, 20), (20, 20)]), "score", SCORE_STYLE)
    c.add(*(shown_on(fold, fill) if halo else [fold]))
    c.add(Shape(rounded_rect(0, 0, 20, 40, 1).exterior, "cut", CUT_STYLE))
    return c


@pytest.mark.parametrize("fill, bad", [("#000000", True), ("#0072B2", False), ("#FFFFFF", False)])
def test_a_fold_that_vanishes_into_its_face_is_an_error(fill, bad):
    from pnp.draw.checks import check_guide_contrast

    found = check_guide_contrast(_fold_on(fill, halo=False))
    assert [f.level for f in found] == (["error"] if bad else [])
    if bad:
        assert "score line (#000000) on #000000 shows at contrast 1.0:1" in found[0].message


def test_a_halo_under_the_fold_makes_it_show_and_keeps_its_machine_colour():
    from pnp.draw.checks import check_guide_contrast

    c = _fold_on("#000000", halo=True)
    assert check_guide_contrast(c) == []
    (score,) = c.shapes("score")
    assert score.style.stroke == "#000000"  # a laser maps the score layer by its colour
    (halo,) = c.shapes("guide")
    assert halo.style.stroke == "#FFFFFF" and halo.style.stroke_width > score.style.stroke_width


def test_a_fold_down_a_gap_between_the_dice_shows_on_a_halo_along_it():
    """An 8 x 8 board folds down the gaps between its dice, across the grid lines: each
    fold stays one score line and shows on a white halo under its whole length."""
    from pnp.draw.checks import check_fold_crossings, check_guide_contrast

    c = board(ExplodingDiceParams(n=8), PrintParams())
    assert check_guide_contrast(c) == [] and check_fold_crossings(c) == []
    folds = c.shapes("score")
    assert len(folds) == len(c.fold_lines) == 3
    halos = [s for s in c.shapes("art") if any(s.geom.equals(f.geom) for f in folds)]
    assert len(halos) == 3 and all(h.style.stroke == "#FFFFFF" for h in halos)
    widths = zip(halos, folds, strict=True)
    assert all(h.style.stroke_width > f.style.stroke_width for h, f in widths)


def test_a_cut_along_a_pieces_edge_shows_by_the_edge_but_a_hole_inside_must_show_itself():
    from pnp.draw.checks import check_guide_contrast
    from pnp.draw.scene import INNER_CUT_STYLE, Style, circle

    c = _fold_on("#0072B2", halo=False)  # red cut along a blue piece's edge: the edge shows
    assert check_guide_contrast(c) == []
    c.add(circle(10, 30, 2.5, "inner-cut", INNER_CUT_STYLE))  # a blue hole in blue: lost
    (found,) = check_guide_contrast(c)
    assert "inner-cut line" in found.message
    c.items.insert(1, circle(10, 30, 2.5, style=Style(stroke="#FFFFFF", stroke_width=0.25)))
    assert check_guide_contrast(c) == []  # a printed white ring marks the hole


@pytest.mark.parametrize(
    "slug",
    [
        pytest.param("exploding-dice", marks=pytest.mark.slow),
        "building-community",  # the fast tier's; a whole kit laid out each: seconds
        pytest.param("parcheesi", marks=pytest.mark.slow),
        pytest.param("home-in-one-piece", marks=pytest.mark.slow),
        pytest.param("desert-home", marks=pytest.mark.slow),
    ],
)
def test_every_guide_line_of_every_kit_shows(slug):
    from pnp.build import make_kit
    from pnp.draw.checks import guide_contrasts, scene_checks

    _, kit = make_kit(slug, paper="a4")
    assert scene_checks(kit.components) == []
    measured = [m for c in kit.components for m in guide_contrasts(c)]
    assert measured and min(r for *_, r in measured) >= 3.0


# --- the tent fold a standee is cut to -----------------------------------------------------


def test_a_tent_fold_hand_worked():
    """A 10 x 20 mm panel pair on 6 mm feet: 52 mm flat, folds at 6, 26 and 46 mm; it
    stands sqrt(20^2 - 3^2) = 19.77 mm high; the back's picture turns about (5, 26)."""
    from geometry.folding import TentFold, tent_for_footprint

    t = TentFold(0, 0, 10, 20, 6)
    assert t.length == 52
    assert [f.coords[0][1] for f in t.folds()] == [6, 26, 46]
    assert t.apex == (5, 26)
    assert t.standing_height == pytest.approx(19.774, abs=0.001)
    assert [f.bounds for f in t.feet()] == [(0, 0, 10, 6), (0, 46, 10, 52)]
    assert t.front().bounds == (0, 6, 10, 26) and t.back().bounds == (0, 26, 10, 46)
    plain = TentFold(0, 0, 10, 20)  # the A-frame: one fold, no feet
    assert plain.length == 40 and len(plain.folds()) == 1 and plain.feet() == ()
    fits = tent_for_footprint(0, 0, 13, 22)  # a 13 mm token's circle
    assert (fits.width, fits.base) == pytest.approx((10.4, 7.8))
    with pytest.raises(ValueError, match="too deep"):
        TentFold(0, 0, 10, 5, 10)


def test_a_setting_where_no_game_can_last_a_turn_is_called_degenerate():
    """One die per colour: the four start dice are every die, the reserve starts empty and
    the first draw ends the game; a 2 x 2 grid is full with the start dice."""
    one = check_dice_count(play_model(ExplodingDiceParams(dice_per_colour=1)))
    assert [f.level for f in one] == ["warning"]
    assert "degenerate" in one[0].message and "reserve is empty" in one[0].message
    tiny = check_dice_count(play_model(ExplodingDiceParams(n=2)))
    assert "degenerate" in tiny[0].message and "2 x 2 grid" in tiny[0].message
