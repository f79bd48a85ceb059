"""Machine preparation passes (pnp.draw.prepare), each tested once on a hand-made component,
then the pipeline end to end: a kit's SVG and DXF cut files carry the same kerfed cuts."""

from __future__ import annotations

from typing import Any, cast

import pytest
from cut_geometry import dxf_cut_lines, no_duplicate_cuts, same_cuts, sizes, svg_cut_lines
from shapely.geometry import LineString, Polygon, box
from shapely.ops import unary_union

from pnp.draw.cards import CardFormat, add_cut, card_base
from pnp.draw.kit import Kit
from pnp.draw.layout.cutsheet import cut_length, cut_sheets
from pnp.draw.prepare import (
    AS_DRAWN,
    CUT_HAIRLINE,
    Machine,
    hairline,
    merge_common_lines,
    prepare,
    with_kerf,
)
from pnp.draw.render.dxf import component_dxf
from pnp.draw.render.svg import component_svg
from pnp.draw.scene import (
    CUT_STYLE,
    DRILL_STYLE,
    INNER_CUT_STYLE,
    SCORE_STYLE,
    Component,
    Shape,
    Style,
    Text,
    circle,
)
from pnp.runtime.errors import PnpError


def _plate() -> Component:
    """A 40 x 30 mm plate with a 10 mm square hole, a score line, a drill mark and some art."""
    c = Component("plate", "Plate", 40.0, 30.0)
    c.add(Shape(box(0, 0, 40, 30), "art", Style(fill="#cccccc")))
    c.add(Text(5, 5, "label"))
    c.add(Shape(box(0, 0, 40, 30), "cut", CUT_STYLE))
    c.add(Shape(box(15, 10, 25, 20), "inner-cut", INNER_CUT_STYLE))
    c.add(Shape(LineString([(0, 25), (40, 25)]), "score", SCORE_STYLE))
    c.add(circle(5, 25, 1.0, "drill", DRILL_STYLE))
    return c


def _size(geom) -> tuple[float, float]:
    x0, y0, x1, y1 = geom.bounds
    return (x1 - x0, y1 - y0)


# --- Kerf ------------------------------------------------------------------------------


def test_kerf_grows_the_outline_and_shrinks_the_hole_by_half_the_kerf() -> None:
    plate = _plate()
    cut = with_kerf(plate, 1.0)
    (outline,) = cut.shapes("cut")
    (hole,) = cut.shapes("inner-cut")
    assert outline.geom.bounds == pytest.approx((-0.5, -0.5, 40.5, 30.5))
    assert hole.geom.bounds == pytest.approx((15.5, 10.5, 24.5, 19.5))
    # what the blade does not cut through stays where it was drawn
    for layer in ("art", "score", "drill"):
        assert cut.shapes(layer) == plate.shapes(layer)
    assert plate.shapes("cut")[0].geom.bounds == (0, 0, 40, 30)  # the input is left alone
    assert with_kerf(plate, 0) is plate


def test_kerf_moves_circles_holes_in_cut_areas_and_a_cards_trim_ring() -> None:
    ring = box(0, 0, 30, 30).difference(box(10, 10, 20, 20))
    part = Component("ring", "Ring", 30, 30, items=[Shape(ring, "cut", CUT_STYLE)])
    part.add(circle(5, 5, 2.0, "inner-cut", INNER_CUT_STYLE), circle(25, 5, 2.0, "cut", CUT_STYLE))
    cut = with_kerf(part, 0.4)
    area, disc = cut.shapes("cut")
    assert _size(area.geom) == pytest.approx((30.4, 30.4))  # the material grows ...
    hole = Polygon(area.geom.interiors[0])
    assert _size(hole) == pytest.approx((9.6, 9.6))  # ... its hole shrinks
    assert (disc.radius, cut.shapes("inner-cut")[0].radius) == pytest.approx((2.2, 1.8))
    card = card_base("c", "C", CardFormat(85.0, 55.0, 8.0, 3.0), "#ffffff")
    add_cut(card)  # cards put their rounded trim on `cut` as a closed ring
    (trim,) = with_kerf(card, 0.4).shapes("cut")
    assert trim.geom.bounds == pytest.approx((-0.2, -0.2, 85.2, 55.2), abs=1e-6)


def test_a_negative_kerf_is_refused() -> None:
    with pytest.raises(ValueError, match="kerf"):
        with_kerf(_plate(), -0.1)
    with pytest.raises(ValueError, match="kerf"):
        Machine(kerf=-0.1)


# --- Common lines ----------------------------------------------------------------------


def _sheet(*outlines: Polygon) -> Component:
    c = Component("s", "s", 100, 100)
    c.add(*(Shape(o.exterior, "cut", CUT_STYLE) for o in outlines))
    return c


