"""Desert Home's compiled tree search (`_tree.h`, `compiled.tree_search`) is the readable one.

`pnp.play.mcts.MctsBot(compiled=False).search` is the reference: from the same position and
the same generator the compiled search must give the same visits, in the same order, and
leave the generator in the same state, at every kind of decision of a turn (re-rolls,
influx colour and field, number, road, road tile, spending, a drawn tile's slot, the
shortage's swaps), early, mid-game and near each end (a refuge met, the deck out, the
round limit), on kits of other sizes, for budgets from 1 playout to 400 and horizons from
1 turn to 40 (the game's own included), its cut-offs scored on `win_chances()` (and on the
lead on `standing()`, or on nothing, for a state without them). Whole games through the
library must give the same records.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tiers import ci_keeps

from pnp.games.desert_home import engine
from pnp.games.desert_home.fast import kernel as compiled
from pnp.games.desert_home.params import DesertHomeParams
from pnp.games.desert_home.rules import (
    DRAW_ACTION,
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
)
from pnp.games.desert_home.rules.model import PlayModel
from pnp.games.desert_home.rules.state import State, new_state
from pnp.play import fastpath
from pnp.play.mcts import PLAYOUT_TURNS, MctsBot
from pnp.play.state import CHANCE
from pnp.sim.command import run_simulation

pytestmark = pytest.mark.skipif(
    compiled._kernel is None, reason="pnp was installed without a C compiler"
)

MODEL = engine.prepare(DesertHomeParams(), 2)
HORIZONS = sorted({1, 2, 40, getattr(engine, "PLAYOUT_TURNS", PLAYOUT_TURNS)})


def step(state: State, rng: random.Random) -> None:
    chance = state.current_player() == CHANCE
    state.apply(state.sample_chance(rng) if chance else state.random_action(rng))


def decisions(
    model: PlayModel, seed: int, every: int = 1, max_rounds: int | None = None
) -> Iterator[State]:
    """Every `every`-th decision with a choice of a random game on the readable rules."""
    rng = random.Random(seed)
    state = new_state(model, 2, rng) if max_rounds is None else new_state(model, 2, rng, max_rounds)
    n = 0
    while state.ended is None:
        if state.current_player() != CHANCE and len(state.legal_actions()) > 1:
            if n % every == 0:
                yield state.clone()
            n += 1
        step(state, rng)


def last_decisions(model: PlayModel, seed: int, count: int, **kw: int) -> list[State]:
    """The game's last `count` decisions with a choice (near its end)."""
    return list(decisions(model, seed, **kw))[-count:]


def first(model: PlayModel, want: Callable[[State], bool], seeds: range) -> State:
    for seed in seeds:
        for state in decisions(model, seed):
            if want(state):
                return state
    raise AssertionError("no such decision in these games")


def assert_same_search(
    state: State, budget: int, horizon: int, seed: int, exploration: float = 2**0.5
) -> None:
    """The compiled search and the readable one: visits in order, and the generator after."""
    kw = dict(playout_turns=horizon, exploration=exploration)
    fast_rng, slow_rng = random.Random(seed), random.Random(seed)
    before = state.clone()
    assert (
        compiled.tree_search(
            state, random.Random(seed), fastpath.SearchSettings(budget, horizon, exploration, False)
        )
        is not None
    )
    fast = MctsBot(budget, compiled=True, **kw).search(state, fast_rng)
    slow = MctsBot(budget, compiled=False, **kw).search(state.clone(), slow_rng)
    where = (state.phase, state.turns, budget, horizon, seed)
    assert list(fast.items()) == list(slow.items()), where
    assert fast_rng.getstate() == slow_rng.getstate(), where
    assert state.record() == before.record() and state.deck == before.deck  # untouched


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_the_compiled_search_is_the_readable_one_through_random_games(seed):
    for i, state in enumerate(decisions(MODEL, seed, every=23)):
        assert_same_search(state, budget=(1, 2, 7, 60)[i % 4], horizon=HORIZONS[i % 3], seed=i)


