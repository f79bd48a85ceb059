"""The hexagon board's topology in axial coordinates, and its millimetre layout."""

from __future__ import annotations

import math

import pytest

from geometry import hexgrid


@pytest.mark.parametrize("radius", range(0, 9))
def test_board_holds_3r_r_plus_1_plus_1_cells_row_by_row(radius):
    cells = hexgrid.board(radius)
    assert len(cells) == hexgrid.cell_count(radius) == 3 * radius * (radius + 1) + 1
    assert len(set(cells)) == len(cells)
    assert list(cells) == sorted(cells, key=lambda c: (c[1], c[0]))  # r, then q
    assert all(hexgrid.length(c) <= radius for c in cells)


def test_radius_1_board_in_its_pinned_order():
    assert hexgrid.board(1) == ((0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1))


def test_directions_are_pinned_and_sum_to_nothing():
    assert hexgrid.DIRECTIONS == ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    for i, (dq, dr) in enumerate(hexgrid.DIRECTIONS):
        oq, or_ = hexgrid.DIRECTIONS[(i + 3) % 6]
        assert (dq + oq, dr + or_) == (0, 0)  # d_i and d_(i+3) are opposite


def test_neighbours_in_direction_order_and_clipped_to_the_board():
    assert hexgrid.neighbours((0, 0)) == hexgrid.DIRECTIONS
    # the corner (2, 0) of a radius-2 board keeps three neighbours
    assert hexgrid.neighbours((2, 0), 2) == ((2, -1), (1, 0), (1, 1))
    for cell in hexgrid.board(3):
        for n in hexgrid.neighbours(cell, 3):
            assert hexgrid.distance(cell, n) == 1


@pytest.mark.parametrize("k", range(0, 5))
def test_rings_hold_6k_cells_at_distance_k_each_next_to_the_one_before(k):
    ring = hexgrid.ring(k)
    assert len(ring) == (6 * k if k else 1)
    assert all(hexgrid.length(c) == k for c in ring)
    if k:
        assert ring[0] == (k, 0)
        for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
            assert hexgrid.distance(a, b) == 1
    assert sorted(c for r in hexgrid.rings(k) for c in r) == sorted(hexgrid.board(k))


def test_corners_and_start_spaces_follow_the_player_table():
    assert hexgrid.corners(3) == ((3, 0), (3, -3), (0, -3), (-3, 0), (-3, 3), (0, 3))
    assert hexgrid.start_spaces(3, 2) == ((2, 0), (-2, 0))
    assert hexgrid.start_spaces(3, 3) == ((2, 0), (0, -2), (-2, 2))
    assert hexgrid.start_spaces(3, 4) == ((2, 0), (2, -2), (-2, 0), (-2, 2))
    assert hexgrid.start_spaces(3, 5) == ((2, 0), (2, -2), (0, -2), (-2, 0), (-2, 2))
    assert len(set(hexgrid.start_spaces(2, 6))) == 6
    for players in range(2, 7):
        for cell, corner in zip(
            hexgrid.start_spaces(4, players),
            [hexgrid.corners(4)[c] for c in hexgrid.START_CORNERS[players]],
            strict=True,
        ):
            assert hexgrid.distance(cell, corner) == 1 and hexgrid.length(cell) == 3


def test_start_spaces_need_two_to_six_players_and_radius_two():
    with pytest.raises(ValueError):
        hexgrid.start_spaces(3, 7)
    with pytest.raises(ValueError):
        hexgrid.start_spaces(1, 2)


@pytest.mark.parametrize("radius", range(1, 9))
def test_start_colouring_isolates_every_tile(radius):
    for cell in hexgrid.board(radius):
        c = hexgrid.start_colour(cell)
        assert all(hexgrid.start_colour(n) != c for n in hexgrid.neighbours(cell))
    counts = hexgrid.colour_counts(radius)
    assert sum(counts) == hexgrid.cell_count(radius)
    assert max(counts) - min(counts) <= 2


def test_colour_counts_from_the_spec():
    assert hexgrid.colour_counts(3) == (13, 12, 12)
    assert hexgrid.colour_counts(4) == (19, 21, 21)


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_neighbouring_centres_are_one_pitch_apart_at_60_degree_steps(orientation):
    first = 0.0 if orientation == "pointy" else 30.0
    for i in range(6):
        x, y = hexgrid.centre(hexgrid.DIRECTIONS[i], 25.0, orientation)
        assert math.hypot(x, y) == pytest.approx(25.0)
        assert math.degrees(math.atan2(y, x)) % 360 == pytest.approx((first + 60 * i) % 360)
    assert hexgrid.centre((0, 0), 25.0, orientation) == (0.0, 0.0)


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_hexagons_of_neighbouring_spaces_tile_without_overlap(orientation):
    pitch = 20.0
    centre = hexgrid.hexagon(pitch, orientation)
    assert centre.area == pytest.approx(math.sqrt(3) / 2 * pitch**2)
    for d in hexgrid.DIRECTIONS:
        cx, cy = hexgrid.centre(d, pitch, orientation)
        other = hexgrid.hexagon(pitch, orientation, cx, cy)
        assert centre.intersection(other).area == pytest.approx(0.0, abs=1e-6)
        assert centre.distance(other) == pytest.approx(0.0, abs=1e-9)  # they share a side


def test_hex_corners_point_the_right_way():
    pointy = hexgrid.hex_corners(10.0, "pointy")
    flat = hexgrid.hex_corners(10.0, "flat")
    r = 10.0 / math.sqrt(3)
    assert max(y for _, y in pointy) == pytest.approx(r)  # a corner on top
    assert max(x for x, _ in flat) == pytest.approx(r)  # a corner on the right
    assert max(y for _, y in flat) == pytest.approx(5.0)  # a flat side on top
    with pytest.raises(ValueError):
        hexgrid.hex_corners(0.0)
    with pytest.raises(ValueError):
        hexgrid.centre((0, 0), 10.0, "sideways")  # type: ignore[arg-type]