def test_merge_two_squares_sharing_an_edge() -> None:
    sheet = _sheet(box(0, 0, 10, 10), box(10, 0, 20, 10), box(50, 50, 60, 60))
    merged = merge_common_lines(sheet)
    assert cut_length([sheet]) == pytest.approx(120)
    assert cut_length([merged]) == pytest.approx(110)  # the shared 10 mm edge once
    assert merged.meta["common_line_saved"] == pytest.approx(10)
    no_duplicate_cuts(merged)
    # every edge is still cut
    before = unary_union([s.geom for s in sheet.shapes("cut")])
    after = unary_union([s.geom for s in merged.shapes("cut")])
    assert before.symmetric_difference(after).length < 1e-6
    # the first square keeps its closed outline, the second is cut on its other three sides
    first, second = merged.shapes("cut")[:2]
    assert first.geom.equals(box(0, 0, 10, 10).exterior)
    assert second.geom.geom_type == "LineString" and not second.geom.is_closed
    assert second.geom.length == pytest.approx(30)
    assert {second.geom.coords[0], second.geom.coords[-1]} == {(10.0, 0.0), (10.0, 10.0)}
    # the lone square keeps its closed outline
    assert box(50, 50, 60, 60).exterior.equals(merged.shapes("cut")[-1].geom)
    assert len(sheet.shapes("cut")) == 3  # the input is left alone


def test_merge_partly_shared_edge_and_nothing_shared() -> None:
    merged = merge_common_lines(_sheet(box(0, 0, 10, 10), box(10, 5, 20, 15)))
    assert cut_length([merged]) == pytest.approx(75)
    no_duplicate_cuts(merged)
    apart = _sheet(box(0, 0, 10, 10), box(12, 0, 22, 10))
    assert merge_common_lines(apart).items == apart.items
    assert merge_common_lines(apart).meta["common_line_saved"] == 0


def test_merge_a_part_shared_all_round() -> None:
    """A square in a ring of four: its four edges are its neighbours' edges, cut once."""
    ring = [box(0, 0, 30, 10), box(0, 20, 30, 30), box(0, 10, 10, 20), box(20, 10, 30, 20)]
    sheet = _sheet(*ring, box(10, 10, 20, 20))
    merged = merge_common_lines(sheet)
    # bottom and top keep 80 each; the side squares lose 20 each to them and 10 to the middle
    assert cut_length([merged]) == pytest.approx(280 - 80)
    assert merged.meta["common_line_saved"] == pytest.approx(80)
    # top and bottom closed; each side square keeps its two upright edges (the left one's
    # right edge is the middle square's too); nothing is left of the middle square's own cut
    kinds = sorted((s.geom.geom_type, round(s.geom.length, 6)) for s in merged.shapes("cut"))
    assert kinds == [("LineString", 10.0)] * 4 + [("LinearRing", 80.0)] * 2
    no_duplicate_cuts(merged)


# --- Hairline --------------------------------------------------------------------------


def test_hairline_sets_the_cut_stroke_and_the_shops_colours() -> None:
    thick = Style(stroke="#ff0000", stroke_width=0.3)
    part = Component("p", "P", 20, 20)
    part.add(Shape(box(0, 0, 20, 20), "cut", thick), Shape(box(5, 5, 8, 8), "inner-cut", thick))
    part.add(Shape(LineString([(0, 10), (20, 10)]), "score", SCORE_STYLE))
    part.add(Shape(box(1, 1, 2, 2), "art", Style(stroke_width=0.05)))
    styled = hairline(part)
    assert [s.style.stroke_width for s in styled.shapes()] == [CUT_HAIRLINE] * 2 + [0.2, 0.05]
    assert {s.style.stroke for s in styled.shapes("cut")} == {"#ff0000"}
    shop = hairline(part, colours={"cut": "#00ff00", "score": "#0000ff"})
    assert [s.style.stroke for s in shop.shapes()] == ["#00ff00", "#ff0000", "#0000ff", "#000000"]
    assert part.shapes("cut")[0].style is thick  # the input is left alone
    plate = _plate()
    assert hairline(plate) is plate  # cut lines already a hairline: nothing to change
    assert hairline(styled).items == styled.items
    with pytest.raises(PnpError, match="art"):
        hairline(part, colours={"art": "#00ff00"})


# --- The pipeline ----------------------------------------------------------------------


def test_a_machine_without_kerf_leaves_a_drawn_part_as_it_is() -> None:
    """The default machine changes nothing, so default cut files stay byte-identical."""
    plate = _plate()
    assert prepare(plate, AS_DRAWN) is plate
    assert prepare(plate, Machine(common_line=False, kerf=0)) is plate


