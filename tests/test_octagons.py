"""Octagon tiles and the octagon-square grid, measured with shapely."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from geometry.octagons import (
    OctagonGrid,
    connected,
    gap_corners,
    gap_square,
    grid_pitch,
    neighbours,
    octagon,
    octagon_side,
    play,
)


def _sides(poly):
    pts = list(poly.exterior.coords)
    return [math.dist(a, b) for a, b in zip(pts, pts[1:], strict=False)]


def test_a_40mm_octagon_is_40mm_across_its_flats_with_eight_equal_sides():
    o = octagon(10, 20, 40)
    x0, y0, x1, y1 = o.bounds
    assert (x1 - x0, y1 - y0) == pytest.approx((40, 40))
    assert o.centroid.x == pytest.approx(10) and o.centroid.y == pytest.approx(20)
    sides = _sides(o)
    assert len(sides) == 8
    # A regular octagon of 40 mm across flats has sides of 40 * tan(22.5°) = 16.569 mm.
    assert sides == pytest.approx([16.5685] * 8, abs=1e-3)
    assert octagon_side(40) == pytest.approx(16.5685, abs=1e-4)
    # Area of a regular octagon: 2 (1 + sqrt 2) s^2 = 1325.48 mm^2 for s = 16.5685.
    assert o.area == pytest.approx(1325.48, abs=0.01)


def test_flat_sides_face_up_down_left_right():
    o = octagon(0, 0, 40)
    for x, y in o.exterior.coords:
        assert abs(x) == pytest.approx(20) or abs(y) == pytest.approx(20)


def test_touching_octagons_have_a_square_gap_as_wide_as_a_side():
    side = octagon_side(40)
    assert grid_pitch(40, side) == pytest.approx(40)
    assert play(40, side) == pytest.approx(0, abs=1e-9)
    g = OctagonGrid(2, 2, 40, side)
    cells = [g.cell(r, c) for r in range(2) for c in range(2)]
    square = gap_square(*g.corner(0, 0), side)
    # The four octagons and the square fill the square between their centres exactly.
    (x0, y1), (x1, y0) = g.centre(0, 0), g.centre(1, 1)
    hole = box(x0, y0, x1, y1).difference(square)
    for c in cells:
        hole = hole.difference(c)
    assert hole.area == pytest.approx(0, abs=1e-6)
    assert square.area == pytest.approx(side * side)
    for c in cells:
        assert c.intersection(square).area == pytest.approx(0, abs=1e-9)


def test_default_gap_of_18mm_gives_a_41mm_pitch_and_1mm_play():
    # pitch * sqrt(2) = 40 + 18, so pitch = 41.012 mm and the flats keep 1.012 mm apart.
    assert grid_pitch(40, 18) == pytest.approx(41.0122, abs=1e-4)
    assert play(40, 18) == pytest.approx(1.0122, abs=1e-4)
    g = OctagonGrid(2, 2, 40, 18)
    assert g.cell(0, 0).distance(g.cell(0, 1)) == pytest.approx(1.0122, abs=1e-4)
    # Diagonal neighbours are the square gap's width apart: no diagonal moves.
    assert g.cell(0, 0).distance(g.cell(1, 1)) == pytest.approx(18, abs=1e-6)


def test_a_gap_smaller_than_the_octagon_side_makes_octagons_overlap():
    with pytest.raises(ValueError, match="overlap"):
        grid_pitch(40, 16.0)
    with pytest.raises(ValueError, match="overlap"):
        OctagonGrid(5, 6, 40, 16.0)


def test_row_zero_is_the_top_row_and_columns_run_left_to_right():
    g = OctagonGrid(5, 6, 40, 18, x0=10, y0=5)
    assert g.centre(4, 0) == pytest.approx((10, 5))
    assert g.centre(0, 0)[1] == pytest.approx(5 + 4 * g.pitch)
    assert g.centre(2, 3)[0] == pytest.approx(10 + 3 * g.pitch)
    assert g.width == pytest.approx(5 * g.pitch + 40)
    assert g.height == pytest.approx(4 * g.pitch + 40)


def test_neighbours_are_orthogonal_only():
    cells = [(r, c) for r in range(3) for c in range(3)]
    assert sorted(neighbours((1, 1), cells)) == [(0, 1), (1, 0), (1, 2), (2, 1)]
    assert sorted(neighbours((0, 0), cells)) == [(0, 1), (1, 0)]


def test_cells_touching_only_diagonally_are_not_connected():
    assert connected([(0, 0), (0, 1), (1, 1)])
    assert not connected([(0, 0), (1, 1)])
    assert connected([])


def test_gap_squares_sit_where_two_or_more_cells_meet():
    assert gap_corners([(0, 0)]) == []
    # Two cells side by side share the corners above and below their common flat.
    assert sorted(gap_corners([(0, 0), (0, 1)])) == [(-1, 0), (0, 0)]
    full = [(r, c) for r in range(2) for c in range(2)]
    assert (0, 0) in gap_corners(full)


@settings(max_examples=25, deadline=None)
@given(
    size=st.floats(min_value=10, max_value=120),
    extra=st.floats(min_value=0, max_value=10),
)
def test_grid_octagons_never_overlap_and_keep_the_stated_play(size, extra):
    gap = octagon_side(size) + extra
    g = OctagonGrid(2, 2, size, gap)
    a, right, below, diag = g.cell(0, 0), g.cell(0, 1), g.cell(1, 0), g.cell(1, 1)
    for other in (right, below, diag):
        assert a.intersection(other).area < 1e-6 * size * size
    assert a.distance(right) == pytest.approx(g.play, abs=1e-6)
    assert a.distance(diag) == pytest.approx(gap, abs=1e-6)
    assert g.play == pytest.approx(extra / math.sqrt(2), abs=1e-9)
