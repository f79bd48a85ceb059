"""Cut sheets measured on the geometry: counts, margins, spacing, layers, nesting, shared cuts."""

from __future__ import annotations

import itertools
import math
from pathlib import Path
from typing import Any, cast

import ezdxf
import pytest
from cut_geometry import no_duplicate_cuts, shared_length
from hypothesis import example, given, settings
from hypothesis import strategies as st
from shapely import affinity
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import unary_union

from geometry.shapes import regular_polygon
from pnp.contract.paper import BEDS, get_bed
from pnp.draw.layout.cutsheet import cut_length, cut_sheets, part_region
from pnp.draw.layout.page import text_bounds
from pnp.draw.prepare import Machine
from pnp.draw.render.dxf import component_dxf
from pnp.draw.render.svg import component_svg
from pnp.draw.scene import (
    CUT_STYLE,
    DRILL_STYLE,
    GUIDE_STYLE,
    INNER_CUT_STYLE,
    LAYERS,
    SCORE_STYLE,
    Component,
    Shape,
    Style,
    Text,
    circle,
)
from pnp.runtime.errors import PnpError

FLATS = 25.0  # hexagon tile, across flats (mm)
RADIUS = FLATS / math.sqrt(3)  # its corner radius
TOL = 1e-5
COMMON_LINE = Machine(common_line=True)


def _placed_parts(sheet: Component) -> list[dict[str, Any]]:
    """Where the sheet put each part: name, x, y and rotation."""
    return cast(list[dict[str, Any]], sheet.meta["parts"])


def hexagon(name: str = "hex", copies: int = 1, bleed: float = 0.0) -> Component:
    """A pointy-topped hex tile: art (maybe with bleed) under a closed cut ring."""
    c = Component(name, name, FLATS, 2 * RADIUS, copies=copies)
    h = regular_polygon(FLATS / 2, RADIUS, RADIUS, 6)
    art = h.buffer(bleed, join_style="mitre") if bleed else h
    c.add(Shape(art, "art", Style(fill="#56B4E9", stroke=None)))
    c.add(Shape(h.exterior, "cut", CUT_STYLE))
    return c


def full_part(name: str = "plate", copies: int = 1) -> Component:
    """A 30 x 20 plate with something on every layer."""
    c = Component(name, name, 30, 20, copies=copies)
    c.add(Shape(box(-3, -3, 33, 23), "art", Style(fill="#E69F00", stroke=None)))
    c.add(Text(15, 14, name, size=6, anchor="middle"))
    c.add(Shape(LineString([(2, 2), (28, 2)]), "guide", GUIDE_STYLE))
    c.add(Shape(LineString([(0, 10), (30, 10)]), "score", SCORE_STYLE))
    c.add(Shape(box(20, 4, 26, 8), "inner-cut", INNER_CUT_STYLE))
    c.add(Shape(box(0, 0, 30, 20).exterior, "cut", CUT_STYLE))
    c.add(circle(5, 5, 1.0, "drill", DRILL_STYLE))
    return c


def square(name: str, side: float, copies: int = 1) -> Component:
    c = Component(name, name, side, side, copies=copies)
    c.add(Shape(box(0, 0, side, side).exterior, "cut", CUT_STYLE))
    return c


def disc(name: str, d: float, copies: int = 1) -> Component:
    c = Component(name, name, d, d, copies=copies)
    c.add(circle(d / 2, d / 2, d / 2, style=Style(fill="#009E73", stroke=None)))
    c.add(circle(d / 2, d / 2, d / 2, "cut", CUT_STYLE))
    return c


def outline(s: Shape) -> Polygon:
    """A cut shape as the area it encloses (circles exactly enough for distances)."""
    if s.radius > 0:
        return Point(s.geom.x, s.geom.y).buffer(s.radius, quad_segs=64)
    return Polygon(s.geom.exterior if isinstance(s.geom, Polygon) else s.geom)


