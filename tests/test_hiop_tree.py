"""Home in One Piece's compiled tree search (`_tree.h` over `pnp/play/_uct.h`) is the readable one.

`MctsBot.search` runs on the kernel where it is attached (`compiled.tree_search`); the readable
search (`MctsBot(compiled=False)`) is the reference. Both must give the same visits, in
the same order, and leave the search's generator in the same state: from positions of
random and greedy games of several seeds (a roll to come, decisions after rolls of 1, 2
and 3, turns under way after one or two touches, positions a turn or two from a win or
from the turn limit), on kits of other sizes, reaches and dice, at budgets 1 to 400,
horizons 1 to 40 (the engine's own included), with the cut-off scored on `win_chances()`,
on `standing()` or not at all, cooperative or not. A whole simulation with mcts seats
gives the same JSON either way.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kernels import with_hook
from tiers import ci_keeps

from pnp.contract.gamedef import playout_turns
from pnp.games.home_in_one_piece import engine, rules
from pnp.games.home_in_one_piece.fast import kernel as compiled
from pnp.games.home_in_one_piece.params import HomeInOnePieceParams
from pnp.games.home_in_one_piece.rules.bots import make_bot
from pnp.games.home_in_one_piece.rules.state import State, new_game
from pnp.play import fastpath
from pnp.play.mcts import EXPLORATION, PLAYOUT_TURNS, MctsBot
from pnp.play.state import CHANCE
from pnp.sim.command import run_simulation

needs_kernel = pytest.mark.skipif(
    not compiled.available() and not os.environ.get("CI"),
    reason="pnp was installed without a C compiler: the kernel was not built",
)
pytestmark = needs_kernel

DEFAULT = engine.prepare(HomeInOnePieceParams(), 2)
KITS = {
    "half reach": engine.prepare(HomeInOnePieceParams(), 2, reach="half"),
    "3 blobs": engine.prepare(HomeInOnePieceParams(blobs_per_player=3), 2),
    "16 blobs": engine.prepare(HomeInOnePieceParams(blobs_per_player=16), 2),
    "generous dice": engine.prepare(HomeInOnePieceParams(dice=((1, 1, 1, 1, 0, 0),) * 3), 2),
}
OWN = playout_turns(engine, PLAYOUT_TURNS)  # the engine's horizon, or the default
HORIZONS = sorted({1, 2, 40, OWN})


def positions(model, bot: str, seed: int, max_turns: int | None = None) -> Iterator[State]:
    """Every position of one game (a copy each), the roll to come and each decision."""
    rng = random.Random(f"tree:{seed}")
    state = new_game(model, max_turns)
    player = make_bot(bot, model)
    while not state.is_terminal():
        yield state.clone()
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(player.choose(state, rng))
    yield state


def same_search(
    state: State,
    budget: int,
    horizon: int,
    cooperative: bool = False,
    exploration: float = EXPLORATION,
) -> dict[object, int]:
    """The compiled search and the readable one: the same visits in the same order, and
    the generator left in the same state. Returns the visits."""
    seed = f"{state.turns}:{budget}:{horizon}"
    ours, theirs = random.Random(seed), random.Random(seed)
    fast = compiled.tree_search(
        state, ours, fastpath.SearchSettings(budget, horizon, exploration, cooperative)
    )
    bot = MctsBot(budget, cooperative, horizon, exploration, compiled=False)
    slow = bot.search(state, theirs)
    assert fast is not None
    assert list(fast.items()) == list(slow.items()), (state.turns, budget, horizon)
    assert ours.getstate() == theirs.getstate(), (state.turns, budget, horizon)
    return fast


def sample(model, bot: str, seed: int, every: int, max_turns: int | None = None) -> list[State]:
    """Every `every`-th position of a game, and its last few, where wins and cut-offs are near."""
    game = list(positions(model, bot, seed, max_turns))
    return game[::every] + game[-6:]


def test_the_sample_holds_every_kind_of_position():
    """Rolls to come, decisions after each roll, turns under way, and games that end both
    ways."""
    states = sample(DEFAULT, "random", 1, 9) + sample(DEFAULT, "greedy", 2, 9)
    kinds = {s.budget if s.rolled else "roll" for s in states if not s.is_terminal()}
    assert kinds == {"roll", 1, 2, 3}
    assert {len(s.touched) for s in states if s.rolled} == {0, 1, 2}
    ends = {s.ended for s in positions(DEFAULT, "random", 3, max_turns=40)}
    ends |= {s.ended for s in sample(DEFAULT, "greedy", 2, 9)}
    assert {rules.Termination.HOME, rules.Termination.TIMEOUT} <= ends


@pytest.mark.parametrize("budget", ci_keeps([1, 2, 7, 60], 0, 2))
@pytest.mark.parametrize("horizon", HORIZONS)
@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_the_compiled_search_is_the_readable_one(budget, horizon):
    for state in sample(DEFAULT, "random", budget, 23) + sample(DEFAULT, "greedy", horizon, 23):
        same_search(state, budget, horizon)


@pytest.mark.parametrize("budget", [60, pytest.param(engine.MCTS_BUDGET, marks=pytest.mark.slow)])
def test_the_compiled_search_with_the_engines_own_settings(budget):
    """The mcts seat as `pnp simulate` makes it: the engine's budget, horizon and
    exploration."""
    for state in sample(DEFAULT, "greedy", 12, 37) + sample(DEFAULT, "random", 13, 97):
        same_search(state, budget, OWN, exploration=engine.MCTS_EXPLORATION)


@pytest.mark.slow  # a second or more: the fast tier stays under a minute
def test_the_compiled_search_near_the_turn_limit_and_cooperative():
    """Playouts cut by the game's own limit score the record (`UCT_CUT`); a cooperative
    search scores only wins."""
    for state in list(positions(DEFAULT, "random", 4, max_turns=30))[-12:]:
        for horizon in (2, 40):
            same_search(state, 60, horizon)
            same_search(state, 60, horizon, cooperative=True)


def test_the_compiled_search_scores_a_cut_off_as_the_state_offers(monkeypatch):
    """A playout cut off by the search is scored on `win_chances()`, else on `standing()`
    (the lead), else as nobody's; each way the compiled search is the readable one, and the
    scoring changes what a short search learns (so the tests above see it)."""
    states = [s for s in sample(DEFAULT, "greedy", 5, 31) if not s.is_terminal()]
    chances = [same_search(state, 60, 1) for state in states]
    monkeypatch.delattr(State, "win_chances")
    standing = [same_search(state, 60, 1) for state in states]
    monkeypatch.delattr(State, "standing")
    unscored = [same_search(state, 60, 1) for state in states]
    assert chances != standing != unscored


@pytest.mark.slow
@pytest.mark.parametrize("kit", list(KITS))
def test_the_compiled_search_on_other_kits(kit):
    for state in sample(KITS[kit], "random", 6, 41) + sample(KITS[kit], "greedy", 7, 17):
        for horizon in sorted({2, OWN, 40}):
            same_search(state, 60, horizon)


@pytest.mark.long
def test_the_compiled_search_at_a_big_budget():
    for state in sample(DEFAULT, "random", 8, 61) + sample(DEFAULT, "greedy", 9, 31):
        for horizon in HORIZONS:
            same_search(state, 400, horizon)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    step=st.integers(0, 400),
    budget=st.sampled_from([1, 2, 7, 60]),
    horizon=st.sampled_from(HORIZONS),
    greedy=st.booleans(),
)
def test_the_compiled_search_from_any_position(seed, step, budget, horizon, greedy):
    game = list(positions(DEFAULT, "greedy" if greedy else "random", seed))
    same_search(game[min(step, len(game) - 1)], budget, horizon)


def test_a_turn_under_way_is_searched_in_the_kernel_too():
    """Touch by touch (`rules.shift` on the state itself, a touch no list holds) the kernel
    takes the position with what it touched, and searches it as the readable search does."""
    state = next(s for s in positions(DEFAULT, "random", 10) if s.rolled and s.budget >= 2)
    rules.shift(state, state.own[0], *DEFAULT.rally[state.seat])
    assert state.touched and state.current_player() == state.seat
    visits = same_search(state, 60, 1)
    assert sum(visits.values()) == 60 and all(a in state.legal_actions() for a in visits)


def test_the_standing_orders_the_seats_by_progress():
    """Score first (joins and dough at home), then under one point the dough's nearness
    to the rally: a seat that joined leads one that did not, whatever the distances."""
    state = new_game(DEFAULT)
    start = state.standing()
    assert start[0] == start[1] and 0 < start[0] < 1  # the board is a mirror image
    for state in sample(DEFAULT, "greedy", 11, 5):
        standing = state.standing()
        for s in range(2):
            assert rules.score(state, s) < standing[s] <= rules.score(state, s) + 1


def simulate(monkeypatch, **request) -> str:
    return json.dumps(run_simulation("home-in-one-piece", **request).summary, sort_keys=True)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("bots", "games"), ci_keeps([(None, 3), ("mcts,greedy", 3), ("random,mcts", 1)])
)
def test_whole_games_with_mcts_seats_are_the_same_either_way(monkeypatch, bots, games):
    """`pnp simulate --bot mcts --games 3 --bot-budget 30` and mixed seats (long: the
    readable search plays a game in about half a minute)."""
    request = dict(games=games, bot="mcts", bots=bots, budget=30, seed=5, jobs=1)
    searched = []

    def counted(*args):
        searched.append(compiled.tree_search(*args))
        return searched[-1]

    with with_hook(State, tree_search=counted):
        fast = simulate(monkeypatch, **request)
    assert searched and None not in searched  # every decision searched in the kernel
    with fastpath.using(fastpath.READABLE):  # no kernel at all: tree and playouts readable
        assert simulate(monkeypatch, **request) == fast
