"""Dice stickers and paper dice measured in the produced scene and SVG against the spec.

Sticker sizes are read back from the SVG's own coordinates; pips, numerals and faces are
counted in the component's items; nets are folded by the independent folder in
test_dice_geometry.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections import Counter
from itertools import combinations

import pytest
from cut_geometry import svg_cut_lines
from shapely import affinity
from shapely.geometry import LineString, Polygon, box
from test_dice_geometry import assert_folds_to_cube

from pnp.contract.palette import ink
from pnp.draw.components.dice import paper_die, pip_face, sticker_block
from pnp.draw.render.svg import component_svg
from pnp.draw.scene import PT_PER_MM, Component, Shape
from pnp.draw.text import string_width
from pnp.games.exploding_dice.kit.candy import candy_face
from pnp.games.exploding_dice.kit.dice_parts import paper_dice, sticker_sheets
from pnp.games.exploding_dice.params import COLOURS, ExplodingDiceParams, dice
from pnp.runtime.errors import PnpError

SVG = "{http://www.w3.org/2000/svg}"
CUSTOM = ExplodingDiceParams(
    faces={
        "red": ((1, 2, 3, 4, 5, 6), (1, 1, 2, 2, 3, 3), (4, 4, 5, 5, 6, 6), (1, 6, 6, 6, 6, 6)),
        "green": ((1, 2, 2, 3, 3, 6),),
    }
)


def _svg_layer_paths(svg: str, layer: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    groups = [g for g in root.iter(f"{SVG}g") if g.get("id") == f"layer-{layer}"]
    return [p for g in groups for p in g.iter(f"{SVG}path")]


def _path_points(d: str) -> list[tuple[float, float]]:
    nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
    return list(zip(nums[::2], nums[1::2], strict=True))


def _stickers(comp: Component) -> list[Shape]:
    return comp.shapes("cut")


def _within(shapes: list[Shape], area: Polygon) -> list[Shape]:
    """Shapes lying inside `area` (bounding boxes first: blocks hold hundreds of shapes)."""
    x0, y0, x1, y1 = area.bounds
    e = 1e-6
    grown = area.buffer(e)
    out = []
    for s in shapes:
        a, b, c, d = s.geom.bounds
        if a >= x0 - e and b >= y0 - e and c <= x1 + e and d <= y1 + e and grown.contains(s.geom):
            out.append(s)
    return out


def _luminance(hex_colour: str) -> float:
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def _rows(comp: Component) -> list[list[Shape]]:
    """Sticker cut outlines grouped into rows (top row first), each row left to right."""
    cuts = sorted(_stickers(comp), key=lambda s: (-round(s.geom.centroid.y, 3), s.geom.centroid.x))
    rows: dict[float, list[Shape]] = {}
    for s in cuts:
        rows.setdefault(round(s.geom.centroid.y, 3), []).append(s)
    return [rows[y] for y in sorted(rows, reverse=True)]


# --- sticker sheets -------------------------------------------------------------------------


def test_sticker_sheets_one_pip_and_one_candy_block_per_colour():
    comps = sticker_sheets(ExplodingDiceParams())
    names = {c.name for c in comps}
    assert names == {f"stickers-{s}-{c}" for s in ("pips", "candy") for c in COLOURS}
    for c in comps:
        assert c.imposition == "cutout"
        rows = _rows(c)
        assert len(rows) == 4 and all(len(r) == 6 for r in rows)


@pytest.mark.parametrize("die", [10.0, 12.0, 16.0])
def test_sticker_squares_in_the_svg_are_the_die_less_two_mm(die):
    comps = sticker_sheets(ExplodingDiceParams(die_size=die))
    for comp in (comps[0], comps[-1]):
        lines = svg_cut_lines(component_svg(comp), "cut")  # arcs followed as SVG draws them
        assert len(lines) == 24
        boxes = []
        for line in lines:
            pts = list(line.coords)
            xs, ys = [x for x, _ in pts], [y for _, y in pts]
            w, h = max(xs) - min(xs), max(ys) - min(ys)
            assert w == pytest.approx(die - 2.0, abs=0.002)
            assert h == pytest.approx(die - 2.0, abs=0.002)
            assert w < die and h < die
            assert 0 <= min(xs) and max(xs) <= comp.width and 0 <= min(ys) <= comp.height
            boxes.append(box(min(xs), min(ys), max(xs), max(ys)))
        # 1.5 - 2 mm between neighbours in a row and between rows
        for a in boxes:
            gaps = [a.distance(b) for b in boxes if b is not a]
            nearest = min(gaps)
            assert 1.5 - 1e-6 <= nearest <= 2.0 + 1e-6


def test_sticker_cut_is_a_rounded_square_and_background_bleeds_past_it():
    comp = sticker_sheets(ExplodingDiceParams())[0]
    red = ink("red")
    for cut in _stickers(comp):
        g = cut.geom
        assert g.geom_type == "Polygon" and g.is_valid
        side = g.bounds[2] - g.bounds[0]
        assert side * side * 0.95 < g.area < side * side  # small-radius corners
        backs = [s for s in comp.shapes("art") if s.style.fill == red.hex and s.geom.contains(g)]
        assert len(backs) == 1


@pytest.mark.parametrize("params", [ExplodingDiceParams(), CUSTOM], ids=["standard", "custom"])
def test_pip_stickers_print_each_dies_own_faces(params):
    comps = {c.name: c for c in sticker_sheets(params)}
    all_dice = dice(params)
    for ci, colour in enumerate(params.colours):
        c = ink(colour)
        comp = comps[f"stickers-pips-{colour}"]
        want = [d.faces for d in all_dice if d.colour == ci]
        got = []
        for row in _rows(comp):
            counts = []
            for cut in row:
                face = cut.geom
                pips = [
                    s
                    for s in _within(comp.shapes("art"), face)
                    if s.style.fill == c.text_on and s.geom.area < 0.1 * face.area
                ]
                counts.append(len(pips))
            got.append(tuple(counts))
        assert got == want


def test_pips_contrast_with_their_background_and_use_the_colour_symbol():
    comps = {c.name: c for c in sticker_sheets(ExplodingDiceParams())}
    ones = {}
    for colour in COLOURS:
        c = ink(colour)
        assert (max(_luminance(c.hex), _luminance(c.text_on)) + 0.05) / (
            min(_luminance(c.hex), _luminance(c.text_on)) + 0.05
        ) >= 3.0
        comp = comps[f"stickers-pips-{colour}"]
        first = _rows(comp)[0][0].geom  # value 1 on a standard die
        (pip,) = [
            s.geom
            for s in comp.shapes("art")
            if s.style.fill == c.text_on
            and first.contains(s.geom)
            and s.geom.area < 0.3 * first.area
        ]
        cen = pip.centroid
        pip = affinity.translate(pip, -cen.x, -cen.y)
        ones[colour] = affinity.scale(
            pip, 1 / math.sqrt(pip.area), 1 / math.sqrt(pip.area), origin=(0, 0)
        )
    for a, b in combinations(COLOURS, 2):
        assert ones[a].symmetric_difference(ones[b]).area > 0.1, f"{a} and {b} pips alike"


@pytest.mark.parametrize("die", [10.0, 16.0])
def test_candy_stickers_carry_a_legible_numeral_and_the_symbol_clear_of_the_picture(die):
    params = ExplodingDiceParams(die_size=die)
    comps = {c.name: c for c in sticker_sheets(params)}
    for colour in COLOURS:
        c = ink(colour)
        comp = comps[f"stickers-candy-{colour}"]
        for row in _rows(comp):
            for value, cut in zip(range(1, 7), row, strict=True):
                face = cut.geom
                x0, y0, x1, y1 = face.bounds
                texts = [t for t in comp.texts() if x0 <= t.x <= x1 and y0 <= t.y <= y1]
                assert [t.text for t in texts] == [str(value)]
                t = texts[0]
                assert t.size >= 4.5
                # the numeral sits top-left, the symbol bottom-right
                assert t.x < (x0 + x1) / 2 and t.y > (y0 + y1) / 2
                num_box = box(
                    t.x,
                    t.y,
                    t.x + string_width(t.text, t.size, t.bold),
                    t.y + 0.73 * t.size / PT_PER_MM,
                )
                assert face.contains(num_box)
                inside = _within(comp.shapes("art"), face)
                small = [s for s in inside if s.style.fill == c.text_on and s.style.stroke is None]
                sym = max(small, key=lambda s: s.geom.centroid.x - s.geom.centroid.y)
                sc = sym.geom.centroid
                assert sc.x > (x0 + x1) / 2 and sc.y < (y0 + y1) / 2
                whites = [s.geom for s in inside if s.style.fill == "#FFFFFF"]
                halo = max(whites, key=lambda g: g.area)  # the candy's outer edge
                assert halo.area > 0.15 * face.area
                assert not halo.intersects(num_box)
                assert not halo.intersects(sym.geom)


def test_blocks_are_labelled_and_keep_their_art_on_the_component():
    comps = sticker_sheets(CUSTOM)
    for comp in comps:
        texts = [t.text for t in comp.texts()]
        assert any(comp.meta["colour"] in t and "10 mm" in t for t in texts)  # block label
        colour = comp.meta["colour"]
        for k in range(1, 5):
            assert f"{colour} {k}" in texts  # row labels
        for s in comp.shapes():
            minx, miny, maxx, maxy = s.geom.bounds
            assert minx >= -1e-9 and miny >= -1e-9
            assert maxx <= comp.width + 1e-9 and maxy <= comp.height + 1e-9


def test_sticker_margin_is_a_parameter_and_is_checked():
    comp = sticker_sheets(ExplodingDiceParams(sticker_margin=1.5))[0]
    g = _stickers(comp)[0].geom
    assert g.bounds[2] - g.bounds[0] == pytest.approx(8.5)
    with pytest.raises(PnpError):
        sticker_sheets(ExplodingDiceParams(sticker_margin=6.0))


def test_sticker_block_is_reusable_with_other_faces():
    comp = sticker_block(
        "x", "X", [(ink("orange"), (2, 2, 2)), (ink("sky"), (5,))], 12.0, pip_face, "test block"
    )
    assert len(_stickers(comp)) == 4
    with pytest.raises(ValueError):
        sticker_block("x", "X", [], 12.0, pip_face, "empty")


# --- paper dice -----------------------------------------------------------------------------


def _net_values(comp: Component, fo, c) -> list[int]:
    """Pips counted on each folded square, in the folder's square order."""
    out = []
    for sq in fo.squares:
        pips = [
            s
            for s in comp.shapes("art")
            if s.style.fill == c.text_on
            and sq.contains(s.geom.centroid)
            and s.geom.area < 0.1 * sq.area
        ]
        out.append(len(pips))
    return out


