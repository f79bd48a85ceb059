"""Desert Home kit parts measured against the spec: sizes in mm, counts, closed outlines,
web widths, and every layout check made to fail once."""

from __future__ import annotations

import dataclasses
import math
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import affinity
from shapely.geometry import LineString, Point

from geometry.webs import narrowest_web
from pnp.contract.palette import ink
from pnp.contract.params import PrintParams, validate_params
from pnp.draw.checks import check_cut_outlines, has_errors, part_region
from pnp.draw.colour import delta_e
from pnp.draw.kit import Kit
from pnp.draw.scene import CUT_STYLE, Component, Shape
from pnp.games.desert_home.kit import board, checks, dice_parts, pieces, refuges, tiles
from pnp.games.desert_home.params import DesertHomeParams, colours_in_play, validate
from pnp.games.desert_home.rules.model import play_model
from pnp.runtime.errors import PnpError

P = DesertHomeParams()
PRINT = PrintParams()


def build(p: DesertHomeParams = P) -> Kit:
    comps = [
        board.board(p, PRINT),
        *tiles.path_tiles(p, PRINT),
        tiles.protection_cards(p, PRINT),
        *refuges.blade_parts(p, PRINT),
        *refuges.blade_overlays(p, PRINT),
        *pieces.figure_tokens(p, PRINT),
        *pieces.figure_standees(p, PRINT),
        dice_parts.dice_stickers(p),
        *dice_parts.paper_dice(p),
    ]
    return Kit("desert-home", "Desert Home – Immigration", p, PRINT, comps, play_model(p))


@cache
def default_kit() -> Kit:
    return build()


def messages(findings, level=None):
    return [f.message for f in findings if level is None or f.level == level]


# --- params ----------------------------------------------------------------------------


def test_pinned_defaults():
    assert (P.rows, P.path_columns, P.refuge_rows) == (5, 4, (1, 3))
    assert (P.deck_safe, P.deck_thirst, P.protection_cards) == (24, 12, 6)
    assert (P.figures_per_colour, P.tents_per_colour) == (12, 2)
    assert P.colours == ("black", "white", "green", "yellow", "red", "blue")
    assert (P.sixth_colour, P.goal_per_colour, P.tent_value) == ("black", 5, 3)
    assert P.magnet_diameter == 10
    assert validate_params(P) == P
    validate(P)


def test_the_sixth_colour_replaces_the_first_everywhere():
    p = dataclasses.replace(P, sixth_colour="brown")
    assert colours_in_play(p) == ("brown", "white", "green", "yellow", "red", "blue")
    assert p.colours_in_play == colours_in_play(p)
    kit = build(p)
    names = {c.name for c in kit.components}
    assert {"blade-brown", "tokens-brown", "paper-die-brown"} <= names
    assert not any("black" in n for n in names)
    stickers = kit.component("dice-stickers")
    assert [c for c, _ in stickers.meta["dice"]][0] == "brown"


@pytest.mark.parametrize(
    "change, words",
    [
        ({"deck_safe": -1}, "'deck_safe' cannot be negative"),
        ({"deck_thirst": -3}, "'deck_thirst' cannot be negative"),
        ({"tile_size": 15.0}, "cannot hold three readable cacti"),
        ({"tile_size": 24.0}, "cannot hold a group and its water bearer"),
        ({"plywood_thickness": 0.0}, "plywood thickness must be positive"),
        ({"sixth_colour": "mauve"}, "sixth colour 'mauve' is not a palette colour"),
        ({"sixth_colour": "white"}, "the six colours must differ"),
        ({"gap": 10.0}, "tiles overlap"),
        ({"refuge_rows": (1, 7)}, "refuge rows must be 2 different rows"),
        ({"blade_length": 45.0}, "no room"),
        ({"deck_safe": 0, "deck_thirst": 0}, "the path deck is empty"),
    ],
)
def test_impossible_kits_fail_with_one_clear_line(change, words):
    with pytest.raises(PnpError) as err:
        validate(dataclasses.replace(P, **change))
    assert words in str(err.value)
    assert "\n" not in str(err.value)


