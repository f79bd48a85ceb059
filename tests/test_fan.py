"""The refuge fan: blade outlines, swing, overlap, piece places, and web widths."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely import affinity
from shapely.geometry import LineString, Point, box

from geometry.fan import (
    BladeLayout,
    Fan,
    blade_layout,
    blade_outline,
    fan_overlaps,
    feature_clearance,
    overlap_deg,
)
from geometry.webs import holds_together, narrowest_web


def default_fan(**kw) -> Fan:
    args = {"blades": 6, "length": 60.0, "corner_radius": 7.0, "overlap": 6.0, "pivot_hole": 5.0}
    args.update(kw)
    return Fan(**args)


def _reach(poly) -> float:
    return max(math.hypot(x, y) for x, y in poly.exterior.coords)


def _width_deg_at(poly, radius: float) -> float:
    """Angular width of the blade where a circle of `radius` about the pivot crosses it."""
    ring = Point(0, 0).buffer(radius, quad_segs=256).exterior
    arc = poly.intersection(LineString(ring.coords))
    pts = [p for g in getattr(arc, "geoms", [arc]) for p in g.coords]
    angles = [math.degrees(math.atan2(y, x)) for x, y in pts]
    return max(angles) - min(angles)


def test_six_blades_fanned_right_round_are_60_degrees_apart():
    f = default_fan()
    assert f.step == 60
    assert f.angles() == (0, 60, 120, 180, 240, 300)
    # Each blade covers the next by the stated overlap: apex = step + overlap.
    assert f.apex == 66


def test_blade_reaches_its_length_from_the_pivot_and_spans_its_apex_angle():
    blade = default_fan().blade()
    assert _reach(blade) == pytest.approx(60, abs=0.05)
    # The long sides are rays from the pivot: the same 66 degree width at any distance.
    for r in (20, 30, 40):
        assert _width_deg_at(blade, r) == pytest.approx(66, abs=0.3)
    # The hub round the pivot has the corner radius: 7 mm behind the pivot.
    assert blade.bounds[0] == pytest.approx(-7, abs=0.01)


def test_blade_outline_is_symmetric_about_its_axis():
    blade = blade_outline(60, 7, 66)
    mirrored = affinity.scale(blade, 1, -1, origin=(0, 0))
    assert blade.symmetric_difference(mirrored).area < 0.5


def test_measured_overlap_equals_the_stated_overlap():
    for stated in (0.0, 3.0, 6.0, 12.0):
        f = default_fan(overlap=stated)
        assert fan_overlaps(f) == pytest.approx([stated] * 6, abs=0.05)


def test_wider_blades_measure_a_wider_overlap():
    f = default_fan()
    wide = [blade_outline(60, 7, 70)] * 6  # 70 degree blades on a 6-degree fan
    assert fan_overlaps(f, wide) == pytest.approx([10.0] * 6, abs=0.05)


def test_overlap_is_zero_for_blades_that_do_not_meet():
    a = blade_outline(60, 7, 40)
    b = affinity.rotate(a, 90, origin=(0, 0))
    assert overlap_deg(a, b, beyond=15) == 0.0


def test_pivot_hole_and_hub_web():
    f = default_fan()
    part = f.part()
    assert len(part.interiors) == 1
    hole = part.interiors[0]
    assert max(math.hypot(x, y) for x, y in hole.coords) == pytest.approx(2.5, abs=0.01)
    # The thinnest plywood is the ring round the pivot: 7 - 2.5 = 4.5 mm.
    assert narrowest_web(part) == pytest.approx(4.5, abs=0.03)


def test_pieces_stand_on_the_uncovered_part_of_the_blade():
    f = default_fan()
    lay = blade_layout(f, 7.25, 9.75)
    assert len(lay.figures) == 2
    (x1, y1), (x2, y2) = lay.figures
    assert (x1, y1) == pytest.approx((x2, -y2))
    assert lay.tent[1] == 0
    circles = lay.circles()
    for i, a in enumerate(circles):
        for b in circles[i + 1 :]:
            assert a.distance(b) >= 1.0 - 1e-6
    # Every place is 1 mm clear of the neighbouring blades and the edge.
    assert feature_clearance(f, lay) == pytest.approx(1.0, abs=0.01)
    for c in circles:
        for k in (1, 5):
            assert c.intersection(f.placed(k)).area == 0


def test_a_place_under_a_neighbour_has_negative_clearance():
    f = default_fan()
    lay = blade_layout(f, 7.25, 9.75)
    # Move a figure onto the band the next blade covers (the blade's edge at 33 degrees).
    edge = (45 * math.cos(math.radians(31)), 45 * math.sin(math.radians(31)))
    covered = BladeLayout((edge, lay.figures[1]), lay.tent, lay.figure_radius, lay.tent_radius)
    assert feature_clearance(f, covered) < -5


def test_a_short_blade_has_no_room_for_its_pieces():
    with pytest.raises(ValueError, match="no room"):
        blade_layout(default_fan(length=50), 7.25, 9.75)


@pytest.mark.parametrize(
    "kw, words",
    [
        ({"overlap": 60}, "overlap"),
        ({"pivot_hole": 14}, "pivot hole"),
        ({"length": 20}, "too short"),
        ({"blades": 1}, "two blades"),
    ],
)
def test_impossible_fans_say_why(kw, words):
    with pytest.raises(ValueError, match=words):
        default_fan(**kw)


def test_narrowest_web_finds_a_thin_bridge():
    # Two 20 mm squares joined by a 3 mm wide bar: the bar is the narrowest web.
    part = box(0, 0, 20, 20).union(box(20, 8.5, 30, 11.5)).union(box(30, 0, 50, 20))
    assert narrowest_web(part) == pytest.approx(3.0, abs=0.02)
    assert holds_together(part, 2.9)
    assert not holds_together(part, 3.1)


def test_narrowest_web_finds_a_hole_near_the_edge():
    # A 4 mm hole whose edge is 1.5 mm from the part's edge.
    part = box(0, 0, 30, 30).difference(Point(3.5, 15).buffer(2, quad_segs=64))
    assert narrowest_web(part) == pytest.approx(1.5, abs=0.02)


def test_a_plain_part_reports_its_own_thickness():
    assert narrowest_web(box(0, 0, 40, 6)) == pytest.approx(6, abs=0.02)


@settings(max_examples=20, deadline=None)
@given(
    length=st.floats(min_value=45, max_value=120),
    radius=st.floats(min_value=4, max_value=12),
    overlap=st.floats(min_value=0, max_value=20),
    hole_share=st.floats(min_value=0.2, max_value=0.8),
)
def test_any_fan_overlaps_by_what_it_states_and_its_web_is_the_hub_ring(
    length, radius, overlap, hole_share
):
    f = default_fan(
        length=length, corner_radius=radius, overlap=overlap, pivot_hole=2 * radius * hole_share
    )
    assert _reach(f.blade()) == pytest.approx(length, abs=0.1)
    assert max(fan_overlaps(f)) == pytest.approx(overlap, abs=0.1)
    assert narrowest_web(f.part()) <= radius * (1 - hole_share) + 0.05


@pytest.mark.parametrize(
    "bolt, clearance, hole", [(5.0, 0.5, 5.5), (5.0, 0.3, 5.3), (4.0, 0.3, 4.3)]
)
def test_the_fans_pivot_hole_is_the_bolt_plus_its_clearance(bolt, clearance, hole):
    """The hole a fan's blades are drilled with, measured on the fan's pivot geometry."""
    from pnp.games.desert_home.params import DesertHomeParams, fan

    p = DesertHomeParams(bolt_diameter=bolt, hole_clearance=clearance)
    x0, _, x1, _ = fan(p).pivot().bounds
    assert x1 - x0 == pytest.approx(hole, abs=0.001)
    assert fan(p).part().interiors  # the blade has the hole