def distance(a: Shape, b: Shape) -> float:
    """Exact distance between two cut outlines; a circle's true radius, not a polygon's."""
    if a.radius > 0 and b.radius > 0:
        return a.geom.distance(b.geom) - a.radius - b.radius
    if a.radius > 0 or b.radius > 0:
        c, p = (a, b) if a.radius > 0 else (b, a)
        return outline(p).distance(c.geom) - c.radius
    return outline(a).distance(outline(b))


def assert_well_packed(sheets: list[Component], gap: float, margin: float) -> None:
    """Every outline inside the margin and at least `gap` from every other outline."""
    for sheet in sheets:
        cuts = sheet.shapes("cut")
        for s in cuts:
            x0, y0, x1, y1 = outline(s).bounds if s.radius == 0 else s.geom.buffer(s.radius).bounds
            assert x0 >= margin - TOL and y0 >= margin - TOL
            assert x1 <= sheet.width - margin + TOL and y1 <= sheet.height - margin + TOL
        for a, b in itertools.combinations(cuts, 2):
            assert distance(a, b) >= gap - TOL


# --- Beds --------------------------------------------------------------------------------


def test_beds_table_and_names() -> None:
    assert BEDS == {
        "a4": (210, 297),
        "letter": (215.9, 279.4),
        "300x200": (300, 200),
        "400x300": (400, 300),
    }
    assert get_bed(" A4 ") == (210, 297)
    assert get_bed("LETTER") == (215.9, 279.4)
    assert get_bed("600x400") == (600, 400)
    assert get_bed("600 X 400") == (600, 400)
    assert get_bed("215.9x279.4") == (215.9, 279.4)


@pytest.mark.parametrize("bad", ["a3", "", "0x200", "300x0", "300", "x", "-3x4", "9000x100", "inf"])
def test_unknown_or_impossible_bed_is_a_clear_error(bad: str) -> None:
    with pytest.raises(PnpError, match="bed"):
        get_bed(bad)


@pytest.mark.parametrize("bed", [(0, 100), (100, float("nan")), (100, -5), (1e6, 100)])
def test_bad_bed_size_tuple(bed: tuple[float, float]) -> None:
    with pytest.raises(PnpError, match="bed"):
        cut_sheets([square("s", 10)], bed)


def test_bad_gap_or_margin() -> None:
    with pytest.raises(PnpError, match="gap"):
        cut_sheets([square("s", 10)], "a4", gap=-1)
    with pytest.raises(PnpError, match="margin"):
        cut_sheets([square("s", 10)], "a4", margin=105)


# --- Selection, copies, sheets --------------------------------------------------------------


def test_only_parts_with_cut_lines_and_their_copies() -> None:
    printed = Component("rules", "Rules", 50, 50, items=[Shape(box(0, 0, 50, 50), "art")])
    holes_only = Component("frame", "Frame", 40, 40, copies=2)
    holes_only.add(Shape(box(10, 10, 30, 30), "inner-cut", INNER_CUT_STYLE))
    sheets = cut_sheets(
        [printed, full_part("a", copies=3), square("b", 12, copies=2), holes_only], "300x200"
    )
    names = [p["name"] for s in sheets for p in _placed_parts(s)]
    assert sorted(names) == ["a", "a", "a", "b", "b", "frame", "frame"]
    assert len(sheets) == 1
    assert sheets[0].name == "cut-1" and sheets[0].imposition == "cutout"
    assert (sheets[0].width, sheets[0].height) == (300, 200)


def test_nothing_to_cut_gives_no_sheets_and_zero_copies_are_skipped() -> None:
    assert cut_sheets([], "a4") == []
    assert cut_sheets([square("s", 10, copies=0)], "a4") == []
    with pytest.raises(PnpError, match="negative copies"):
        cut_sheets([square("s", 10, copies=-1)], "a4")