def test_declared_ranges_catch_a_negative_count_and_zero_plywood():
    with pytest.raises(PnpError, match="deck_safe"):
        validate_params(dataclasses.replace(P, deck_safe=-1))
    with pytest.raises(PnpError, match="plywood_thickness"):
        validate_params(dataclasses.replace(P, plywood_thickness=0.0))


# --- board -----------------------------------------------------------------------------


def slots(kind=None):
    s = default_kit().component("board").meta["slots"]
    return [x for x in s if kind is None or x["kind"] == kind]


def test_board_is_a_real_size_board_with_the_default_fields():
    b = default_kit().component("board")
    assert b.imposition == "board"
    assert len(slots("path")) == 5 * 4
    assert len(slots("camp-entry")) == 5
    refuge = slots("refuge-entry")
    assert [(s["row"], s["col"]) for s in refuge] == [(1, 0), (3, 0)]
    # Every field is a 40 mm octagon; the grid pitch is (40 + 18) / sqrt 2 = 41.01 mm.
    for s in slots():
        x0, y0, x1, y1 = s["outline"].bounds
        assert (x1 - x0, y1 - y0) == pytest.approx((40, 40))
    assert b.meta["pitch"] == pytest.approx(41.012, abs=1e-3)
    # Refuges left, camp right: 6 columns of fields plus both regions, larger than A4.
    assert b.width > 6 * 41 and b.height > 5 * 41
    assert b.width > 297


def test_camp_entries_say_1_and_refuge_entries_are_grey():
    b = default_kit().component("board")
    ones = [t for t in b.texts() if t.text == "1"]
    assert len(ones) == 5
    camp_x = {round(s["centre"][0], 3) for s in slots("camp-entry")}
    assert {round(t.x, 3) for t in ones} == camp_x
    grey = ink("grey").hex
    fills = [s for s in b.shapes("art") if s.style.fill == grey]
    entries = [s["outline"] for s in slots("refuge-entry")]
    assert len(fills) == 2
    assert all(any(f.geom.equals(e) for e in entries) for f in fills)


def test_each_refuge_stands_left_of_its_entry_field_without_touching_the_other():
    b = default_kit().component("board")
    r1, r2 = b.meta["refuges"]
    entry_x = slots("refuge-entry")[0]["centre"][0]
    for r in (r1, r2):
        assert r["pivot"][0] + r["radius"] < entry_x - 20
        assert r["radius"] == pytest.approx(P.blade_length + 2)
    assert math.dist(r1["pivot"], r2["pivot"]) >= r1["radius"] + r2["radius"]


def test_path_slots_are_drawn_empty_and_dashed():
    b = default_kit().component("board")
    dashed = [s.geom for s in b.shapes("art") if s.style.dash and s.style.fill == board.SLOT_FILL]
    assert len(dashed) == 20
    assert all(any(d.equals(s["outline"]) for d in dashed) for s in slots("path"))


def test_board_cut_outline_is_closed():
    assert check_cut_outlines(default_kit().component("board")) == []


# --- tiles -----------------------------------------------------------------------------


def test_tile_counts_and_one_shared_black_back():
    safe, thirst = default_kit().component("tile-safe"), default_kit().component("tile-thirst")
    assert (safe.copies, thirst.copies) == (24, 12)
    assert safe.back is thirst.back
    assert safe.back.name == "tile-back"
    backs = [s.style.fill for s in safe.back.shapes("art") if s.style.fill]
    assert backs == [ink("black").hex]


def test_tiles_are_40mm_octagons_with_bleed_cut_on_the_outline():
    for name in ("tile-safe", "tile-thirst", "protection"):
        t = default_kit().component(name)
        assert t.imposition == "card" and t.bleed == PRINT.bleed
        (cut,) = t.shapes("cut")
        assert cut.geom.is_closed and len(cut.geom.coords) == 9  # 8 corners, closed
        x0, y0, x1, y1 = cut.geom.bounds
        assert (x1 - x0, y1 - y0) == pytest.approx((40, 40))
        art = t.shapes("art")[0].geom.bounds
        assert art == pytest.approx((-3, -3, 43, 43))


