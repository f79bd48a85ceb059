"""Desert Home's value of a position (`value.py`), which grades a search's cut-off
playouts (`State.win_chances`), on a hand-worked position: the distances, the goal's cap
and the squashed difference worked out on paper, not read back from the code."""

from __future__ import annotations

import pytest
from test_dh_rules import R, cell, in_refuge, position

from pnp.games.desert_home.rules import GUARDED
from pnp.games.desert_home.rules.value import NEAR, SCALE, THIRST_KEEP, cutoff_reward, value

# Row 1 (seat 0's refuge row) has safe tiles in columns 1-4; the rest of the path is bare.
# Three green figures stand 2 steps from seat 0's refuge entry field (which counts 1), three
# more 4 steps away. Seat 1 reaches them from its entry field on row 3 over bare slots (3
# steps each) up column 1: (3,1) 4, (2,1) 7, (1,1) 8, then along row 1's tiles (1,3) 10.
BOARD = """
#  _    _  _    _  .
.  .G3  .  .G3  .  .
#  _    _  _    _  .
.  _    _  _    _  .
#  _    _  _    _  .
"""


def squash(a: float, b: float) -> float:
    x = (a - b) / SCALE
    return 0.5 + 0.5 * x / (1 + abs(x))


def test_a_seats_value_counts_the_nearest_pieces_first_up_to_the_goal():
    """Five greens count toward a refuge (the goal), the nearest three first: seat 0 gets
    3 x 0.8^2 + 2 x 0.8^4, seat 1 (the same pieces, farther) 3 x 0.8^8 + 2 x 0.8^10."""
    state = position(BOARD)
    assert NEAR == 0.8
    near, far = 3 * 0.8**2 + 2 * 0.8**4, 3 * 0.8**8 + 2 * 0.8**10
    assert value(state, 0) == pytest.approx(near) == pytest.approx(2.7392)
    assert value(state, 1) == pytest.approx(far) == pytest.approx(0.718065, abs=1e-6)
    assert cutoff_reward(state) == pytest.approx([0.70126, 0.29874], abs=1e-5)
    assert sum(cutoff_reward(state)) == pytest.approx(1.0)


def test_figures_home_count_whole_and_level_values_share_the_win():
    """Two reds already in seat 1's refuge count 2 there: the seats come within 0.02 of
    each other, and the cut-off's reward within 0.004 of an even split."""
    state = position(BOARD)
    in_refuge(state, 1, R, 2)
    assert value(state, 1) == pytest.approx(2 + 3 * 0.8**8 + 2 * 0.8**10)
    assert cutoff_reward(state) == pytest.approx(
        [squash(2.7392, 2.718065), 1 - squash(2.7392, 2.718065)], abs=1e-6
    )
    assert cutoff_reward(state)[0] == pytest.approx(0.5035, abs=1e-4)
    empty = position()
    assert value(empty, 0) == value(empty, 1) == 0
    assert cutoff_reward(empty) == [0.5, 0.5]


# Three greens on a black field 3 steps from seat 0's refuge, two yellows on a face-up
# thirst field 5 steps away.
THIRSTY = """
#  _  _    _  _    .
.  .  kG3  .  tY2  .
#  _  _    _  _    .
.  _  _    _  _    .
#  _  _    _  _    .
"""


def test_a_piece_thirst_may_kill_keeps_a_share_by_the_turns_left_to_save_it():
    """Seat 0's turn, the black field killing at the end of the next round: seat 0 has two
    turns to take the greens off (0.8 of their worth); the yellows' field turns black at
    the next round's start and kills a round later: three turns (0.9). On seat 1's turn
    with the black field killing at this round's end, only seat 1's turn is left: the
    greens are worth nothing to seat 0, and the yellows 0.8 (two turns of seat 0's). A
    protection card makes the yellows whole."""
    assert THIRST_KEEP == (0.0, 0.5, 0.8, 0.9)
    greens, yellows = 3 * 0.8**3, 2 * 0.8**5
    state = position(THIRSTY)
    state.deadline[cell(1, 2)] = state.round + 1
    assert value(state, 0) == pytest.approx(0.8 * greens + 0.9 * yellows)
    state.seat, state.deadline[cell(1, 2)] = 1, state.round
    assert value(state, 0) == pytest.approx(0.8 * yellows)
    state.tile[cell(1, 4)] = GUARDED
    assert value(state, 0) == pytest.approx(yellows)
