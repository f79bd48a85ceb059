"""Desert Home's compiled playout (`State.playout`): random play from any position.

The tree search (`pnp.mcts`) plays its rollouts in the kernel from the position it reached,
whatever the phase of the turn. The kernel does not take the readable rules' draws (one
draw of the search's generator seeds it), so it is checked by law: from positions in every
phase of a turn, many kernel playouts and many loops of `sample_chance`/`random_action`
give the same distributions (the end, the winner, the counters, the supply), within what
chance allows; at hand-made positions near the end the result is worked out by hand. Every
position a playout leaves is one the readable rules play on, with every piece kept.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable

import pytest
from test_dh_properties import check_invariants

from pnp.chance import below
from pnp.games.desert_home import compiled, engine
from pnp.games.desert_home.goal import refuge_values
from pnp.games.desert_home.model import PlayModel
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
from pnp.games.desert_home.state import State, new_state
from pnp.mcts import MctsBot
from pnp.state import CHANCE

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
    """The readable rules' random play: what the kernel must follow in law."""
    while state.ended is None and state.turns < stop:
        step(state, rng)


def kernel_playout(state: State, rng: random.Random, stop: int) -> None:
    state.playout(rng, stop)


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


def test_a_playout_leaves_a_position_the_readable_rules_play_on():
    """From every phase of a turn, a short playout and a whole one: every figure and tent
    kept, a begun turn at a cut-off, a finished game's record whole; the rules play on."""
    rng = random.Random(1)
    seen = set()
    for state in positions(MODEL, range(3), every=9):
        seen.add(state.phase)
        short = state.clone()
        short.playout(rng, state.turns + 2)
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
        whole.playout(rng, 10**9)
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
        items = list(range(40))
        compiled._kernel.shuffle(items, seed)
        rng, expected = random.Random(seed), list(range(40))
        for i in range(39, 0, -1):
            j = below(rng, i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert items == expected


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


def test_a_hand_worked_win_ends_every_playout():
    """One legal action, the winning move: seat 0 wins in this very turn, every time."""
    state = near_a_win(MODEL, points=1, entries=0)
    entry = MODEL.refuge_entries[0]
    assert state.legal_actions() == [(MOVE, entry, MODEL.cells, 0, 1, 1, 0)]
    for seed in range(20):
        played = state.clone()
        played.playout(random.Random(seed), state.turns + 10)
        assert played.ended == End.REFUGE and played.winners == (0,)
        assert played.turns == state.turns + 1 and len(played.leaders) == 1
        assert refuge_values(played, 0) == [MODEL.goal] * len(MODEL.colours)
        assert played.decisions == state.decisions + 1


@pytest.mark.parametrize("playout", [kernel_playout, loop_playout])
def test_a_hand_worked_chance_of_winning(playout):
    """One point and 1 + k choices (the winning move, or a figure into any of the k free
    camp entry fields): the turn wins with chance 1 / (1 + k), else it ends and the cut-off
    comes. Both ways of playing must show it within 4.5 standard deviations."""
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
    p = 1 / (1 + k)
    assert abs(wins - n * p) < 4.5 * math.sqrt(n * p * (1 - p)), (wins, n * p)


def features(state: State) -> dict[str, float]:
    """What a playout's law shows: the end, the winner, the counters, the supply."""
    m = state.model
    out = {
        "turns": state.turns,
        "round": state.round,
        "refuge": state.ended == End.REFUGE,
        "deck end": state.ended == End.DECK,
        "timeout": state.ended == End.TIMEOUT,
        "seat 0 wins": 0 in state.winners,
        "seat 1 wins": 1 in state.winners,
        "deaths": state.deaths,
        "tiles": state.tiles_placed,
        "water": state.water_missions,
        "decisions": state.decisions,
        "steps": state.steps,
        "legal moves": state.legal_moves,
        "cards": state.cards,
        "on the board": sum(f for f in state.figs),
        "fields used": sum(c >= 0 for c in state.colour),
        "black fields": sum(t == 3 for t in state.tile),
    }
    for s in range(2):
        out[f"refuge {s}"] = sum(refuge_values(state, s))
        out[f"score {s}"] = state.record().scores[s]
    for c in range(len(m.colours)):
        out[f"camp {c}"] = state.camp_figs[c]
        out[f"refuges {c}"] = state.refuge_figs[0][c] + state.refuge_figs[1][c]
    return out


def same_law(state: State, span: int, n: int, seed: int) -> None:
    """n kernel playouts and n readable loops from `state` (each on a clone with its hidden
    deck redrawn, as the search plays them): every feature's means agree within 4.5
    standard errors of their difference (the same law gives |z| > 4.5 about once in
    150,000 comparisons)."""
    runs = {}
    for name, playout in (("kernel", kernel_playout), ("loop", loop_playout)):
        rng = random.Random(seed)
        rows = []
        for _ in range(n):
            played = state.clone()
            played.resample(rng)
            playout(played, rng, state.turns + span)
            rows.append(features(played))
        runs[name] = rows
    for key in runs["kernel"][0]:
        a = [row[key] for row in runs["kernel"]]
        b = [row[key] for row in runs["loop"]]
        ma, mb = sum(a) / n, sum(b) / n
        var = (sum((x - ma) ** 2 for x in a) + sum((x - mb) ** 2 for x in b)) / (n - 1) / n
        if var == 0:
            assert ma == mb, (key, ma, mb)
            continue
        assert abs(ma - mb) < 4.5 * math.sqrt(var), (key, state.phase, ma, mb)


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


@pytest.mark.slow
@pytest.mark.parametrize("phase", sorted(PHASES))
def test_the_kernel_finishes_a_turn_by_the_readable_rules_law(phase):
    """The rest of a turn from each of its phases, mid-game (the resumption itself)."""
    same_law(first_in(MODEL, PHASES[phase], range(40)), span=0, n=1500, seed=3)


@pytest.mark.slow
def test_the_kernel_finishes_the_shortage_swaps_by_the_readable_rules_law():
    """The shortage's swaps (rare: a kit with few figures reaches them)."""
    model = engine.prepare(DesertHomeParams(figures_per_colour=4, tents_per_colour=1), 2)
    state = first_in(model, lambda s: s.phase == P_SWAP, range(200))
    assert state.swaps
    same_law(state, span=0, n=1500, seed=3)


@pytest.mark.slow
@pytest.mark.parametrize("seed, steps", [(1, 400), (2, 1200), (5, 2500)])
def test_the_kernel_plays_many_turns_by_the_readable_rules_law(seed, steps):
    """Twenty turns (a search's playout is forty) from mid-game positions."""
    rng = random.Random(seed)
    state = new_state(MODEL, 2, rng)
    for _ in range(steps):
        step(state, rng)
    assert state.ended is None
    same_law(state, span=20, n=400, seed=seed)


@pytest.mark.slow
def test_the_kernel_plays_to_the_end_by_the_readable_rules_law():
    """To the game's end (or its round limit) from late in a game."""
    state = first_in(MODEL, lambda s: s.turns >= 380 and s.phase == P_SPEND, range(10))
    same_law(state, span=10**6, n=300, seed=9)


def test_the_search_plays_its_rollouts_in_the_kernel(monkeypatch):
    """`pnp.mcts`'s readable search finds `playout` and uses it: no rollout runs on the
    readable rules (the compiled search plays them in the kernel: tests/test_dh_tree.py)."""
    state = first_in(MODEL, lambda s: s.phase == P_SPEND and len(s.legal_actions()) > 3, range(5))
    calls = []
    real = State.playout

    def counted(self: State, rng: random.Random, stop: int) -> None:
        calls.append(stop)
        real(self, rng, stop)

    monkeypatch.setattr(State, "playout", counted)
    visits = MctsBot(50, compiled=False).search(state, random.Random(1))
    assert len(calls) == 50 and sum(visits.values()) == 50
    assert visits == MctsBot(50, compiled=False).search(state, random.Random(1))