def test_safe_tiles_show_one_green_cactus_thirst_tiles_three_red():
    green, red = ink("green").hex, ink("red").hex

    def cacti(name, colour):
        return [s for s in default_kit().component(name).shapes("art") if s.style.fill == colour]

    assert len(cacti("tile-safe", green)) == 1 and cacti("tile-safe", red) == []
    assert len(cacti("tile-thirst", red)) == 3 and cacti("tile-thirst", green) == []
    beige = ink("beige").hex
    assert default_kit().component("tile-thirst").shapes("art")[0].style.fill == beige


def test_six_golden_protection_cards():
    c = default_kit().component("protection")
    assert c.copies == 6
    assert c.shapes("art")[0].style.fill == ink("gold").hex
    assert c.back is None


def test_an_empty_part_of_the_deck_prints_nothing():
    p = dataclasses.replace(P, deck_thirst=0)
    assert [t.name for t in tiles.path_tiles(p, PRINT)] == ["tile-safe"]


# --- refuges ---------------------------------------------------------------------------


def blades(kind):
    return [c for c in default_kit().components if c.meta.get("kind") == kind]


def test_six_plywood_blades_and_six_overlays_two_of_each():
    wood, paper = blades("plywood"), blades("overlay")
    assert [c.meta["colour"] for c in wood] == list(P.colours)
    assert len(paper) == 6
    for c in wood + paper:
        assert c.name.startswith("blade")
        assert c.copies == 2


def test_plywood_blade_layers_and_sizes():
    for c in blades("plywood"):
        (cut,) = c.shapes("cut")
        # An area, not a line, so cut files offset it outward by half the kerf.
        assert cut.geom.geom_type == "Polygon" and cut.geom.equals(c.outline)
        assert check_cut_outlines(c) == []
        (hole,) = c.shapes("inner-cut")
        assert 2 * hole.radius == pytest.approx(P.pivot_hole)
        (drill,) = c.shapes("drill")
        assert drill.geom.equals(hole.geom)  # the drill mark sits on the pivot
        # The pivot is the turning point: the tip is 60 mm from it.
        reach = max(Point(xy).distance(hole.geom) for xy in cut.geom.exterior.coords)
        assert reach == pytest.approx(P.blade_length, abs=0.05)
        assert c.shapes("guide"), "a grain arrow"
        assert any(t.text == c.meta["colour"].upper() for t in c.texts())


def test_blade_web_is_at_least_the_plywood_thickness():
    for c in blades("plywood"):
        web = narrowest_web(part_region(c))
        assert web == pytest.approx(7 - 2.75, abs=0.03)  # hub radius less the 5.5 mm hole's
        assert web >= P.plywood_thickness


def test_overlays_show_two_figure_places_and_one_tent_place_clear_of_the_edge():
    for c in blades("overlay"):
        places = c.meta["places"]
        assert [k for k, _, _ in places] == ["figure", "figure", "tent"]
        for kind, centre, r in places:
            want = (P.figure_size if kind == "figure" else P.tent_size) / 2
            assert r >= want
            assert c.outline.contains(Point(centre).buffer(r))
        # The paper is 0.5 mm inside the wood all round.
        wood = default_kit().component(c.name.removesuffix("-overlay"))
        assert wood.outline.buffer(-0.49).contains(c.outline)


def test_white_figures_show_on_their_own_blade_place():
    white = ink("white")
    assert delta_e(white.hex, refuges.place_fill(white)) >= 20


# --- pieces and dice -------------------------------------------------------------------


def test_round_tokens_12_figures_and_2_tents_per_colour():
    toks = [c for c in default_kit().components if c.meta.get("kind") == "tokens"]
    assert [c.meta["colour"] for c in toks] == list(P.colours)
    for c in toks:
        radii = sorted(s.radius for s in c.shapes("cut"))
        assert radii == [6.5] * 12 + [9.0] * 2
        assert P.magnet_diameter < 2 * 6.5