def test_sheets_are_named_and_numbered_from_one() -> None:
    sheets = cut_sheets([square("s", 90, copies=5)], "a4", name="tiles")
    # 90 mm squares: 2 x 3 fit in 200 x 287; five per sheet is impossible side by side
    assert [s.name for s in sheets] == ["tiles-1"]
    sheets = cut_sheets([square("s", 90, copies=7)], "a4", name="tiles")
    assert [s.name for s in sheets] == ["tiles-1", "tiles-2"]
    assert [len(_placed_parts(s)) for s in sheets] == [6, 1]
    assert sheets[1].title == "Cut sheet 2 of 2"


def test_two_squares_hand_worked_positions() -> None:
    """Bottom-left first: the first at the margin corner, the next a gap to its right."""
    (sheet,) = cut_sheets([square("s", 10, copies=2)], (50, 30), gap=2, margin=5)
    (a, b) = _placed_parts(sheet)
    assert (a["x"], a["y"], a["rotation"]) == pytest.approx((5, 5, 0))
    assert (b["x"], b["y"], b["rotation"]) == pytest.approx((17, 5, 0), abs=0.01)
    assert b["x"] >= 17 - TOL  # never closer than the gap
    assert [s.geom.bounds for s in sheet.shapes("cut")][0] == pytest.approx((5, 5, 15, 15))


def test_part_fitting_only_turned_is_turned_with_all_its_items() -> None:
    c = Component("long", "Long", 30, 10)
    c.add(Shape(box(0, 0, 30, 10).exterior, "cut", CUT_STYLE))
    c.add(circle(2, 5, 1, "drill", DRILL_STYLE))
    c.add(Text(15, 4, "long", size=5, anchor="middle"))
    (sheet,) = cut_sheets([c], (25, 45), margin=5)
    (p,) = _placed_parts(sheet)
    assert p["rotation"] == 90
    assert sheet.shapes("cut")[0].geom.bounds == pytest.approx((5, 5, 15, 35))
    # a quarter turn: local (u, v) lands at (x - v, y + u)
    drill = sheet.shapes("drill")[0]
    assert (drill.geom.x, drill.geom.y) == pytest.approx((p["x"] - 5, p["y"] + 2))
    assert drill.radius == 1
    (text,) = sheet.texts()
    assert (text.x, text.y, text.rotate) == pytest.approx((p["x"] - 4, p["y"] + 15, 90))


def test_oversize_part_is_an_error_naming_it() -> None:
    with pytest.raises(PnpError, match="'big-board'"):
        cut_sheets([square("small", 10), square("big-board", 250)], "300x200")
    with pytest.raises(PnpError, match="'big-board'"):
        cut_sheets([square("big-board", 100)], (100, 100), margin=5)


def test_exact_fit_is_not_oversize() -> None:
    (sheet,) = cut_sheets([square("s", 90)], (100, 100), margin=5)
    assert sheet.shapes("cut")[0].geom.bounds == pytest.approx((5, 5, 95, 95))


# --- Layers and bleed -------------------------------------------------------------------


def test_every_layer_of_every_part_is_kept_and_moved_together() -> None:
    sheets = cut_sheets([full_part("p", copies=9)], "300x200")
    (sheet,) = sheets
    assert {i.layer for i in sheet.items} == set(LAYERS)
    for layer in LAYERS:
        per_part = 2 if layer == "art" else 1  # art: the background and the label
        assert len([i for i in sheet.items if i.layer == layer]) == 9 * per_part
    # each drill mark sits 5, 5 from its own part's corner (turned or not)
    for p, cut, drill in zip(
        _placed_parts(sheet), sheet.shapes("cut"), sheet.shapes("drill"), strict=True
    ):
        x0, y0, x1, _ = cut.geom.bounds
        want = (x0 + 5, y0 + 5) if p["rotation"] == 0 else (x1 - 5, y0 + 5)
        assert (drill.geom.x, drill.geom.y) == pytest.approx(want)
    assert_well_packed(sheets, gap=2, margin=5)


