"""The Exploding Dice grid topology and its millimetre layout."""

from __future__ import annotations

import pytest

from geometry.intersections import Entry, entries, grid_layout, quarter_turn, start_points, zone_of


def test_all_arrows_enter_every_line_from_both_ends():
    es = entries(4, "all")
    assert len(es) == 16
    for i in range(4):
        for side in "NESW":
            assert Entry(side, i) in es


@pytest.mark.parametrize("n", [2, 4, 6, 8])
def test_pinwheel_one_end_per_line_and_quarter_turn_invariant(n):
    es = entries(n, "pinwheel")
    assert len(es) == 2 * n
    rows = sorted(e.index for e in es if e.axis == "row")
    cols = sorted(e.index for e in es if e.axis == "col")
    assert rows == list(range(n)) and cols == list(range(n))
    assert {quarter_turn(e, n) for e in es} == set(es)


def test_quarter_turn_moves_cells_as_a_clockwise_rotation():
    # Entering row 0 from the west pushes towards (0, 3); a clockwise quarter turn sends
    # cell (r, c) to (c, n-1-r), so that becomes column 3 entered from the north.
    e = quarter_turn(Entry("W", 0), 4)
    assert e == Entry("N", 3)
    assert e.cells(4)[0] == (3, 3)


def test_entry_cells_run_from_far_border_back():
    assert Entry("W", 1).cells(4) == ((1, 3), (1, 2), (1, 1), (1, 0))
    assert Entry("E", 1).cells(4) == ((1, 0), (1, 1), (1, 2), (1, 3))
    assert Entry("N", 2).cells(4) == ((3, 2), (2, 2), (1, 2), (0, 2))
    assert Entry("S", 2).cells(4) == ((0, 2), (1, 2), (2, 2), (3, 2))


def test_zones_are_quadrants_and_starts_are_their_outer_corners():
    assert [zone_of(4, r, c) for r, c in start_points(4)] == [0, 1, 2, 3]
    assert zone_of(4, 1, 1) == 0 and zone_of(4, 1, 2) == 1
    assert zone_of(4, 2, 2) == 2 and zone_of(4, 2, 1) == 3


@pytest.mark.parametrize("die", [10, 12, 16])
def test_pitch_is_die_plus_clearance(die):
    g = grid_layout(4, die, 3.0)
    (x0, y0), (x1, _) = g.point(0, 0), g.point(0, 1)
    assert x1 - x0 == pytest.approx(die + 3.0)
    assert g.point(1, 0)[1] == pytest.approx(y0 - (die + 3.0))