def test_standees_fold_into_tents_that_stand_on_their_token_circle():
    """Each standee is one strip: a foot, front, back, a foot; folded at the top and at both
    feet. Its footprint (width by foot depth) fits the circle of the token it replaces."""
    for c in (x for x in default_kit().components if x.meta.get("kind") == "standees"):
        cuts = c.shapes("cut")
        folds = [s.geom for s in c.shapes("score")]
        assert len(cuts) == 14 and len(folds) == 3 * 14 and len(c.fold_lines) == 3 * 14
        for cut in cuts:
            x0, y0, x1, y1 = cut.geom.bounds
            mine = sorted(
                f.coords[0][1]
                for f in folds
                if x0 <= f.coords[0][0] < x1 and y0 < f.coords[0][1] < y1
            )
            assert len(mine) == 3
            foot, top, foot2 = mine[0] - y0, mine[1] - y0, y1 - mine[2]
            assert foot == pytest.approx(foot2) and foot > 0
            assert top - foot == pytest.approx(P.standee_height)  # the front panel
            assert mine[2] - mine[1] == pytest.approx(P.standee_height)  # the back panel
            token = P.figure_size if x1 - x0 < P.figure_size * 0.9 else P.tent_size
            assert math.hypot(x1 - x0, foot) <= token + 1e-6  # the footprint fits its circle
            assert cut.geom.is_closed


def test_dice_stickers_six_dice_one_colour_each():
    c = default_kit().component("dice-stickers")
    assert [d for d, _ in c.meta["dice"]] == list(P.colours)
    assert all(faces == (1, 2, 3, 4, 5, 6) for _, faces in c.meta["dice"])
    assert len(c.shapes("cut")) == 36
    assert c.meta["face_size"] == P.die_size - P.sticker_margin


def test_paper_dice_one_per_colour():
    names = [c.name for c in default_kit().components if c.meta.get("kind") == "paper-die"]
    assert names == [f"paper-die-{c}" for c in P.colours]


# --- checks ----------------------------------------------------------------------------


def test_the_default_kit_passes_every_check_with_the_measures_reported():
    found = checks.run(default_kit())
    assert not has_errors(found), messages(found, "error")
    info = " | ".join(messages(found, "info"))
    assert "27 fields, all reachable by orthogonal steps" in info
    assert "regular 41.01 mm grid" in info
    assert "40.00 mm octagons fit their slots (1.01 mm play)" in info
    assert "overlap by 6.0 degrees (stated 6)" in info
    webs = [f.message for f in found if f.message.startswith("narrowest web")]
    assert webs == ["narrowest web 4.2 mm (>= 4 mm)"] * 6


def test_black_figures_on_black_tile_backs_are_flagged():
    warnings = messages(checks.check_figure_contrast(P), "warning")
    assert warnings == [
        "black figures are hard to see on path tile backs (delta E 0 < 10): they rely on "
        "their ring and saltire symbol"
    ]
    brown = dataclasses.replace(P, sixth_colour="brown")
    assert messages(checks.check_figure_contrast(brown), "warning") == []


def _board_with(slots_of):
    b = default_kit().component("board")
    copy = Component(b.name, b.title, b.width, b.height, list(b.items), b.imposition)
    copy.meta = {**b.meta, "slots": slots_of(list(b.meta["slots"]))}
    return copy


def test_a_missing_path_slot_breaks_the_row_count():
    b = _board_with(lambda s: [x for x in s if (x["row"], x["col"]) != (1, 2)])
    errs = messages(checks.check_board(b, P), "error")
    assert "row 1: 3 path slots between the refuge entry and the camp, not 4" in errs
    assert "row 1: a gap breaks the row of fields" in errs


def test_a_cut_off_slot_is_not_connected():
    # Without column 2, the refuge side (columns 0-1) is cut off from the camp side.
    b = _board_with(lambda s: [x for x in s if x["col"] != 2])
    errs = messages(checks.check_board(b, P), "error")
    assert any(e.endswith("cannot be reached by orthogonal steps") for e in errs)
    # Keeping only (4, 2) joins them again along the bottom row.
    b = _board_with(lambda s: [x for x in s if x["col"] != 2 or x["row"] == 4])
    assert not any("reached" in e for e in messages(checks.check_board(b, P), "error"))


def test_a_shifted_slot_breaks_the_regular_grid():
    def shift(s):
        moved = dict(s[5])
        moved["centre"] = (moved["centre"][0] + 3.0, moved["centre"][1])
        moved["outline"] = affinity.translate(moved["outline"], 3.0, 0)
        return [*s[:5], moved, *s[6:]]

    errs = messages(checks.check_board(_board_with(shift), P), "error")
    assert "the octagon slots are not on one regular grid" in errs


