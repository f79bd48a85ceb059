"""SVG output measured as Inkscape or a cutter reads it: mm sizes, flipped points, layers."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from shapely.geometry import LineString, box

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

SVG = "{http://www.w3.org/2000/svg}"
INK = "{http://www.inkscape.org/namespaces/inkscape}"
NUM = r"-?\d+(?:\.\d+)?"


def _sample(bleed: float = 0.0) -> Component:
    """A 40 x 30 mm piece with something on every layer we care about."""
    c = Component("sample", "Sample", 40.0, 30.0, bleed=bleed)
    c.add(Shape(box(5, 5, 20, 15), "art", Style(fill="#d55e00", stroke=None)))
    c.add(Text(20, 4, "Fish & <chips>", size=10, bold=True, anchor="middle", fill="#112233"))
    c.add(Shape(box(0, 0, 40, 30), "cut", CUT_STYLE))
    c.add(Shape(box(25, 10, 35, 20), "inner-cut", INNER_CUT_STYLE))
    c.add(Shape(LineString([(0, 12), (40, 12)]), "score", SCORE_STYLE))
    c.add(circle(8, 25, 1.5, "drill", DRILL_STYLE))
    return c


def _root(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def _layer(root: ET.Element, name: str) -> ET.Element:
    groups = [g for g in root.iter(f"{SVG}g") if g.get(f"{INK}label") == name]
    assert len(groups) == 1, f"expected one group for layer {name}"
    return groups[0]


def _first(group: ET.Element, tag: str) -> ET.Element:
    """The group's first child element of this SVG tag."""
    found = group.find(f"{SVG}{tag}")
    assert found is not None, f"no <{tag}> in the group"
    return found


def _points(d: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in re.findall(rf"({NUM}),({NUM})", d)]


def test_root_is_millimetres_with_matching_viewbox() -> None:
    root = _root(component_svg(_sample()))
    assert root.attrib["width"] == "40mm"
    assert root.attrib["height"] == "30mm"
    assert [float(v) for v in root.attrib["viewBox"].split()] == [0, 0, 40, 30]


def test_bleed_grows_the_page_and_viewbox_starts_at_minus_bleed() -> None:
    comp = _sample(bleed=3.0)
    root = _root(component_svg(comp))
    assert float(root.attrib["width"].removesuffix("mm")) == pytest.approx(46.0)
    assert float(root.attrib["height"].removesuffix("mm")) == pytest.approx(36.0)
    assert [float(v) for v in root.attrib["viewBox"].split()] == [-3, -3, 46, 36]
    trimmed = _root(component_svg(comp, bleed=False))
    assert [float(v) for v in trimmed.attrib["viewBox"].split()] == [0, 0, 40, 30]
    assert trimmed.attrib["width"] == "40mm"


def test_rectangle_lands_at_flipped_mm_coordinates() -> None:
    # scene box x 5..20, y 5..15 (y up) on a 30 mm tall piece -> SVG y 15..25 (y down)
    art = _layer(_root(component_svg(_sample())), "art")
    pts = _points(_first(art, "path").attrib["d"])
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    assert (min(xs), max(xs)) == (5.0, 20.0)
    assert (min(ys), max(ys)) == (15.0, 25.0)
    assert _first(art, "path").attrib["fill"] == "#d55e00"


def test_circle_and_text_are_flipped_and_sized_in_mm() -> None:
    root = _root(component_svg(_sample()))
    dot = _first(_layer(root, "drill"), "circle")
    assert [float(dot.attrib[k]) for k in ("cx", "cy", "r")] == [8.0, 5.0, 1.5]
    text = _first(_layer(root, "art"), "text")
    assert text.text == "Fish & <chips>"
    assert (float(text.attrib["x"]), float(text.attrib["y"])) == (20.0, 26.0)
    assert float(text.attrib["font-size"]) == pytest.approx(10 * 25.4 / 72, abs=1e-3)
    assert text.attrib["text-anchor"] == "middle"
    assert text.attrib["font-weight"] == "bold"
    assert text.attrib["fill"] == "#112233"
    assert "sans-serif" in text.attrib["font-family"]
    assert "transform" not in text.attrib