def test_art_bleed_is_trimmed_to_half_the_gap() -> None:
    """Bleed art stops half a gap past the cut, so neighbours never paint over each other."""
    (sheet,) = cut_sheets([full_part("p", copies=4)], "300x200", gap=4)
    backgrounds = [s for s in sheet.shapes("art") if s.geom.geom_type == "Polygon"]
    cuts = [outline(s) for s in sheet.shapes("cut")]
    for art, cut in zip(backgrounds, cuts, strict=True):
        assert art.geom.within(cut.buffer(2 + TOL))
        assert art.geom.area > cut.area  # the bleed up to 2 mm is kept
    for a, b in itertools.combinations(backgrounds, 2):
        assert a.geom.intersection(b.geom).area < TOL


def test_part_region_counts_labels_not_bleed() -> None:
    c = square("s", 10)
    c.add(Shape(box(-3, -3, 13, 13), "art", Style(fill="#000000", stroke=None)))
    assert part_region(c).bounds == pytest.approx((0, 0, 10, 10))
    c.add(Text(12, 2, "label outside", size=6))
    x0, y0, x1, y1 = part_region(c).bounds
    assert x1 > 20 and (x0, y0) == pytest.approx((0, 0))


def test_without_a_closed_cut_the_trim_is_the_outline() -> None:
    """Holes only, or an open cut: the part's trim stands in, so its art is not trimmed."""
    frame = Component("frame", "Frame", 40, 40)
    frame.add(Shape(box(0, 0, 40, 40), "art", Style(fill="#CC79A7", stroke=None)))
    frame.add(Shape(box(10, 10, 30, 30), "inner-cut", INNER_CUT_STYLE))
    strip = Component("strip", "Strip", 40, 20)
    strip.add(Shape(box(0, 0, 40, 20), "art", Style(fill="#CC79A7", stroke=None)))
    strip.add(Shape(LineString([(0, 10), (40, 10)]), "cut", CUT_STYLE))
    assert part_region(frame).equals(box(0, 0, 40, 40))
    (sheet,) = cut_sheets([frame, strip], "a4")
    assert sorted(s.geom.area for s in sheet.shapes("art")) == pytest.approx([800, 1600])


def test_a_multi_piece_part_moves_as_one() -> None:
    """A sticker block: three stickers and a label travel together, a gap from the next."""
    block = Component("stickers", "Stickers", 40, 18, copies=3)
    block.add(Text(0, 0, "red stickers", size=6))
    for k in range(3):
        block.add(Shape(box(15 * k, 6, 15 * k + 10, 16).exterior, "cut", CUT_STYLE))
    (sheet,) = cut_sheets([block], "300x200")
    cuts = [outline(s) for s in sheet.shapes("cut")]
    assert len(cuts) == 9
    for k in range(0, 9, 3):  # each copy's stickers stay 15 mm apart, turned or not
        a, b, c = (cuts[k + i].centroid for i in range(3))
        assert a.distance(b) == pytest.approx(15) and b.distance(c) == pytest.approx(15)
    labels = [box(*text_bounds(t)) for t in sheet.texts()]
    for label, cut in itertools.product(labels, cuts):
        assert label.intersection(cut).area < TOL


# --- Nesting ----------------------------------------------------------------------------


def test_37_hexagons_one_bed_in_offset_rows() -> None:
    """37 tiles of 25 mm across flats: one 300 x 200 sheet, in honeycomb rows.

    Rows of ten pointy tiles, 27 mm apart; the next row shifted half a tile sits
    (25 + 2) * sin 60 = 23.38 mm higher, so four rows (10 + 9 + 10 + 8) reach
    5 + 28.87 + 3 * 23.38 = 104.02 mm. Boxes in a grid would need 126.5 mm.
    """
    tiles = [hexagon("red", 13, bleed=3), hexagon("green", 12, bleed=3), hexagon("blue", 12)]
    sheets = cut_sheets(tiles, "300x200")
    assert len(sheets) == 1
    assert len(_placed_parts(sheets[0])) == 37
    top = max(s.geom.bounds[3] for s in sheets[0].shapes("cut"))
    assert top == pytest.approx(5 + 2 * RADIUS + 3 * 27 * math.sin(math.radians(60)), abs=0.05)
    assert_well_packed(sheets, gap=2, margin=5)