def test_paper_dice_one_net_per_die_named_by_colour():
    comps = paper_dice(ExplodingDiceParams())
    assert [c.name for c in comps] == [f"paper-die-{c}-{k}" for c in COLOURS for k in range(1, 5)]
    assert all(c.imposition == "cutout" for c in comps)


@pytest.mark.parametrize("die", [10.0, 12.0, 16.0])
def test_paper_die_folds_into_a_standard_die(die):
    comp = paper_dice(ExplodingDiceParams(die_size=die))[0]
    c = ink("red")
    (cut,) = comp.shapes("cut")
    assert comp.outline is not None and cut.geom.equals(comp.outline)
    assert cut.geom.geom_type == "Polygon" and cut.geom.is_valid and not list(cut.geom.interiors)
    scores = comp.shapes("score")
    assert len(scores) == 12 and all(s.style.dash for s in scores)
    assert len(comp.fold_lines) == 12
    folds = [s.geom for s in scores]
    fo = assert_folds_to_cube(cut.geom, folds, die)  # faces are die-sized squares
    values = _net_values(comp, fo, c)
    assert sorted(values) == [1, 2, 3, 4, 5, 6]
    for i, j in combinations(range(6), 2):
        if tuple(-x for x in fo.normal(i)) == fo.normal(j):
            assert values[i] + values[j] == 7
    n = {v: fo.normal(i) for i, v in enumerate(values)}
    n1, n2, n3 = n[1], n[2], n[3]
    cross = (
        n1[1] * n2[2] - n1[2] * n2[1],
        n1[2] * n2[0] - n1[0] * n2[2],
        n1[0] * n2[1] - n1[1] * n2[0],
    )
    assert sum(cross[k] * n3[k] for k in range(3)) > 0  # 1-2-3 counterclockwise