def test_text_rotation_is_counter_clockwise_on_the_page() -> None:
    comp = Component("t", "T", 40, 30, items=[Text(10, 10, "up", rotate=90)])
    text = _first(_layer(_root(component_svg(comp)), "art"), "text")
    # SVG rotate() turns clockwise on screen (y down), so a CCW turn is negative, about (x, y)
    assert text.attrib["transform"] == "rotate(-90 10 20)"


def test_one_inkscape_layer_per_present_layer_in_scene_order() -> None:
    root = _root(component_svg(_sample()))
    groups = [g for g in root if g.tag == f"{SVG}g"]
    labels = [g.attrib[f"{INK}label"] for g in groups]
    assert labels == ["art", "score", "inner-cut", "cut", "drill"]  # no guide items -> no group
    for g in groups:
        assert g.attrib[f"{INK}groupmode"] == "layer"
        assert g.attrib["id"] == f"layer-{g.attrib[f'{INK}label']}"


def test_machine_layers_keep_their_own_styles() -> None:
    root = _root(component_svg(_sample()))
    cut = _first(_layer(root, "cut"), "path")
    assert (cut.attrib["stroke"], float(cut.attrib["stroke-width"]), cut.attrib["fill"]) == (
        "#ff0000",
        0.01,
        "none",
    )
    assert _first(_layer(root, "inner-cut"), "path").attrib["stroke"] == "#0000ff"
    score = _first(_layer(root, "score"), "path")
    assert score.attrib["stroke-dasharray"] == "1.5 1"
    assert score.attrib["fill"] == "none"
    assert len(_points(score.attrib["d"])) == 2 and "Z" not in score.attrib["d"]


def test_colour_overrides_recolour_only_the_named_machine_layer() -> None:
    root = _root(component_svg(_sample(), colours={"cut": "#00ff00"}))
    assert _first(_layer(root, "cut"), "path").attrib["stroke"] == "#00ff00"
    assert _first(_layer(root, "inner-cut"), "path").attrib["stroke"] == "#0000ff"
    assert _first(_layer(root, "art"), "path").attrib["fill"] == "#d55e00"
    with pytest.raises(PnpError, match="art"):
        component_svg(_sample(), colours={"art": "#00ff00"})


def test_polygon_with_hole_is_one_evenodd_path_with_two_rings() -> None:
    frame = box(0, 0, 20, 20).difference(box(5, 5, 15, 15))
    comp = Component("f", "F", 20, 20, items=[Shape(frame, "art", Style(fill="#000000"))])
    path = _first(_layer(_root(component_svg(comp)), "art"), "path")
    assert path.attrib["fill-rule"] == "evenodd"
    assert path.attrib["d"].count("M") == 2 and path.attrib["d"].count("Z") == 2
    assert {5.0, 15.0} <= {x for x, _ in _points(path.attrib["d"])}


def test_open_lines_are_never_filled() -> None:
    line = Shape(LineString([(0, 0), (10, 10), (20, 0)]), "art", Style(fill="#ff00ff"))
    comp = Component("l", "L", 20, 10, items=[line])
    path = _first(_layer(_root(component_svg(comp)), "art"), "path")
    assert path.attrib["fill"] == "none"


def test_hairline_option_widens_thin_strokes_only() -> None:
    root = _root(component_svg(_sample(), hairline=0.1))
    assert float(_first(_layer(root, "cut"), "path").attrib["stroke-width"]) == 0.1
    assert float(_first(_layer(root, "score"), "path").attrib["stroke-width"]) == 0.2


def test_numbers_are_rounded_and_output_is_byte_identical() -> None:
    comp = Component("r", "R", 10, 10, items=[Shape(box(1 / 3, 1 / 7, 2 / 3, 9.87654321))])
    svg = component_svg(comp)
    assert svg == component_svg(comp)
    assert component_svg(_sample(3)) == component_svg(_sample(3))
    d = _first(_layer(_root(svg), "art"), "path").attrib["d"]
    assert all(len(n.split(".")[-1]) <= 3 for n in re.findall(NUM, d) if "." in n)
    pts = _points(d)
    assert {x for x, _ in pts} == {0.333, 0.667}
    assert {y for _, y in pts} == {0.123, 9.857}  # 10 - 9.87654321 and 10 - 1/7