PHASES = {
    "re-roll": lambda s: s.turns > 20 and s.phase == P_REROLL,
    "influx colour": lambda s: s.turns > 10 and s.phase == P_INFLUX_COLOUR,
    "influx": lambda s: s.turns > 20 and s.phase == P_INFLUX,
    "number": lambda s: s.turns > 20 and s.phase == P_NUMBER,
    "road": lambda s: s.turns > 20 and s.phase == P_ROAD,
    "road tile": lambda s: s.phase == P_ROAD_TILE and s.road_left > 1,
    "spend": lambda s: s.turns > 20 and s.phase == P_SPEND and s.points >= 3,
    "place": lambda s: s.phase == P_PLACE,
}


@pytest.mark.parametrize("budgets", [(1, 2, 7, 60), pytest.param((400,), marks=pytest.mark.slow)])
@pytest.mark.parametrize("phase", sorted(PHASES))
def test_every_kind_of_decision(phase, budgets):
    state = first(MODEL, PHASES[phase], range(40))
    for budget in budgets:
        for horizon in HORIZONS:
            assert_same_search(state, budget, horizon, seed=budget + horizon)
    assert_same_search(limit_near(state), max(budgets), 40, seed=1)


def limit_near(state: State) -> State:
    """The position with the round limit at the end of this round: every playout scored."""
    near = state.clone()
    near.max_rounds = near.round
    return near


def test_with_the_deck_out():
    """Once the deck is out the end checks (`nobody_can_win`) run at every turn's end."""
    model = engine.prepare(DesertHomeParams(deck_safe=8, deck_thirst=4), 2)
    state = first(model, lambda s: s.phase == P_SPEND and not s.deck and s.turns > 30, range(40))
    for budget in (7, 60, 400):
        for horizon in HORIZONS:
            assert_same_search(state, budget, horizon, seed=budget + horizon)
    assert_same_search(limit_near(state), 400, 40, seed=1)


@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_the_shortage_swaps():
    """The swaps (rare: a kit with few figures reaches them), with an exploration of its own."""
    model = engine.prepare(DesertHomeParams(figures_per_colour=4, tents_per_colour=1), 2)
    state = first(model, lambda s: s.phase == P_SWAP, range(157, 200))  # 157: 1st
    assert state.swaps
    for budget in (2, 60, 400):
        for horizon in HORIZONS:
            assert_same_search(state, budget, horizon, seed=budget, exploration=0.7)
    assert_same_search(limit_near(state), 400, 40, seed=1)


@pytest.mark.slow
def test_near_each_end_of_a_game():
    """The last decisions before a refuge is met or the deck runs out, and before the round
    limit (a cut-off scored on the record, half a win to the leader)."""
    states = last_decisions(MODEL, 3, 12) + last_decisions(MODEL, 4, 12)
    states += last_decisions(MODEL, 5, 12, max_rounds=4)
    for i, state in enumerate(states):
        assert_same_search(state, budget=(7, 60, 400)[i % 3], horizon=HORIZONS[i % 3], seed=i)


@pytest.mark.slow
@pytest.mark.parametrize("seed", ci_keeps([8, 9], 0))
def test_every_playout_scored_at_a_round_limit_near(seed):
    """With the round limit a round or two away every playout ends scored on the record
    (half a win to the leader on `goal.scores`): the rewards, not only the draws, must
    agree, so a step of the rules spelled out wrong in the tree shows."""
    for i, state in enumerate(decisions(MODEL, seed, every=13)):
        state.max_rounds = state.round + i % 2
        assert_same_search(state, budget=(60, 400)[i % 2], horizon=40, seed=i)


def with_a_bearer_home(s: State) -> State | None:
    """Spending with a tile to draw, blue usable and points left after the draw: with one
    water bearer moved from the camp to the seat's refuge (random play seldom gets one
    there this early) a protection card may follow the draw. Below the draw the tree's
    positions differ in the hidden tile laid, and so do their lists of actions (a card
    goes on thirst tiles only)."""
    if not (
        s.phase == P_SPEND
        and s.points >= 4
        and DRAW_ACTION in s.legal_actions()
        and s.usable[s.blue]
        and s.cards > 0
        and s.camp_figs[s.blue] > 1
    ):
        return None
    s = s.clone()
    s.camp_figs[s.blue] -= 1
    s.refuge_figs[s.seat][s.blue] += 1
    s.legal = None
    return s


