"""Desert Home's playout (`State.playout`): `bots.PlayoutBot`'s play from any position.

The tree search (`pnp.play.mcts`) plays its rollouts from the position it reached, whatever the
phase of the turn: in the compiled kernel, or on the readable rules without it. Both draw
from one generator seeded by one draw of the search's, so they must play the very same
game: checked from positions in every phase of a turn, over whole turns, many turns and to
the game's end, every field of the position compared. At hand-made positions near the end
the result is worked out by hand. Every position a playout leaves is one the readable rules
play on, with every piece kept.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable

import pytest
from kernels import with_hook, without_compiler
from test_dh_properties import check_invariants

from pnp.games.desert_home import engine
from pnp.games.desert_home.fast import kernel as compiled
from pnp.games.desert_home.params import DesertHomeParams
from pnp.games.desert_home.rules import (
    MOVE,
    P_INFLUX,
    P_INFLUX_COLOUR,
    P_NUMBER,
    P_PLACE,
    P_REROLL,
    P_ROAD,
    P_ROAD_TILE,
    P_ROLL,
    P_SPEND,
    P_SWAP,
    End,
)
from pnp.games.desert_home.rules.bots import PLAYOUT_RANDOM, play_out
from pnp.games.desert_home.rules.goal import refuge_values
from pnp.games.desert_home.rules.model import PlayModel
from pnp.games.desert_home.rules.state import State, new_state
from pnp.play import fastpath, mcts
from pnp.play.chance import below
from pnp.play.mcts import MctsBot
from pnp.play.state import CHANCE

pytestmark = pytest.mark.skipif(
    compiled._kernel is None and not os.environ.get("CI"),
    reason="pnp was installed without a C compiler: the kernel was not built",
)

MODEL = engine.prepare(DesertHomeParams(), 2)


def step(state: State, rng: random.Random) -> None:
    """One step of random play on the readable rules."""
    chance = state.current_player() == CHANCE
    state.apply(state.sample_chance(rng) if chance else state.random_action(rng))


def loop_playout(state: State, rng: random.Random, stop: int) -> None:
    """The readable rules' playout (`State.playout` without the kernel)."""
    seed = rng.getrandbits(64)
    if state.ended is None and state.turns < stop:
        play_out(state, random.Random(seed), stop)


def kernel_playout(state: State, rng: random.Random, stop: int) -> None:
    """The kernel's playout, attached through `pnp.play.fastpath` (`compiled.playout`)."""
    assert compiled.playout(state, rng, stop)


SCRATCH = ("memo", "legal", "road_left", "road_last", "thrown")
"""What a position keeps that no later step reads where the kernel leaves it: the cached
listings, the road tiles still due and the last one laid (read only while a road is laid,
set when it begins) and the dice last thrown (read only while throwing, set by each
throw)."""


def position_of(state: State) -> tuple:
    """Everything a position holds that play reads."""
    return tuple(getattr(state, name) for name in State.__slots__ if name not in SCRATCH)


def same_game(state: State, stop: int, seed: int) -> State:
    """The kernel's playout and the readable one from `state`, seeded alike: the same
    position after, field by field, and the same draws taken."""
    fast, slow = state.clone(), state.clone()
    rf, rs = random.Random(seed), random.Random(seed)
    kernel_playout(fast, rf, stop)
    loop_playout(slow, rs, stop)
    assert position_of(fast) == position_of(slow), (state.phase, state.turns, stop, seed)
    assert rf.getstate() == rs.getstate()
    return fast