@pytest.mark.parametrize("bed", ["a4", "letter"])
def test_37_hexagons_on_a_paper_bed(bed: str) -> None:
    sheets = cut_sheets([hexagon("t", 37)], bed)
    assert len(sheets) == 1
    assert_well_packed(sheets, gap=2, margin=5)


def test_small_part_nests_in_a_notch() -> None:
    """An L-shaped part is nested on its real outline: a square fits in its notch."""
    ell = Component("ell", "L", 20, 20)
    shape = Polygon([(0, 0), (20, 0), (20, 10), (10, 10), (10, 20), (0, 20)])
    ell.add(Shape(shape.exterior, "cut", CUT_STYLE))
    sheets = cut_sheets([square("sq", 7), ell], (22, 22), margin=1)
    assert len(sheets) == 1
    sq = next(p for p in _placed_parts(sheets[0]) if p["name"] == "sq")
    assert (sq["x"], sq["y"]) == pytest.approx((13, 13), abs=0.01)
    assert_well_packed(sheets, gap=2, margin=1)


def test_discs_nest_closer_than_their_boxes() -> None:
    """60 discs of 20 mm on A4: 9 a row, rows (22 * sin 60 = 19.05 mm) apart, not 22."""
    (sheet,) = cut_sheets([disc("d", 20, copies=60)], "a4")
    tops = sorted({round(s.geom.y, 3) for s in sheet.shapes("cut")})
    assert tops[1] - tops[0] == pytest.approx(22 * math.sin(math.radians(60)), abs=0.05)
    assert_well_packed([sheet], gap=2, margin=5)


def test_same_input_same_sheets() -> None:
    def build() -> list[str]:
        parts = [hexagon("h", 20, bleed=2), full_part("p", 5), disc("d", 18, 7)]
        return [component_svg(s) for s in cut_sheets(parts, "a4")]

    assert build() == build()


shapes = st.one_of(
    st.tuples(st.just("rect"), st.floats(5, 80), st.floats(5, 80)),
    st.tuples(st.just("hex"), st.floats(8, 50), st.just(0.0)),
    st.tuples(st.just("disc"), st.floats(5, 40), st.just(0.0)),
)


def _make(i: int, kind: str, a: float, b: float, copies: int) -> Component:
    if kind == "disc":
        return disc(f"d{i}", a, copies)
    if kind == "hex":
        c = Component(f"h{i}", "hex", a, a)
        c.add(Shape(regular_polygon(a / 2, a / 2, a / 2, 6, rotation=0).exterior, "cut"))
    else:
        c = Component(f"r{i}", "rect", a, b)
        c.add(Shape(box(0, 0, a, b), "cut", CUT_STYLE))
    c.copies = copies
    return c


@settings(max_examples=20, deadline=None)
@given(
    st.lists(st.tuples(shapes, st.integers(0, 6)), min_size=1, max_size=5),
    st.sampled_from(sorted(BEDS)),
    st.sampled_from([0.0, 1.0, 2.0, 3.5]),
)
# a rectangle's corner against a hexagon's: the rounded no-fit corner once came 0.5 µm short
@example(spec=[(("hex", 8.0, 0.0), 2), (("rect", 8.0, 63.0), 4)], bed="a4", gap=3.5)
def test_any_mix_is_counted_inside_and_apart(
    spec: list[tuple[tuple[str, float, float], int]], bed: str, gap: float
) -> None:
    comps = [_make(i, kind, a, b, n) for i, ((kind, a, b), n) in enumerate(spec)]
    sheets = cut_sheets(comps, bed, gap=gap)
    placed = sorted(p["name"] for s in sheets for p in _placed_parts(s))
    assert placed == sorted(c.name for c in comps for _ in range(c.copies))
    assert all(_placed_parts(s) for s in sheets)  # no empty sheet
    assert_well_packed(sheets, gap=gap, margin=5)
    for s in sheets:  # gap 0: touching is fine, overlapping is not
        for a, b in itertools.combinations(s.shapes("cut"), 2):
            assert outline(a).intersection(outline(b)).area < 1e-3