@pytest.mark.slow
def test_below_a_hidden_tile_the_action_tried_is_played():
    """Below a draw one node of the tree stands for positions whose lists may differ: the
    compiled tree names its actions by keys (`tree_key`), as the readable search keys its
    children by the action, and plays the action it tried there. (These searches seldom
    reach such a node deep enough to tell keys from places: a check of the keyed path.)"""
    model = engine.prepare(DesertHomeParams(rows=7, path_columns=9, deck_thirst=30), 2)
    found = 0
    for seed in range(60):
        for state in decisions(model, seed):
            made = with_a_bearer_home(state)
            if made is not None:
                for horizon in (2, 10):
                    assert_same_search(made, 400, horizon, seed=seed)
                    assert_same_search(limit_near(made), 400, horizon, seed=seed)
                found += 1
                break
        if found == 4:
            break
    assert found == 4


KITS = {
    "small": DesertHomeParams(
        rows=3, refuge_rows=(0, 2), path_columns=2, deck_safe=6, deck_thirst=3
    ),
    "large": DesertHomeParams(rows=9, path_columns=9, deck_safe=60, deck_thirst=30),
    "few pieces": DesertHomeParams(figures_per_colour=5, tents_per_colour=0, goal_per_colour=3),
}


@pytest.mark.parametrize(
    "kit",
    [  # the large board's games are long: the slow tier's (the others hold the same search)
        pytest.param(k, marks=pytest.mark.slow) if k == "large" else k for k in sorted(KITS)
    ],
)
@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_kits_of_other_sizes(kit):
    model = engine.prepare(KITS[kit], 2)
    for i, state in enumerate(decisions(model, 7, every=31)):
        assert_same_search(state, budget=(2, 7, 60)[i % 3], horizon=HORIZONS[i % 3], seed=i)


@functools.cache
def pool() -> list[State]:
    """Decisions of a few random games, early to late, for Hypothesis to pick from."""
    return [s for seed in range(4) for s in decisions(MODEL, 100 + seed, every=29)]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    pick=st.integers(0, 10**6),
    budget=st.integers(1, 40),
    horizon=st.integers(1, 12),
    exploration=st.floats(0.0, 3.0),
)
def test_any_seed_budget_horizon_and_exploration(seed, pick, budget, horizon, exploration):
    states = pool()
    assert_same_search(states[pick % len(states)], budget, horizon, seed, exploration)


@pytest.mark.parametrize("without", [("win_chances",), ("win_chances", "standing")])
@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_a_cut_off_scored_on_the_standing_or_on_nothing(without, monkeypatch):
    """A state without `win_chances()` (as before it had one): the search's cut-off scores
    the lead on `standing()`; without that too, nobody; in the compiled search as in the
    readable one."""
    for name in without:
        monkeypatch.delattr(State, name)
    for i, state in enumerate(decisions(MODEL, 11, every=41)):
        assert_same_search(state, budget=(7, 60)[i % 2], horizon=HORIZONS[i % 3], seed=i)
    near = limit_near(first(MODEL, PHASES["spend"], range(40)))
    assert_same_search(near, 400, 40, seed=2)


def test_only_a_decision_goes_to_the_kernel():
    """At a throw or a finished game the compiled search declines, leaving `rng` untouched."""
    rng = random.Random(1)
    state = new_state(MODEL, 2, rng)
    assert state.phase == P_ROLL
    search = random.Random(2)
    assert compiled.tree_search(state, search, fastpath.SearchSettings(10, 40, 1.4, False)) is None
    assert search.getstate() == random.Random(2).getstate()
    state.playout(rng, 10**9)
    assert (
        state.ended is not None
        and compiled.tree_search(state, search, fastpath.SearchSettings(10, 40, 1.4, False)) is None
    )


@pytest.mark.long
def test_whole_games_are_the_same_with_the_tree_compiled_or_not(monkeypatch):
    """The compiled tree and the readable rules alone (no kernel at all: the readable tree,
    playouts and shuffles) play the same mcts game. (The readable tree on the kernel's
    playouts is held to both position by position above and in test_dh_playout.py.)"""
    args = dict(games=1, bot="mcts", budget=30, seed=3, jobs=1)
    fast = run_simulation("desert-home", **args)
    with fastpath.using(fastpath.READABLE):
        readable = run_simulation("desert-home", **args)
    assert fast.summary == readable.summary
    assert fast.summary["games"] == 1