def positions(model: PlayModel, seeds: range, every: int = 5) -> list[State]:
    """Every `every`-th position of random games on the readable rules."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        state = new_state(model, 2, rng)
        n = 0
        while state.ended is None:
            if n % every == 0:
                out.append(state.clone())
            step(state, rng)
            n += 1
    return out


def first_in(model: PlayModel, want: Callable[[State], bool], seeds: range) -> State:
    """The first position of random games (seed by seed) that `want` accepts."""
    for seed in seeds:
        rng = random.Random(seed)
        state = new_state(model, 2, rng)
        while state.ended is None:
            if want(state):
                return state
            step(state, rng)
    raise AssertionError("no such position in these games")


@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_a_playout_leaves_a_position_the_readable_rules_play_on():
    """From every phase of a turn, a short kernel playout and a whole one: every figure and
    tent kept, a begun turn at a cut-off, a finished game's record whole; the rules play
    on. (The readable playout is the kernel's, draw for draw: tests above.)"""
    rng = random.Random(1)
    seen = set()
    for state in positions(MODEL, range(3), every=9):
        seen.add(state.phase)
        short = state.clone()
        kernel_playout(short, rng, state.turns + 2)
        check_invariants(short)
        if short.ended is None:
            assert short.turns == state.turns + 2 and short.phase == P_ROLL
            assert short.rolling == list(range(6)) and short.thrown == 63
            assert short.round == (short.turns + 2) // 2 and short.points == 0
        assert len(short.leaders) == short.turns
        assert short.decisions >= state.decisions and short.steps > state.steps
        for _ in range(40):  # the readable rules take the position over
            if short.ended is None:
                step(short, rng)
        check_invariants(short)
        whole = state.clone()
        kernel_playout(whole, rng, 10**9)
        check_invariants(whole)
        assert whole.ended is not None and whole.legal_actions() == []
        record = whole.record()
        assert record.turns == len(record.leaders) == whole.turns
        if whole.ended == End.REFUGE:
            assert record.winners and all(
                refuge_values(whole, s) for s in record.winners
            )  # the winners' refuges hold pieces
        else:
            assert record.winners == ()
    assert seen >= {P_ROLL, P_REROLL, P_INFLUX, P_NUMBER, P_ROAD, P_SPEND, P_PLACE}


def test_a_playout_takes_one_draw_and_is_the_same_for_a_seed():
    state = positions(MODEL, range(1), every=50)[3]
    a, b = state.clone(), state.clone()
    ra, rb = random.Random(4), random.Random(4)
    a.playout(ra, state.turns + 30)
    b.playout(rb, state.turns + 30)
    assert a.record() == b.record() and a.tile == b.tile and a.deck == b.deck
    twin = random.Random(4)
    twin.getrandbits(64)
    assert ra.getstate() == twin.getstate()
    stopped = state.clone()  # already at the cut-off: nothing is played, one draw all the same
    stopped.playout(ra, state.turns)
    assert stopped.record() == state.record() and stopped.phase == state.phase
    twin.getrandbits(64)
    assert ra.getstate() == twin.getstate()


def test_the_kernels_shuffle_is_a_fisher_yates_on_a_seeded_generator():
    """`resample` shuffles in the kernel: as `below` on random.Random(seed) would."""
    for seed in (0, 7, 2**32 + 5, 2**64 - 1):
        items = list(compiled._kernel.shuffle({"items": range(40), "seed": seed}))
        rng, expected = random.Random(seed), list(range(40))
        for i in range(39, 0, -1):
            j = below(rng, i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert items == expected
    with pytest.raises(ValueError, match="shuffle field seed: missing"):
        compiled._kernel.shuffle({"items": [1, 2]})


def near_a_win(model: PlayModel, points: int, entries: int) -> State:
    """Seat 0 spends `points` with one colour usable; one figure of it on the refuge's
    entry field completes the refuge. `entries` figures of it wait in the camp (each can
    enter any free camp entry field); nothing else can be done: no deck, no other piece."""
    state = new_state(model, 2, random.Random(0))
    c = next(c for c in range(len(model.colours)) if c != model.blue)
    goal = model.goal
    state.refuge_figs[0] = [goal] * len(model.colours)
    state.refuge_figs[0][c] = goal - 1  # one short: blue's own goal leaves nothing spare
    state.camp_figs = [0] * len(model.colours)
    state.camp_tents = [0] * len(model.colours)
    state.camp_figs[c] = entries
    entry = model.refuge_entries[0]
    state.colour[entry], state.figs[entry] = c, 1
    state.deck = []
    state.phase, state.rolling, state.points = P_SPEND, [], points
    state.usable = [k == c for k in range(len(model.colours))]
    state.legal = None
    return state


def test_the_kernel_refuses_a_position_it_cannot_hold():
    """A position goes to the kernel as named fields (`compiled.position`): one missing,
    unknown or out of range, or one that does not fit the board, is a clear error."""
    state = first_in(MODEL, lambda s: s.phase == P_SPEND, range(5))
    board, packed = compiled.kernel_board(MODEL), compiled.position(state)
    assert compiled._kernel.playout(board, packed, state.turns + 2, 1)["turns"] >= state.turns + 1
    for field, bad in (("phase", P_ROLL + 1), ("seat", 2), ("dice", [7] * 6), ("scoring", 3)):
        with pytest.raises(ValueError, match=f"position field {field}: "):
            compiled._kernel.playout(board, {**packed, field: bad}, state.turns + 2, 1)
    no_back = {k: v for k, v in packed.items() if k != "back_phase"}
    with pytest.raises(ValueError, match="position field back_phase: missing"):
        compiled._kernel.playout(board, no_back, state.turns + 2, 1)
    with pytest.raises(ValueError, match="position field hand: not one the kernel knows"):
        compiled._kernel.playout(board, {**packed, "hand": 1}, state.turns + 2, 1)
    with pytest.raises(ValueError, match="one number per cell"):
        compiled._kernel.playout(board, {**packed, "figs": state.figs[:-1]}, state.turns + 2, 1)
    with pytest.raises(ValueError, match="safe or thirst"):
        compiled._kernel.playout(board, {**packed, "deck": [0]}, state.turns + 2, 1)
    words, search = (
        random.Random(1).getstate()[1],
        fastpath.SearchSettings(5, 10, 1.4, False).fields(),
    )
    at_throw = {**packed, "phase": P_ROLL, "rolling": [0]}
    with pytest.raises(ValueError, match="no decision"):
        compiled._kernel.tree_search(board, at_throw, search, words)


@pytest.mark.parametrize("implementation", ["kernel", "readable"])
def test_a_hand_worked_win_ends_every_playout(implementation):
    """One legal action, the winning move: seat 0 wins in this very turn, every time, on
    the kernel and on the readable rules."""
    state = near_a_win(MODEL, points=1, entries=0)
    entry = MODEL.refuge_entries[0]
    assert state.legal_actions() == [(MOVE, entry, MODEL.cells, 0, 1, 1, 0)]
    for seed in range(20):
        played = state.clone()
        with fastpath.using(implementation):
            mcts.playout(played, random.Random(seed), state.turns + 10)
        assert played.ended == End.REFUGE and played.winners == (0,)
        assert played.turns == state.turns + 1 and len(played.leaders) == 1
        assert refuge_values(played, 0) == [MODEL.goal] * len(MODEL.colours)
        assert played.decisions == state.decisions + 1


@pytest.mark.parametrize("playout", [kernel_playout, loop_playout])
def test_a_hand_worked_chance_of_winning(playout):
    """One point and 1 + k choices (the winning move, or a figure into any of the k free
    camp entry fields). Greedy takes the winning move; a playout's random choice (one time
    in 100 / PLAYOUT_RANDOM) hits it one time in 1 + k. So the turn wins with chance
    1 - e + e / (1 + k), e = PLAYOUT_RANDOM / 100, else it ends and the cut-off comes. Both
    ways of playing must show it within 4.5 standard deviations."""
    state = near_a_win(MODEL, points=1, entries=1)
    k = len(MODEL.camp_cells)
    assert len(state.legal_actions()) == 1 + k
    n, rng = 3000, random.Random(11)
    wins = 0
    for _ in range(n):
        played = state.clone()
        playout(played, rng, state.turns + 1)
        wins += played.ended == End.REFUGE
        assert played.turns == state.turns + 1
    e = PLAYOUT_RANDOM / 100
    p = 1 - e + e / (1 + k)
    assert abs(wins - n * p) < 4.5 * math.sqrt(n * p * (1 - p)), (wins, n * p)


PHASES = {
    "mid-throw": lambda s: s.turns > 20 and s.phase == P_ROLL and 0 < len(s.rolling) < 6,
    "re-roll": lambda s: s.turns > 20 and s.phase == P_REROLL,
    "influx colour": lambda s: s.turns > 20 and s.phase == P_INFLUX_COLOUR,
    "influx": lambda s: s.turns > 20 and s.phase == P_INFLUX,
    "number": lambda s: s.turns > 20 and s.phase == P_NUMBER,
    "road": lambda s: s.turns > 20 and s.phase == P_ROAD,
    "road tile": lambda s: s.phase == P_ROAD_TILE and s.road_left > 1,  # early: path to lay
    "spend": lambda s: s.turns > 20 and s.phase == P_SPEND and s.points >= 3,
    "place": lambda s: s.phase == P_PLACE,
}
"""Positions of each phase of a turn: mid-game where the phase comes then too."""


@pytest.mark.parametrize("phase", sorted(PHASES))
def test_the_kernel_plays_the_readable_playout_from_every_phase_of_a_turn(phase):
    """The rest of the turn, two turns, and ten (the resumption itself, then whole turns)."""
    state = first_in(MODEL, PHASES[phase], range(40))
    for seed in range(3):
        for span in (0, 2, 10):
            same_game(state, state.turns + span, seed)


@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_the_kernel_plays_the_readable_playout_through_the_shortage_swaps():
    """The shortage's swaps (rare: a kit with few figures reaches them)."""
    model = engine.prepare(DesertHomeParams(figures_per_colour=4, tents_per_colour=1), 2)
    state = first_in(model, lambda s: s.phase == P_SWAP, range(200))
    assert state.swaps
    for seed in range(3):
        same_game(state, state.turns + 4, seed)


@pytest.mark.slow
@pytest.mark.parametrize(
    "params",
    [
        DesertHomeParams(),
        DesertHomeParams(groups="whole"),
        DesertHomeParams(rows=3, refuge_rows=(0, 2)),
    ],
    ids=["split", "whole", "three-rows"],
)
def test_the_kernel_plays_the_readable_playout_along_whole_games(params):
    """From positions all along random games, six turns on and to the end of the game (or
    its round limit), on both readings of the groups rule and on a smaller board."""
    model = engine.prepare(params, 2)
    ends = set()
    for i, state in enumerate(positions(model, range(2), every=150)):
        ends.add(same_game(state, 10**9, i).ended)
        same_game(state, state.turns + 6, i)
    assert End.REFUGE in ends


def test_the_search_plays_its_rollouts_in_the_kernel():
    """`pnp.play.mcts`'s readable search finds the kernel's `playout` and uses it: no rollout
    runs on the readable rules (the compiled search plays them in the kernel:
    tests/test_dh_tree.py)."""
    state = first_in(MODEL, lambda s: s.phase == P_SPEND and len(s.legal_actions()) > 3, range(5))
    calls = []

    def counted(position: State, rng: random.Random, stop: int) -> bool:
        calls.append(stop)
        return compiled.playout(position, rng, stop)

    with with_hook(State, playout=counted):
        visits = MctsBot(50, compiled=False).search(state, random.Random(1))
    assert len(calls) == 50 and sum(visits.values()) == 50
    assert visits == MctsBot(50, compiled=False).search(state, random.Random(1))


def test_without_the_kernel_the_search_plays_the_readable_playout():
    """The search's playout on an install without the kernel: the readable loop, the same
    game; and the readable shuffle of the hidden deck is the kernel's, draw for draw."""
    state = first_in(MODEL, PHASES["spend"], range(40))
    fast = state.clone()
    mcts.playout(fast, random.Random(5), state.turns + 4)
    for seed in range(20):
        a, b = state.clone(), state.clone()
        ra, rb = random.Random(seed), random.Random(seed)
        assert compiled.resample(a, ra)
        b.resample(rb)
        assert a.deck == b.deck and ra.getstate() == rb.getstate()
    slow = state.clone()
    with without_compiler(State):
        mcts.playout(slow, random.Random(5), state.turns + 4)
    assert position_of(fast) == position_of(slow)
