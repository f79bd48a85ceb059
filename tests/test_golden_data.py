"""The golden checks themselves: a field change is named, a rounding is not a moved cut,
a moved hole is, and the picture is written."""

from __future__ import annotations

from PIL import Image
from shapely.geometry import box

from pnp.draw.render.svg import component_svg
from pnp.draw.scene import CUT_STYLE, INNER_CUT_STYLE, Component, Shape, Text, circle
from pnp.reference.golden import component_data, data_text
from pnp.testing.golden import TOLERANCE, cut_xor, data_changes, side_by_side


def _tag(hole_x: float = 20.0, width: float = 40.0) -> Component:
    comp = Component("tag", "Tag", width, 30.0)
    comp.add(Shape(box(0, 0, width, 30.0), "cut", CUT_STYLE))
    comp.add(circle(hole_x, 15.0, 3.0, "inner-cut", INNER_CUT_STYLE))
    comp.add(Text(5.0, 5.0, "HELLO"))
    return comp


def test_data_says_size_cut_length_area_holes_and_texts():
    data = component_data(_tag())
    assert data["size_mm"] == [40.0, 30.0]
    assert data["layers"]["cut"] == {"shapes": 1, "length_mm": 140.0, "area_mm2": 1200.0}
    assert data["layers"]["inner-cut"]["length_mm"] == 18.85  # 2 pi 3
    assert data["holes"] == 1 and data["texts"] == ["HELLO"]
    assert 1200 - 28.3 < data["cut_area_mm2"] < 1200 - 28.2  # the hole taken out
    assert '"size_mm": [40.0, 30.0]' in data_text(data)


def test_data_changes_name_each_changed_field_and_text_line():
    before = component_data(_tag())
    after_comp = _tag(width=42.0)
    after_comp.items[-1] = Text(5.0, 5.0, "HELLO!")
    changes = data_changes(before, component_data(after_comp))
    assert "size_mm: [40.0, 30.0] -> [42.0, 30.0]" in changes
    assert "layers.cut.length_mm: 140.0 -> 144.0" in changes
    assert "texts: - 'HELLO'" in changes and "texts: + 'HELLO!'" in changes
    assert data_changes(before, component_data(_tag())) == []


def test_cut_xor_ignores_a_shift_below_tolerance_and_finds_a_moved_hole():
    svg = component_svg(_tag())
    assert cut_xor(svg, svg) == {"cut": 0.0, "inner-cut": 0.0}
    nudged = component_svg(_tag(hole_x=20.0 + TOLERANCE / 4))
    assert nudged != svg and cut_xor(svg, nudged)["inner-cut"] == 0.0
    moved = cut_xor(svg, component_svg(_tag(hole_x=22.0)))
    assert moved["inner-cut"] > 1.0 and moved["cut"] == 0.0


def test_cut_xor_sees_a_layer_appear():
    plain = _tag()
    plain.items = [i for i in plain.items if i.layer != "inner-cut"]
    assert cut_xor(component_svg(plain), component_svg(_tag()))["inner-cut"] > 1.0


def test_side_by_side_picture_holds_golden_now_and_changed(tmp_path):
    path = side_by_side(component_svg(_tag()), component_svg(_tag(hole_x=30.0)), tmp_path / "t.png")
    with Image.open(path) as picture:
        assert picture.width > 3 * picture.height  # three landscape panels in a row
