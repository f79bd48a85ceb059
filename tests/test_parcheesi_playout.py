"""Parcheesi's playouts from any position (`State.playout`, and the kernel's
`compiled.playout` attached through `pnp.play.fastpath`), for the tree search.

The kernel plays games on from a given position (mid-turn included), by the guided
player the search's playouts use (`state.PLAYOUT_EXPLORE`: a share of random choices,
greedy's otherwise) or by the random player, and writes the end back into the state. It
draws from `random.Random(n)` for one draw n of the caller's generator, so it must play
exactly the game the readable rules' loop (`state.play_guided`) plays from the same
generator; the law of its results is also compared, independent draws against
independent draws, with the loop the tree search runs without it.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from test_parcheesi_kernel import needs_kernel
from test_parcheesi_properties import MODELS
from tiers import ci_keeps

from pnp.games.parcheesi import engine, rules
from pnp.games.parcheesi.fast import kernel as compiled
from pnp.games.parcheesi.rules import state as game
from pnp.play import fastpath, mcts
from pnp.play.state import CHANCE
from pnp.sim.intervals import chi_square_sf

HOME = MODELS["seed"].home


def mid_game(rules_name: str, players: int, seed: int, steps: int) -> game.State:
    """A position reached by `steps` random steps (rolls and choices) from the start."""
    rng = random.Random(seed)
    state = game.new_game(MODELS[rules_name], players)
    for _ in range(steps):
        if state.is_terminal():
            break
        chance = state.current_player() == CHANCE
        state.apply(state.sample_chance(rng) if chance else state.random_action(rng))
    return state


def snapshot(state: game.State) -> tuple:
    return (
        state.pawns,
        state.seat,
        state.turns,
        state.ended,
        state.winner,
        state.leaders,
        state.counters,
        state.dice,
        state.doubles,
    )


EXPLORE = [-1, 0, game.PLAYOUT_EXPLORE, 100]
"""The random player, greedy's alone, the playouts' guided one, and every choice random."""


@needs_kernel
@pytest.mark.parametrize("rules_name", ["seed", "standard"])
@pytest.mark.parametrize("players", ci_keeps([2, 3, 4], 0, 2))
@pytest.mark.parametrize("steps", ci_keeps([0, 41, 120, 250], 0, 1))  # odd: dice rolled, mid-turn
@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_the_kernel_playout_plays_the_readable_rules_game(rules_name, players, steps, monkeypatch):
    start = mid_game(rules_name, players, 100 * players + steps, steps)
    for seed in range(3):
        explore = EXPLORE[(seed + steps) % len(EXPLORE)]
        monkeypatch.setattr(game, "PLAYOUT_EXPLORE", explore)
        stop = start.turns + (1, 7, 40)[seed] if seed < 2 else rules.MAX_TURNS
        fast, readable, own = start.clone(), start.clone(), start.clone()
        draws = random.Random(seed)
        assert compiled.playout(fast, draws, stop)
        again = random.Random(random.Random(seed).getrandbits(64))
        game.play_guided(readable, again, stop, explore)
        assert snapshot(fast) == snapshot(readable)
        assert fast.turns >= min(stop, start.turns + 1) or fast.is_terminal()
        assert draws.getstate() != random.Random(seed).getstate()  # one draw taken
        own_draws = random.Random(seed)
        own.playout(own_draws, stop)  # the readable rules' own playout
        assert snapshot(own) == snapshot(fast) and own_draws.getstate() == draws.getstate()


@needs_kernel
@pytest.mark.parametrize("implementation", ["kernel", fastpath.READABLE])
def test_a_playout_one_step_from_the_end_is_won_by_the_mover(implementation):
    """Three pawns home, the fourth three spaces short, the mover holding a 1 and a 2:
    every complete play brings it home (a step with one die leaves the other playable)."""
    for rules_name in ("seed", "standard"):
        state = game.new_game(MODELS[rules_name], 2)
        state.seat = 1
        state.turns = 57
        state.pawns[state.colour] = [HOME, HOME, HOME, HOME - 3]
        state.pawns[state.seats[0]] = [rules.NEST, 5, 30, 60]
        state.apply((1, 2))
        assert [p.own for p in state.legal_actions()] == [(HOME,) * 4]
        with fastpath.using(implementation):
            mcts.playout(state, random.Random(1), state.turns + 40)
        assert state.outcome() is not None
        assert state.ended == game.Termination.HOME and state.winner == 1
        assert state.turns == 58 and state.seat == 0 and state.dice is None


@needs_kernel
@pytest.mark.parametrize("implementation", ["kernel", fastpath.READABLE])
def test_a_playout_stops_at_the_turn_given_and_leaves_a_finished_game_alone(implementation):
    state = mid_game("seed", 4, 3, 80)
    with fastpath.using(implementation):
        mcts.playout(state, random.Random(2), state.turns + 5)
    assert state.ended is None and state.dice is None
    assert len(state.leaders) == state.turns
    ended = mid_game("seed", 2, 4, 10_000)
    assert ended.is_terminal()
    before = snapshot(ended)
    with fastpath.using(implementation):
        mcts.playout(ended, random.Random(2), ended.turns + 5)
    assert snapshot(ended) == before


@needs_kernel
def test_the_kernel_refuses_a_position_that_is_not_a_game_under_way():
    state = mid_game("seed", 2, 5, 30)
    board = engine._boards(state.model)
    packed = {**compiled.position(state), "seat": 0, "turns": 10, "a": 0, "b": 0}
    assert engine._kernel.playout(board, packed, 20, 1)["turns"] >= 11
    for field, bad in (("doubles", 3), ("a", 7), ("max_turns", -1)):
        with pytest.raises(ValueError, match=f"position field {field}: out of range"):
            engine._kernel.playout(board, {**packed, field: bad}, 20, 1)
    with pytest.raises(ValueError, match="not a position of a game under way"):
        engine._kernel.playout(board, {**packed, "seat": 2}, 20, 1)  # two seats
    with pytest.raises(ValueError, match="position field explore: out of range"):
        engine._kernel.playout(board, {**packed, "explore": 101}, 20, 1)
    with pytest.raises(ValueError, match="position field explore: missing"):
        engine._kernel.playout(board, {k: v for k, v in packed.items() if k != "explore"}, 20, 1)
    with pytest.raises(ValueError, match="off its path"):
        engine._kernel.playout(board, {**packed, "pawns": [0, 0, 0, HOME + 1] + [-1] * 12}, 20, 1)


@needs_kernel
def test_the_kernel_lists_the_readable_rules_results():
    """A roll's results listed by the kernel (`compiled.results`, which the state takes
    through `pnp.play.fastpath`) are the readable rules' own: the same positions, in order."""
    for players in (2, 4):
        rng = random.Random(players)
        state = engine.new_state(MODELS["standard"], players)
        while not state.is_terminal() and state.turns < 60:
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            listed = compiled.results(state)
            assert listed == tuple(rules.allowed_positions(state, state.dice))
            assert state.legal_actions() == listed
            with fastpath.using(fastpath.READABLE):
                slow = state.clone()
                slow._offered = None
                assert slow.legal_actions() == listed
            state.apply(state.random_action(rng))