# --- Common-line cutting ----------------------------------------------------------------


def test_circles_have_no_common_lines() -> None:
    (sheet,) = cut_sheets([disc("d", 10, copies=4)], "a4", gap=0, machine=COMMON_LINE)
    assert len(sheet.shapes("cut")) == 4 and sheet.meta["common_line_saved"] == 0


def test_common_line_is_never_the_default() -> None:
    sheets = cut_sheets([hexagon("h", 37)], "300x200", gap=0)
    assert len(sheets[0].shapes("cut")) == 37  # closed outlines, shared edges cut twice
    with pytest.raises(PnpError, match="gap 0"):
        cut_sheets([hexagon("h", 37)], "300x200", machine=COMMON_LINE)


def test_common_line_with_a_kerf_puts_the_kerfed_outlines_edge_to_edge() -> None:
    """Two 10 mm squares, kerf 0.4: each blade path runs 0.2 mm outside its square and the
    one between them is shared, so the squares sit 0.4 mm apart and 10.4 mm is saved."""
    machine = Machine(kerf=0.4, common_line=True)
    (sheet,) = cut_sheets([square("sq", 10, copies=2)], (60, 30), gap=0, margin=5, machine=machine)
    x0, y0, x1, y1 = unary_union([s.geom for s in sheet.shapes("cut")]).bounds
    assert (x1 - x0, y1 - y0) == pytest.approx((20.8, 10.4), abs=1e-5)
    assert (x0, y0) == pytest.approx((5, 5), abs=1e-5)  # the blade path stays off the margin
    assert sheet.meta["common_line_saved"] == pytest.approx(10.4)
    assert cut_length([sheet]) == pytest.approx(2 * 4 * 10.4 - 10.4)
    no_duplicate_cuts(sheet)


def test_common_line_hexagons_save_every_shared_edge() -> None:
    (sheet,) = cut_sheets([hexagon("h", 37)], "300x200", gap=0, machine=COMMON_LINE)
    # the outlines as packed, rebuilt from the placements
    h = Polygon(hexagon().shapes("cut")[0].geom)
    hexes = [
        affinity.translate(
            h if p["rotation"] == 0 else affinity.rotate(h, 90, (0, 0)), p["x"], p["y"]
        )
        for p in _placed_parts(sheet)
    ]
    for a, b in itertools.combinations(hexes, 2):
        assert a.intersection(b).area < 1e-3
    # shared edges measured independently: one outline running along another
    pairs = [shared_length(a.exterior, b.exterior) for a, b in itertools.combinations(hexes, 2)]
    shared = sum(x for x in pairs if x > 1e-3)
    assert shared > 70 * RADIUS  # the honeycomb shares most edges
    before = sum(x.length for x in hexes)
    assert before - cut_length([sheet]) == pytest.approx(shared, abs=0.05)
    assert sheet.meta["common_line_saved"] == pytest.approx(shared, abs=0.05)
    no_duplicate_cuts(sheet)


# --- Renderers --------------------------------------------------------------------------