def test_the_pipeline_kerfs_before_it_merges_common_lines() -> None:
    """Two squares a kerf apart: kerfed, their outlines meet on the blade's path, which is
    then cut once. Merging first would leave nothing to merge, or a shared cut in the
    wrong place."""
    sheet = _sheet(box(0, 0, 10, 10), box(10.4, 0, 20.4, 10))
    out = prepare(sheet, Machine(kerf=0.4, common_line=True))
    assert out.meta["common_line_saved"] == pytest.approx(10.4)
    assert cut_length([out]) == pytest.approx(2 * 4 * 10.4 - 10.4)
    lines = unary_union([s.geom for s in out.shapes("cut")])
    want = unary_union([box(-0.2, -0.2, 10.2, 10.2).boundary, box(10.2, -0.2, 20.6, 10.2).boundary])
    assert lines.hausdorff_distance(want) < 1e-9 and lines.length == pytest.approx(want.length)
    assert all(s.style.stroke_width == CUT_HAIRLINE for s in out.shapes("cut"))


def _parts() -> list[Component]:
    square = Component("sq", "Square", 20, 20, copies=3)
    square.add(Shape(box(0, 0, 20, 20).exterior, "cut", CUT_STYLE))
    square.add(circle(10, 10, 2.0, "inner-cut", INNER_CUT_STYLE))
    return [_plate(), square]


@pytest.mark.parametrize(
    "machine, gap",
    [(Machine(kerf=0.4), 2.0), (Machine(kerf=0.4, common_line=True), 0.0)],
    ids=["kerf", "kerf-common-line"],
)
def test_the_svg_and_dxf_of_a_sheet_agree_on_the_cuts(machine: Machine, gap: float) -> None:
    (sheet,) = cut_sheets(_parts(), (200, 100), gap=gap, machine=machine)
    svg, dxf = component_svg(sheet), component_dxf(sheet)
    assert dxf is not None
    for layer in ("cut", "inner-cut"):
        drawn = svg_cut_lines(svg, layer)
        assert drawn and same_cuts(drawn, dxf_cut_lines(dxf, layer), tol=2e-3)
    if machine.common_line:
        assert cast(float, sheet.meta["common_line_saved"]) > 0


def _spec(kit: Kit, sheet_meta: Any, layer: str) -> list[tuple[float, float]]:
    """Width and height of every cut line of the parts on a sheet, as drawn (turned where
    the sheet turned the part): what a kerf-free cutter must produce."""
    out = []
    for placed in sheet_meta:
        for s in kit.component(placed["name"]).shapes(layer):
            if s.radius > 0:
                rings = [s.geom.buffer(s.radius, quad_segs=64).exterior]
            elif isinstance(s.geom, Polygon):
                rings = [s.geom.exterior, *s.geom.interiors]
            else:
                rings = [s.geom]
            for r in rings:
                w, h = _size(r)
                out.append((h, w) if placed["rotation"] in (90, 270) else (w, h))
    return sorted(out)


@pytest.mark.slow
def test_a_kit_built_with_a_kerf_offsets_its_svg_and_dxf_cut_sheets(tmp_path) -> None:
    """Desert Home's plywood blades built at kerf 0 and 1: in the written SVG and DXF cut
    sheets, outlines are the drawn size plus the kerf and holes the drawn size minus it."""
    from pnp.build import build_game, cut_sheets_of, make_kit

    kerf = 1.0
    _, kit = make_kit("desert-home", paper="a4")
    (plywood,) = [s for s in cut_sheets_of(kit) if s.name == "plywood-1"]
    read = {}
    for k in (0.0, kerf):
        out = tmp_path / f"k{k}"
        build_game("desert-home", ["a4"], out, formats=["svg", "dxf"], values={"kerf": k})
        cut = out / "desert-home" / "cut"
        svg = (cut / "plywood-1.svg").read_text(encoding="utf-8")
        dxf = (cut / "plywood-1.dxf").read_bytes()
        for layer in ("cut", "inner-cut"):
            in_svg, in_dxf = svg_cut_lines(svg, layer), dxf_cut_lines(dxf, layer)
            assert same_cuts(in_svg, in_dxf, tol=2e-3), f"SVG and DXF differ on {layer}"
            read[k, layer] = sizes(in_svg)
    for layer, sign in (("cut", 1), ("inner-cut", -1)):
        spec = _spec(kit, plywood.meta["parts"], layer)
        assert spec and _flat(read[0.0, layer]) == pytest.approx(_flat(spec), abs=2e-3)
        grown = [(w + sign * kerf, h + sign * kerf) for w, h in spec]
        assert _flat(read[kerf, layer]) == pytest.approx(_flat(grown), abs=2e-3)


def _flat(pairs: list[tuple[float, float]]) -> list[float]:
    return [v for pair in pairs for v in pair]
