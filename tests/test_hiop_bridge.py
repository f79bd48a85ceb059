"""Home in One Piece's bridges: dough passes over a wall of the other player's dough.

A built position: a blob of seat 0 in the board's bottom-left corner, fenced in by an arc
of seat 1's blobs whose gaps (and the gaps to the board's edges) are narrower than the blob
with the touching distance on both sides, so a rigid disc cannot get through by any path.
Rigidly no touch sets it down past the arc, whatever its target; with bridges it passes,
the greedy player takes it over, and the decision lists that step.
"""

from __future__ import annotations

import math
import random

import pytest
from test_hiop_kernel import needs_kernel, same_game

from pnp.games.home_in_one_piece import engine
from pnp.games.home_in_one_piece.params import HomeInOnePieceParams
from pnp.games.home_in_one_piece.rules import begin_turn, greedy, shift, touches
from pnp.games.home_in_one_piece.rules.blobs import Blob
from pnp.games.home_in_one_piece.rules.model import APART, PlayModel, play_model
from pnp.games.home_in_one_piece.rules.state import State
from pnp.games.home_in_one_piece.standoff import longest_run
from pnp.runtime.errors import PnpError

ARC = 120.0  # mm from the corner to the fence's blobs' centres
FENCE = [
    (ARC * math.cos(math.radians(a)), ARC * math.sin(math.radians(a)))
    for a in (78.75, 56.25, 33.75, 11.25)
]


def pocket(model: PlayModel) -> State:
    """Seat 0's one blob at (50, 50) inside the fence, its turn, a roll of one blob."""
    r = model.radii[1]
    state = State(
        model=model,
        blobs=[[Blob(50, 50, 1, r, 50, 50)], [Blob(x, y, 1, r, x, y) for x, y in FENCE]],
    )
    begin_turn(state, 1)
    return state


def outside(state: State) -> bool:
    """Seat 0's blob lies past the fence: its centre beyond the fence's centres (the
    rules set it down clear of their dough)."""
    blob = state.blobs[0][0]
    return math.hypot(blob.x, blob.y) > ARC


def test_the_fence_is_closed_to_a_rigid_disc():
    """Every gap, between the fence's blobs and to the board's edges, is narrower than the
    blob plus the touching distance each side: no path of the disc goes through."""
    r = play_model(HomeInOnePieceParams()).radii[1]
    need = 2 * r + 2 * APART
    gaps = [math.dist(a, b) - 2 * r for a, b in zip(FENCE, FENCE[1:], strict=False)]
    gaps += [FENCE[0][0] - r, FENCE[-1][1] - r]  # to the left and bottom edges
    assert max(gaps) < need
    assert min(gaps) > APART  # the fence's blobs lie apart, as set-down dough does


def targets() -> list[tuple[float, float]]:
    return [(x, y) for x in range(0, 700, 20) for y in range(0, 420, 20)]


def test_rigid_dough_cannot_pass_the_fence():
    model = play_model(HomeInOnePieceParams(bridge_span=0))
    for target in targets():
        state = pocket(model)
        shift(state, state.own[0], *target)
        assert not outside(state), target
        assert state.counters["bridges"] == 0
    state = pocket(model)
    greedy.take_turn(state, random.Random(1))
    assert not outside(state)
    for option in touches.options(pocket(model)):
        state = pocket(model)
        state.apply(option)
        assert not outside(state)


def test_a_bridge_passes_the_fence():
    model = play_model(HomeInOnePieceParams())
    assert model.bridge > 2 * (model.radii[1] + APART)  # a start blob can be bridged
    state = pocket(model)
    shift(state, state.own[0], 200, 200)
    assert outside(state)
    assert state.counters["bridges"] == 1
    assert not state.turn_over  # set down clear: the turn goes on
    state = pocket(model)
    greedy.take_turn(state, random.Random(1))
    assert outside(state)  # the greedy player heads for home over the fence
    listed = touches.options(pocket(model))
    passing = []
    for option in listed:
        state = pocket(model)
        state.apply(option)
        passing.append(outside(state))
    assert any(passing)


def over_a_fence_blob() -> tuple[float, float]:
    """A target 150 mm from the pocket blob straight over the middle of a fence blob."""
    fx, fy = FENCE[1]
    d = math.hypot(fx - 50, fy - 50)
    return 50 + 150 * (fx - 50) / d, 50 + 150 * (fy - 50) / d


def test_a_bridge_wider_than_the_bridge_span_does_not_stand():
    """Straight over a fence blob, the crossing is its width and the touching distance each
    side: a bridge span 1 mm short of it leaves the rigid rule (blocked on the blob), one
    as long passes."""
    r = play_model(HomeInOnePieceParams()).radii[1]
    width = 2 * (r + APART)
    landed = []
    for span in (width - 1, width):
        state = pocket(play_model(HomeInOnePieceParams(bridge_span=span)))
        shift(state, state.own[0], *over_a_fence_blob())
        landed.append((outside(state), state.counters["blocked"], state.counters["bridges"]))
    assert landed == [(False, 1, 0), (True, 0, 1)]


def test_the_rigid_reach_is_unchanged_where_nothing_is_bridged():
    """Away from the other player's dough a bridge adds nothing: the same landing."""
    spots = []
    for span in (0, 80, 200):
        model = play_model(HomeInOnePieceParams(bridge_span=span))
        state = pocket(model)
        state.blobs[1] = [Blob(600, 300, 1, model.radii[1], 600, 300)]
        shift(state, state.own[0], 150, 50)
        spots.append((state.own[0].x, state.own[0].y))
    assert spots[0] == spots[1] == spots[2]
    assert spots[0][0] - 50 == pytest.approx(0.9 * 2 * model.radii[1])


@pytest.mark.parametrize("span", [-1, 501])
def test_a_bridge_span_out_of_range_is_one_clear_error(span):
    with pytest.raises(PnpError, match="bridge_span"):
        play_model(HomeInOnePieceParams(bridge_span=span))


@needs_kernel
def test_the_kernel_bridges_as_the_readable_rules_do():
    """A greedy game, the same bit for bit in the kernel, in which dough was bridged."""
    model = engine.prepare(HomeInOnePieceParams(), 2)
    assert same_game(model, "greedy", "bridges:1").counters["bridges"] > 0


def test_a_stand_off_is_a_run_of_passes_with_dice_in_hand_by_both_seats():
    """`standoff.longest_run`, the measure behind the docs' 100-game check: rolls of no
    blob neither break nor lengthen a run; one seat passing alone is no stand-off."""
    passing = [(t % 2, 2, False) for t in range(6)]
    assert longest_run(passing) == 6
    assert longest_run([(0, 0, False), *passing[:3], (1, 0, False), *passing[3:]]) == 6
    assert longest_run(passing[:3] + [(1, 1, True)] + passing[3:]) == 3
    assert longest_run([(0, 2, False), (1, 0, False)] * 6) == 0  # seat 1 rolled nothing
    assert longest_run([]) == 0
