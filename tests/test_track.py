"""The Parcheesi cross (geometry.track): the graph the engine plays on is the board printed."""

from __future__ import annotations

import math

import pytest
from shapely.geometry import Point, Polygon
from shapely.ops import unary_union

from geometry import track

SIZE = 500.0


def test_track_numbering_arms_and_safe_spaces_follow_the_pinned_rules():
    assert track.TRACK_SPACES == 68 and track.PER_ARM == 17
    assert [track.entry_space(k) for k in range(4)] == [5, 22, 39, 56]
    assert [track.home_entry_space(k) for k in range(4)] == [0, 17, 34, 51]
    assert track.SAFE_SPACES == (0, 5, 12, 17, 22, 29, 34, 39, 46, 51, 56, 63)
    assert all(track.is_safe(track.entry_space(k)) for k in range(4))
    assert not track.is_safe(track.strip_node(0, 0))


def test_each_path_runs_63_track_steps_then_its_own_strip_then_home():
    for k in range(4):
        path = track.path(k)
        assert len(path) == 72  # progress 0 (entry) .. 71 (home)
        assert path[0] == track.entry_space(k)
        assert path[63] == track.home_entry_space(k)
        assert path[64:71] == tuple(track.strip_node(k, j) for j in range(7))
        assert path[71] == track.HOME
        assert all(path[q + 1] == (path[q] + 1) % 68 for q in range(63))


def test_a_pawn_never_walks_another_colours_strip_or_leaves_home():
    with pytest.raises(ValueError):
        track.next_node(track.strip_node(1, 0), 0)
    with pytest.raises(ValueError):
        track.next_node(track.HOME, 0)
    with pytest.raises(ValueError):
        track.next_node(track.nest_node(2), 0)
    assert track.next_node(track.nest_node(2), 2) == track.entry_space(2)
    assert track.next_node(17, 0) == 18  # colour 0 passes colour 1's home entry
    assert track.next_node(17, 1) == track.strip_node(1, 0)


def test_printed_space_i_is_engine_space_i_and_spaces_tile_the_board_with_home_and_nests():
    sp = track.spaces(SIZE)
    assert [s.node for s in sp] == list(range(track.HOME))
    assert [s.kind for s in sp[:68]] == ["track"] * 68
    assert all(s.kind == "strip" for s in sp[68:])
    pieces = [s.polygon for s in sp] + [track.home_area(SIZE)]
    pieces += [track.nest(SIZE, k) for k in range(4)]
    assert sum(p.area for p in pieces) == pytest.approx(SIZE * SIZE)
    assert unary_union(pieces).area == pytest.approx(SIZE * SIZE)  # no overlap, no gap
    for s in sp:
        assert s.polygon.centroid.distance(Point(s.centre)) < 1e-6


def test_consecutive_spaces_touch_except_across_each_inner_corner():
    sp = track.spaces(SIZE)
    for i in range(68):
        a, b = sp[i].polygon, sp[(i + 1) % 68].polygon
        if i % 17 == 8:  # 17k + 8 -> 17k + 9 crosses the corner diagonally: they meet at a point
            assert a.intersection(b).length == 0 and a.distance(b) < 1e-6
        else:
            assert a.intersection(b).length > 10  # a shared edge
    for k in range(4):
        strip = [sp[track.strip_node(k, j)].polygon for j in range(7)]
        assert sp[track.home_entry_space(k)].polygon.intersection(strip[0]).length > 10
        assert strip[-1].intersection(track.home_triangle(SIZE, k)).length > 10


def test_travel_is_counter_clockwise_seen_from_above():
    centres = [s.centre for s in track.spaces(SIZE)[:68]]
    signed = sum(
        x0 * y1 - x1 * y0
        for (x0, y0), (x1, y1) in zip(centres, centres[1:] + centres[:1], strict=True)
    )
    assert signed > 0  # y up: a positive signed area runs counter-clockwise
    sp = track.spaces(SIZE)
    for s in sp[:68]:  # a space's travel angle points at the next space, but where it turns
        if s.node % 17 not in (8, 16):  # 17k + 8: the inner corner; 17k + 16: before an end
            nxt = sp[(s.node + 1) % 68].centre
            heading = math.degrees(math.atan2(nxt[1] - s.centre[1], nxt[0] - s.centre[0])) % 360
            assert heading == pytest.approx(s.angle)


def test_each_nest_is_a_corner_beside_its_colours_entry_and_on_its_arm_side():
    sp = track.spaces(SIZE)
    for k in range(4):
        nest = track.nest(SIZE, k)
        entry = sp[track.entry_space(k)].polygon
        assert nest.distance(entry) < 1e-6  # the entry space borders the nest
        assert sp[track.entry_space(k)].colour == k
        assert nest.area == pytest.approx((track.layout(SIZE).arm) ** 2)
        for x, y in track.nest_slots(SIZE, k):
            assert nest.contains(Point(x, y))
    # colour 0 plays from the south edge: its nest is the south-east corner, on its right
    assert track.nest(SIZE, 0).bounds[0] > SIZE / 2 and track.nest(SIZE, 0).bounds[1] == 0


def test_seats_go_round_clockwise_while_pawns_travel_counter_clockwise():
    def angle(k):
        c = track.nest(SIZE, k).centroid
        return math.atan2(c.y - SIZE / 2, c.x - SIZE / 2)

    turn_order = [0, 3, 2, 1]  # decision 1, four players
    steps = [
        (angle(b) - angle(a)) % (2 * math.pi)
        for a, b in zip(turn_order, turn_order[1:] + turn_order[:1], strict=True)
    ]
    assert all(s == pytest.approx(1.5 * math.pi) for s in steps)  # a quarter turn clockwise


def test_a_16_mm_pawn_fits_the_default_board_two_to_a_space():
    short, long = track.space_dimensions(SIZE)
    assert track.smallest_space(SIZE) == short >= 16
    assert long >= 32
    for s in track.spaces(SIZE):
        inner = s.polygon.buffer(-8)  # a 16 mm disc fits wherever the centre can go
        assert not inner.is_empty
    assert track.smallest_space(300) < 16


def test_arrows_mark_every_turn_of_the_track():
    arrows = track.arrows(SIZE)
    assert sorted(a.kind for a in arrows) == ["corner"] * 4 + ["end"] * 4 + ["strip"] * 4
    sp = track.spaces(SIZE)
    for a in arrows:
        inside = [s for s in sp if s.polygon.buffer(1e-6).contains(Point(a.x, a.y))]
        assert inside or a.kind == "corner"
        if a.kind == "strip":
            assert sp[track.strip_node(a.colour, 0)].polygon.distance(Point(a.x, a.y)) < 1e-6


def test_layout_scales_with_the_board():
    big, small = track.layout(500), track.layout(250)
    assert big.step == pytest.approx(2 * small.step)
    assert isinstance(track.home_area(SIZE), Polygon)
    with pytest.raises(ValueError):
        track.layout(0)