def homogeneity_p(a: Counter, b: Counter) -> float:
    """The chi-square test of two samples drawn from one law (categories seen in either)."""
    cells = sorted(set(a) | set(b), key=str)
    na, nb = sum(a.values()), sum(b.values())
    stat = 0.0
    for cell in cells:
        total = a[cell] + b[cell]
        for count, n in ((a[cell], na), (b[cell], nb)):
            expected = total * n / (na + nb)
            stat += (count - expected) ** 2 / expected
    return chi_square_sf(stat, len(cells) - 1) if len(cells) > 1 else 1.0


def result(state: game.State, start: int) -> tuple[int | None, int]:
    """A finished playout's winner and how long it took, in buckets of 8 turns."""
    return state.winner, min((state.turns - start) // 8, 3)


@pytest.mark.slow
@needs_kernel
@pytest.mark.parametrize(
    ("rules_name", "players", "seed", "steps"),
    [
        pytest.param("seed", 2, 1, 130, marks=pytest.mark.long),
        ("standard", 2, 2, 121),
        pytest.param("seed", 3, 4, 181, marks=pytest.mark.long),
    ],
)
def test_kernel_playouts_follow_the_law_of_the_readable_play(rules_name, players, seed, steps):
    """From mid-game positions, the winners and lengths of 250 kernel playouts and of 250
    readable-rules playouts (independent draws) agree (chi-square, 0.1 % level)."""
    start = mid_game(rules_name, players, seed, steps)
    assert not start.is_terminal()
    kernel, readable = Counter(), Counter()
    draws = random.Random(seed)
    for _ in range(250):
        state = start.clone()
        compiled.playout(state, draws, rules.MAX_TURNS)
        kernel[result(state, start.turns)] += 1
        state = start.clone()
        game.play_guided(state, draws, rules.MAX_TURNS, game.PLAYOUT_EXPLORE)
        readable[result(state, start.turns)] += 1
    assert homogeneity_p(kernel, readable) > 0.001
    assert len(kernel) > 2  # the test can tell laws apart: the results vary


def test_the_guided_player_takes_greedys_capture_unless_its_draw_says_random():
    """Red holds a 3 with one pawn on progress 10, three behind a lone yellow pawn on a
    plain space (red's 13, track space 18): moving there captures, and earns 20 spaces
    for that pawn. Greedy always takes it; the guided player takes it too, except in the
    share of its choices it makes at random among all the results."""
    state = game.new_game(MODELS["seed"], 4)
    state.pawns[rules.seat_colours(4)[0]] = [10, 30, rules.NEST, rules.NEST]
    yellow = MODELS["seed"].paths[3].index(MODELS["seed"].paths[0][13])
    state.pawns[3] = [yellow, rules.NEST, rules.NEST, rules.NEST]
    state.apply((3, 3))  # 3, 3, 4, 4: a double, to give several results
    capture = [a for a in state.legal_actions() if a.captured]
    assert capture and len(state.legal_actions()) > len(capture)
    greedy = {game.guided_action(state, random.Random(s), 0) for s in range(50)}
    assert greedy <= set(capture)
    drawn = Counter(game.guided_action(state, random.Random(s), 50) in capture for s in range(400))
    share = len(capture) / len(state.legal_actions())
    assert abs(drawn[True] / 400 - (0.5 + 0.5 * share)) < 0.1
    anyhow = Counter(
        game.guided_action(state, random.Random(s), 100) in capture for s in range(400)
    )
    assert abs(anyhow[True] / 400 - share) < 0.1