def test_more_path_columns_than_the_rules_say_is_a_warning():
    p = dataclasses.replace(P, path_columns=5)
    found = checks.check_board(board.board(p, PRINT), p)
    assert not has_errors(found)
    assert messages(found, "warning") == [
        "5 path fields per row: the game as written leaves room for 4"
    ]


def test_a_tile_larger_than_its_slot_play_does_not_fit():
    big = dataclasses.replace(P, tile_size=44.0, gap=19.0)  # 44 mm tiles, 40 mm slots
    (tile, _) = tiles.path_tiles(big, PRINT)
    errs = messages(checks.check_tiles_fit(default_kit().component("board"), [tile]), "error")
    assert errs == [
        "a 44.00 mm octagon does not fit a 40.00 mm slot with 1.01 mm play: neighbouring "
        "tiles would overlap"
    ]


def test_blades_wider_than_the_stated_overlap_are_an_error():
    wide = refuges.blade_parts(dataclasses.replace(P, blade_overlap_deg=10.0), PRINT)
    errs = messages(checks.check_blades(wide, [], P), "error")
    assert errs == [
        "fanned out, neighbouring blades overlap by 10.0 degrees, more than the stated 6"
    ]


def test_a_place_under_the_next_blade_is_an_error():
    # Overlays laid out for a 6-degree fan, sawn with 14-degree blades: the wider
    # neighbours cover the figure places.
    p = dataclasses.replace(P, blade_overlap_deg=14.0)
    wood = refuges.blade_parts(p, PRINT)
    errs = messages(checks.check_blades(wood, blades("overlay"), p), "error")
    assert any("place lies under a neighbouring blade" in e for e in errs)


def test_a_blade_larger_than_the_plywood_sheet_is_an_error():
    p = dataclasses.replace(P, plywood_sheet=(50.0, 200.0))
    errs = messages(checks.check_blades(blades("plywood"), [], p), "error")
    assert len(errs) == 6
    assert errs[0] == "61.9 x 59.5 mm does not fit the 200 x 50 mm plywood sheet"


def test_a_web_thinner_than_the_plywood_is_an_error():
    p = dataclasses.replace(P, bolt_diameter=7.5)  # 8 mm hole: 7 - 4 = 3 mm round the pivot
    found = checks.check_webs(refuges.blade_parts(p, PRINT), p)
    assert (
        messages(found, "error")
        == ["narrowest web 3.0 mm is thinner than the 4 mm plywood: it would snap"] * 6
    )


def test_a_magnet_wider_than_a_figure_is_an_error():
    p = dataclasses.replace(P, magnet_diameter=12.0)
    assert messages(checks.check_magnets(p)) == [
        "a 12 mm magnet does not fit under a 13 mm figure (at most 11 mm, leaving a 1 mm rim)"
    ]


def test_an_open_cut_line_is_reported():
    kit = build()
    bad = kit.component("tokens-red")
    bad.add(Shape(LineString([(0, 0), (5, 0), (5, 5)]), "cut", CUT_STYLE))
    errs = messages(checks.run(kit), "error")
    assert "cut line is not a closed outline" in errs


@settings(max_examples=15, deadline=None)
@given(
    rows=st.integers(min_value=2, max_value=7),
    columns=st.integers(min_value=1, max_value=6),
    size=st.floats(min_value=30, max_value=60),
    extra=st.floats(min_value=0, max_value=4),
    data=st.data(),
)
def test_any_board_passes_its_own_layout_checks(rows, columns, size, extra, data):
    refuge_rows = tuple(
        data.draw(st.lists(st.integers(0, rows - 1), min_size=2, max_size=2, unique=True))
    )
    gap = round(size * (math.sqrt(2) - 1) + extra, 3) + 0.001
    p = dataclasses.replace(
        P, rows=rows, path_columns=columns, refuge_rows=refuge_rows, tile_size=size, gap=gap
    )
    b = board.board(p, PRINT)
    found = checks.check_board(b, p) + checks.check_tiles_fit(b, tiles.path_tiles(p, PRINT))
    assert not has_errors(found), messages(found, "error")
    assert len(b.meta["slots"]) == rows * (columns + 1) + 2
    r1, r2 = b.meta["refuges"]
    assert math.dist(r1["pivot"], r2["pivot"]) >= r1["radius"] + r2["radius"]
