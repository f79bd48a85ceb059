"""Parcheesi over random games: invariants, the game-state API's laws, determinism, and the
engine (the compiled kernel when built) playing the readable rules' games."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.games.parcheesi import engine, rules
from pnp.games.parcheesi.params import ParcheesiParams
from pnp.games.parcheesi.rules import state as game
from pnp.games.parcheesi.rules.bots import make_bot
from pnp.games.parcheesi.rules.model import play_model
from pnp.play.state import CHANCE, TERMINAL
from pnp.runtime.errors import PnpError

N = rules.NEST
MODELS = {r: play_model(ParcheesiParams(), rules=r) for r in ("seed", "standard")}


def blockades(state: game.State, colour: int) -> list[int]:
    """Progress (for `colour`) of the spaces holding two pawns of one other colour."""
    model = state.model
    found = []
    for c in state.seats:
        if c != colour:
            spots = Counter(model.paths[c][p] for p in state.pawns[c] if 0 <= p < model.home)
            found += [
                model.paths[colour].index(n)
                for n, k in spots.items()
                if k == 2 and n in model.paths[colour]
            ]
    return found


def check_board(state: game.State) -> None:
    model = state.model
    on_space: dict[int, list[int]] = {}
    for c in range(len(model.paths)):
        pawns = state.pawns[c]
        assert len(pawns) == (4 if c in state.seats else 0)  # every pawn, exactly once
        for p in pawns:
            assert N <= p <= model.home
            if 0 <= p < model.home:
                on_space.setdefault(model.paths[c][p], []).append(c)
    for node, colours in on_space.items():
        assert len(colours) <= 2  # never three pawns on a space
        if len(set(colours)) == 2:
            assert model.safe[node]  # a mixed pair only shares a safe space


def play_checked(model, players: int, bot: str, seed: int) -> game.State:
    rng = random.Random(seed)
    state = game.new_game(model, players)
    b = make_bot(bot, model)
    while not state.is_terminal():
        colour = state.colour
        before = sorted(state.pawns[colour])
        walls = blockades(state, colour)
        turns = state.turns
        while state.turns == turns:  # one whole turn
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(b.choose(state, rng))
        check_board(state)
        after = sorted(state.pawns[colour])
        for w in walls:  # no pawn passed an opposing blockade (they cannot move this turn)
            assert sum(p > w for p in after) <= sum(p > w for p in before)
        assert state.turns <= rules.MAX_TURNS
    return state


@settings(max_examples=15, deadline=None)
@given(
    st.sampled_from(["seed", "standard"]),
    st.integers(2, 4),
    st.sampled_from(["random", "greedy"]),
    st.integers(0, 2**32),
)
def test_random_games_keep_every_pawn_and_the_space_limits_and_end(rules_name, players, bot, seed):
    state = play_checked(MODELS[rules_name], players, bot, seed)
    assert state.ended in game.Termination
    assert len(state.leaders) == state.turns
    if state.ended is game.Termination.HOME:
        assert state.pawns[state.seats[state.winner]] == [state.model.home] * 4


def snapshot(state: game.State) -> tuple:
    """Everything a step may change, copied."""
    return (
        [list(p) for p in state.pawns],
        state.seat,
        state.turns,
        state.ended,
        state.dice,
        state.doubles,
        list(state.leaders),
        dict(state.counters),
    )


@settings(max_examples=6, deadline=None)
@given(st.sampled_from(["seed", "standard"]), st.integers(2, 4), st.integers(0, 2**32))
def test_the_game_state_api_keeps_its_laws_over_random_games(rules_name, players, seed):
    """Chance outcomes sum to 1 and only they are drawn; random actions are legal; a
    clone is independent of its original; the game ends, with an outcome."""
    rng = random.Random(seed)
    state = game.new_game(MODELS[rules_name], players)
    steps = 0
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            outcomes = dict(state.chance_outcomes())
            assert sum(outcomes.values()) == pytest.approx(1)
            action = state.sample_chance(rng)
            assert action in outcomes
        else:
            assert state.current_player() == state.seat
            action = state.random_action(rng)
            assert action in state.legal_actions()
        if steps % 7 == 0:
            before, twin = snapshot(state), state.clone()
            twin.apply(action)
            assert snapshot(state) == before
            twin.pawns[0].append(99)
            assert snapshot(state) == before
        state.apply(action)
        steps += 1
    assert state.is_terminal() and state.outcome() is not None
    assert state.outcome().end == state.record().end
    assert state.turns <= rules.MAX_TURNS


@pytest.mark.long  # CI: the same, position by position, in the conformance replays
@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(["seed", "standard"]),
    st.integers(2, 4),
    st.sampled_from(["random", "greedy"]),
    st.integers(0, 2**32),
)
def test_the_engine_plays_the_same_game_as_the_readable_rules(rules_name, players, bot, seed):
    """The compiled kernel (when built) and the readable rules, from one seed."""
    model = MODELS[rules_name]
    kernel = engine.play_one(model, players, bot, random.Random(seed))
    ref = engine.play_one(model, players, bot, random.Random(seed), reference=True)
    assert kernel == ref


TRICKY = [  # (pawns by colour, mover, dice): positions where shortcuts could go wrong
    ({0: [N, 68, 70, 70]}, 0, (5, 3)),  # entering while the strip blockade bars home
    ({0: [N, 0, 0, 30]}, 0, (5, 6)),  # the entry blockade must open first
    ({0: [N, 0, 0, 30]}, 0, (5, 1)),
    ({0: [20, 20, 40, 71]}, 0, (3, 3)),  # a start blockade: its pawns may not meet again
    ({0: [18, 20, 20, 71]}, 0, (1, 2)),
    ({0: [10, 13, 16, 71], 2: [N, N, N, 44]}, 0, (3, 3)),  # pawns crowding, one capture
    ({0: [3, 6, 9, 12]}, 0, (2, 2)),
    ({0: [10, 71, 71, 71], 3: [30, 50, N, N]}, 0, (3, 6)),  # a capture chain
    ({0: [N, N, 10, 12], 1: [51, N, N, N]}, 0, (2, 3)),  # the pair enters, capturing
    ({0: [N, 5, 12, 40], 1: [68 - 22 + 17, N, N, N]}, 0, (5, 2)),  # sharing a safe space
]


@pytest.mark.slow  # a second or more: the fast tier stays under a minute
def test_the_engine_and_the_readable_rules_agree_game_by_game_on_the_default_kit():
    model = MODELS["seed"]
    for i in range(3):
        rng_a, rng_b = random.Random(f"7:{i}"), random.Random(f"7:{i}")
        assert engine.play_one(model, 4, "random", rng_a) == engine.play_one(
            model, 4, "random", rng_b, reference=True
        )
        assert rng_a.getrandbits(64) == rng_b.getrandbits(64)  # the very same draws


def test_a_seed_fixes_the_game_and_different_seeds_differ():
    model = MODELS["seed"]
    a = [engine.play_one(model, 3, "random", random.Random(f"1:{i}")) for i in range(20)]
    b = [engine.play_one(model, 3, "random", random.Random(f"1:{i}")) for i in range(20)]
    assert a == b
    assert len({(r.turns, r.counters["captures"]) for r in a}) > 10


def test_records_follow_the_engine_contract():
    model = engine.prepare(ParcheesiParams(), 4)
    records = [engine.play_one(model, 4, "random", random.Random(i)) for i in range(40)]
    for r in records:
        assert set(r.counters) == set(engine.COUNTERS)
        assert r.end in {t.value for t in engine.TERMINATION} and len(r.leaders) == r.turns
        assert r.colours == (("red",), ("yellow",), ("green",), ("blue",))  # decision 1
        if r.end == "home":
            (w,) = r.winners
            assert r.scores[w] == 4 and max(r.scores) == 4
        assert r.counters["legal_moves"] >= 2 * r.counters["decisions"]
    ends = Counter(r.end for r in records)
    assert ends["home"] == 40
    mean = sum(r.turns for r in records) / len(records)
    assert 80 < mean < 400  # sanity bounds; the README has the real numbers


def test_the_rules_option_and_bad_requests():
    assert engine.prepare(ParcheesiParams(), 2, rules="standard").rules == "standard"
    assert engine.prepare(ParcheesiParams(rules="standard"), 2).rules == "standard"
    with pytest.raises(PnpError, match="2 to 4 players"):
        engine.prepare(ParcheesiParams(), 5)
    with pytest.raises(PnpError, match="unknown rules"):
        engine.prepare(ParcheesiParams(), 2, rules="house")
    with pytest.raises(ValueError, match="unknown bot"):
        engine.play_one(engine.prepare(ParcheesiParams(), 2), 2, "smart", random.Random(1))
    model = engine.prepare(ParcheesiParams(), 2)
    std = engine.play_one(model, 2, "random", random.Random(3), rules="standard")
    ref = engine.play_one(MODELS["standard"], 2, "random", random.Random(3))
    assert std == ref


def test_kits_a_pawn_cannot_play_on_are_refused():
    with pytest.raises(PnpError, match="does not fit"):
        engine.prepare(ParcheesiParams(board_size=300), 2)
    with pytest.raises(PnpError, match="unknown colour"):
        engine.prepare(ParcheesiParams(colours=("red", "blue", "green", "mauve")), 2)
    with pytest.raises(PnpError, match="different"):
        engine.prepare(ParcheesiParams(colours=("red", "red", "green", "blue")), 2)
    with pytest.raises(PnpError):
        engine.prepare(dataclasses.replace(ParcheesiParams(), rules="house"), 2)
    assert engine.prepare(ParcheesiParams(board_size=300, pawn_size=12), 2).home == 71
