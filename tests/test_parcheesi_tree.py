"""Parcheesi's compiled tree search (`_tree.h` over `pnp/play/_uct.h`) against the readable one.

`compiled.tree_search` must be `MctsBot.search` on the readable loop, draw for draw: the same
root children in the same order with the same visits, and the search's generator left in
the same state. Checked from positions of random games at 2, 3 and 4 players, under both
rules (a `standard` double rolls again, a third is penalised), early, mid-game and near
the end, at several budgets and horizons; and over whole games of mcts seats, whose
records must not depend on which search ran.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kernels import with_hook
from test_parcheesi_kernel import needs_kernel
from test_parcheesi_properties import MODELS
from tiers import ci_keeps

from pnp.games import get_game
from pnp.games.parcheesi import engine, rules
from pnp.games.parcheesi.fast import kernel as compiled
from pnp.games.parcheesi.params import ParcheesiParams
from pnp.games.parcheesi.rules import state as game
from pnp.play import fastpath
from pnp.play.mcts import MctsBot
from pnp.play.state import CHANCE
from pnp.sim.command import run_simulation
from pnp.sim.seats import Lineup, engine_for, lineup, play_lineup, seat_bot

BUDGETS = (1, 2, 7, 60, 400)
HORIZONS = (1, 2, 40, engine.PLAYOUT_TURNS)


def decisions(rules_name: str, players: int, seed: int, every: int) -> list[game.State]:
    """Every `every`-th decision of a random game."""
    rng = random.Random(seed)
    state = game.new_game(MODELS[rules_name], players)
    found, n = [], 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        n += 1
        if n % every == 0:
            found.append(state.clone())
        state.apply(state.random_action(rng))
    return found


def same_search(state: game.State, budget: int, horizon: int, seed: int, team: bool = False):
    """Both searches from `state` on one seed: their visits (order included) and the
    generator after each."""
    fast, slow = random.Random(seed), random.Random(seed)
    bot = dict(budget=budget, playout_turns=horizon, cooperative=team)
    searched = MctsBot(**bot).search(state.clone(), fast)
    readable = MctsBot(**bot, compiled=False).search(state.clone(), slow)
    assert list(searched.items()) == list(readable.items())
    assert fast.getstate() == slow.getstate()
    assert sum(searched.values()) == budget
    return searched


@needs_kernel
def test_the_kernel_searches_a_decision():
    """The seam is in use: the state's compiled search answers (not the fallback)."""
    state = decisions("seed", 4, 1, 5)[3]
    visits = compiled.tree_search(
        state, random.Random(1), fastpath.SearchSettings(50, 8, 1.4, False)
    )
    assert visits is not None and set(visits) <= set(state.legal_actions())
    assert sum(visits.values()) == 50