def test_paper_die_svg_has_one_closed_cut_and_dashed_folds():
    comp = paper_dice(ExplodingDiceParams())[0]
    svg = component_svg(comp)
    (cut,) = _svg_layer_paths(svg, "cut")
    assert cut.get("d").rstrip().endswith("Z") and cut.get("d").count("M") == 1
    scores = _svg_layer_paths(svg, "score")
    assert len(scores) == 12 and all(p.get("stroke-dasharray") for p in scores)
    pts = _path_points(cut.get("d"))
    assert Polygon(pts).area == pytest.approx(comp.outline.area, rel=1e-4)


def test_paper_dice_carry_custom_faces_lowest_opposite_highest():
    comps = {c.name: c for c in paper_dice(CUSTOM)}
    c = ink("red")
    comp = comps["paper-die-red-2"]  # faces 1 1 2 2 3 3
    (cut,) = comp.shapes("cut")
    fo = assert_folds_to_cube(cut.geom, [s.geom for s in comp.shapes("score")], 10.0)
    values = _net_values(comp, fo, c)
    assert Counter(values) == Counter((1, 1, 2, 2, 3, 3))
    for i, j in combinations(range(6), 2):
        if tuple(-x for x in fo.normal(i)) == fo.normal(j):
            assert values[i] + values[j] == 4
    green = comps["paper-die-green-3"]
    assert Counter(green.meta["faces"]) == Counter((1, 2, 2, 3, 3, 6))


def test_paper_die_size_and_candy_style():
    comps = paper_dice(ExplodingDiceParams(), 20.0, style="candy")
    comp = comps[5]
    (cut,) = comp.shapes("cut")
    fo = assert_folds_to_cube(cut.geom, [s.geom for s in comp.shapes("score")], 20.0)
    numerals = sorted(
        t.text
        for t in comp.texts()
        if any(sq.contains(LineString([(t.x, t.y), (t.x + 0.1, t.y)])) for sq in fo.squares)
    )
    assert numerals == ["1", "2", "3", "4", "5", "6"]
    with pytest.raises(PnpError):
        paper_dice(ExplodingDiceParams(), style="stripes")
    with pytest.raises(PnpError):
        paper_dice(ExplodingDiceParams(), size=0)


def test_paper_die_is_reusable():
    comp = paper_die("d", "D", (1, 2, 3, 4, 5, 6), 15.0, candy_face, ink("sky"), tab=4.0)
    (cut,) = comp.shapes("cut")
    assert_folds_to_cube(cut.geom, [s.geom for s in comp.shapes("score")], 15.0)
    assert comp.meta["tab"] == 4.0