def test_sheet_renders_to_svg_with_every_layer_and_dxf_with_a_cut_per_part(
    tmp_path: Path,
) -> None:
    (sheet,) = cut_sheets([full_part("p", 6), hexagon("h", 5, bleed=2)], "300x200")
    svg = component_svg(sheet)
    assert 'width="300mm" height="200mm" viewBox="0 0 300 200"' in svg
    for layer in LAYERS:
        assert f'id="layer-{layer}"' in svg
    data = component_dxf(sheet)
    assert data is not None
    (tmp_path / "sheet.dxf").write_bytes(data)
    doc = ezdxf.readfile(tmp_path / "sheet.dxf")
    cuts: list[Any] = [e for e in doc.modelspace() if e.dxf.layer == "cut"]
    assert len(cuts) == 11
    assert all(e.dxftype() == "LWPOLYLINE" and e.closed for e in cuts)
    assert len([e for e in doc.modelspace() if e.dxf.layer == "inner-cut"]) == 6
    assert len([e for e in doc.modelspace() if e.dxf.layer == "drill"]) == 6


def test_parts_of_thick_material_nest_at_least_its_thickness_apart() -> None:
    """A 6 mm plywood square next to its copy: hand-worked, the second starts 10 + 6 mm
    along, not 10 + 2; card parts (no thickness) keep the 2 mm gap; common-line cutting
    (an explicit choice) still puts them edge to edge."""
    ply = square("ply", 10, copies=2)
    ply.meta["thickness"] = 6.0
    (sheet,) = cut_sheets([ply], (60, 30), gap=2, margin=5)
    (a, b) = _placed_parts(sheet)
    assert (b["x"] - a["x"], b["y"] - a["y"]) == pytest.approx((16, 0), abs=0.05)
    assert_well_packed([sheet], 6.0, 5.0)
    (card,) = cut_sheets([square("card", 10, copies=2)], (60, 30), gap=2, margin=5)
    assert _placed_parts(card)[1]["x"] == pytest.approx(17, abs=0.01)
    (shared,) = cut_sheets([ply], (60, 30), gap=0, margin=5, machine=COMMON_LINE)
    assert _placed_parts(shared)[1]["x"] == pytest.approx(15, abs=0.01)


def _plank(grain: float | None) -> Component:
    """A 60 x 12 mm triangle-ended plank, its grain (if any) along its length (x)."""
    c = Component("plank", "plank", 60.0, 12.0, copies=9)
    c.add(Shape(Polygon([(0, 0), (50, 0), (60, 6), (50, 12), (0, 12)]).exterior, "cut", CUT_STYLE))
    if grain is not None:
        c.meta["grain"] = grain
    return c


@pytest.mark.parametrize(("bed", "along"), [((200.0, 90.0), 0), ((90.0, 200.0), 90)])
def test_a_part_with_a_grain_lies_along_the_sheets_grain_turned_only_end_for_end(bed, along):
    """The sheet's grain runs its long side; a plank whose grain runs its length is laid
    that way on a landscape bed (turns 0 or 180) and turned a quarter on a portrait one
    (90 or 270), never across; the sheet carries its grain arrow, on the guide layer."""
    (sheet,) = cut_sheets([_plank(0.0)], bed, gap=2.0)
    turns = {p["rotation"] for p in _placed_parts(sheet)}
    allowed = {0, 180} if along == 0 else {90, 270}
    assert turns <= allowed and len(_placed_parts(sheet)) == 9
    assert sheet.meta["grain"] == along
    marks = [s for s in sheet.shapes("guide")]
    assert len(marks) == 1 and [t.text for t in sheet.texts() if t.layer == "guide"] == ["grain"]
    x0, y0, x1, y1 = marks[0].geom.bounds
    assert (x1 - x0 > y1 - y0) == (along == 0)  # the arrow points the grain's way
    for p in _placed_parts(sheet):  # each plank's long side along the grain
        assert (p["rotation"] in (0, 180)) == (along == 0)


def test_a_part_without_a_grain_turns_a_quarter_and_gets_no_grain_arrow():
    (sheet,) = cut_sheets([_plank(None)], (90.0, 200.0), gap=2.0)
    assert {p["rotation"] for p in _placed_parts(sheet)} <= {0, 90}
    assert not sheet.shapes("guide")