@needs_kernel
@pytest.mark.parametrize("rules_name", ["seed", "standard"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_the_compiled_search_is_the_readable_one(rules_name, players):
    """Early, mid-game and last decisions, every budget and horizon."""
    found = decisions(rules_name, players, 10 * players + len(rules_name), 1)
    picks = [found[0], found[1], found[len(found) // 3], found[len(found) // 2]] + found[-3:]
    for k, state in enumerate(picks):
        for budget in BUDGETS[:4]:
            for horizon in HORIZONS:
                same_search(state, budget, horizon, seed=1000 * k + budget + horizon)


@needs_kernel
@pytest.mark.slow
@pytest.mark.parametrize("rules_name", ["seed", "standard"])
@pytest.mark.parametrize("players", [2, pytest.param(4, marks=pytest.mark.long)])
def test_the_compiled_search_is_the_readable_one_at_400_playouts(rules_name, players):
    found = decisions(rules_name, players, 7 + players, 1)
    for k, state in enumerate([found[2], found[len(found) // 2], found[-2]]):
        for horizon in (2, engine.PLAYOUT_TURNS, 40):
            same_search(state, 400, horizon, seed=k + horizon)


@needs_kernel
def test_a_standard_double_rolls_again_in_the_tree():
    """Mid-turn after a double, and two doubles rolled: the next roll's third double is
    penalised, in the tree as in the rules."""
    state = game.new_game(MODELS["standard"], 2)
    state.pawns[0] = [rules.NEST, 30, 40, 50]
    state.pawns[2] = [rules.NEST, 3, 20, 60]
    state.turns = 20
    state.apply((3, 3))
    state.doubles = 2  # as if this double were the turn's second: a third is penalised
    for horizon in (1, 2, 8):
        for budget in (7, 60):
            same_search(state, budget, horizon, seed=budget * horizon)


@needs_kernel
def test_the_search_scores_a_cut_off_on_progress():
    """With a horizon of one turn nothing ends, so every visit's reward comes from
    `standing()`: a search that scored nothing would not prefer the capture below."""
    state = game.new_game(MODELS["seed"], 2)
    state.turns = 30
    state.pawns[0] = [30, 40, 50, 60]
    state.pawns[2] = [10, 20, 30, 40]
    state.apply((1, 2))
    visits = same_search(state, 200, 1, seed=3)
    assert len(visits) > 1 and len(set(visits.values())) > 1


@needs_kernel
def test_the_search_of_a_team_is_the_readable_one():
    """`cooperative` (a team game's rewards) goes through the same arithmetic."""
    for state in decisions("seed", 4, 3, 40)[:3]:
        same_search(state, 60, 40, seed=5, team=True)


@pytest.mark.slow  # a second or more: the fast tier stays under a minute
@needs_kernel
@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 4),
    rules_name=st.sampled_from(["seed", "standard"]),
    depth=st.floats(0, 1),
    budget=st.sampled_from(BUDGETS[:4]),
    horizon=st.sampled_from(HORIZONS),
)
def test_any_decision_searches_alike(seed, players, rules_name, depth, budget, horizon):
    found = decisions(rules_name, players, seed, 1)
    same_search(found[int(depth * (len(found) - 1))], budget, horizon, seed)


def record(monkeypatch, how: str, players: int, rules_name: str) -> Any:
    """A whole game of mcts seats at 30 playouts: on the compiled search, or on the readable
    rules alone (the readable search and playouts). One game is hundreds of searches; the
    conformance data holds the searches position by position."""
    if how == "readable rules":
        monkeypatch.setenv(fastpath.ENVIRONMENT, fastpath.READABLE)
    model = engine.prepare(ParcheesiParams(), players, rules_name)
    lineup = Lineup(("mcts",) * players, 30)
    found = play_lineup(engine, model, players, lineup, random.Random("3:0"))
    monkeypatch.undo()
    return found


@needs_kernel
@pytest.mark.slow
@pytest.mark.parametrize("players, rules_name", ci_keeps([(4, "seed"), (2, "standard")]))
def test_whole_games_do_not_depend_on_the_search(monkeypatch, players, rules_name):
    searched = record(monkeypatch, "compiled", players, rules_name)
    assert searched == record(monkeypatch, "readable rules", players, rules_name)


@needs_kernel
@pytest.mark.slow
def test_a_simulation_does_not_depend_on_the_search():
    """`pnp simulate parcheesi --bot mcts --games 3 --bot-budget 30` as a library call."""
    args = dict(games=3, bot="mcts", budget=30, seed=4, players=3)
    searched = run_simulation("parcheesi", **args).summary
    with with_hook(game.State, tree_search=None):
        assert run_simulation("parcheesi", **args).summary == searched


def test_an_mcts_seat_spends_fewer_playouts_with_more_seats():
    """A decision lists more plays with more seats' pawns out, so the seats `pnp simulate
    --bot mcts` makes search less at four players than at two (the 50 ms target), and each
    search spends its lineup's budget whole; a budget asked for is spent at any count."""
    parcheesi = engine_for(get_game("parcheesi"))
    spent = {}
    for players in (2, 3, 4):
        seats = lineup(parcheesi, players, "mcts")
        bot = seat_bot(parcheesi, MODELS["seed"], "mcts", seats.budget)
        state = decisions("seed", players, 1, 5)[3]
        spent[players] = sum(bot.search(state, random.Random(players)).values())
        assert spent[players] == seats.budget
        assert lineup(parcheesi, players, "mcts", budget=1000).budget == 1000
    assert spent[2] >= spent[3] >= spent[4] and spent[4] < spent[2]
