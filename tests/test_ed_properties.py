"""Exploding Dice over random games: invariants, the game-state API's laws, determinism,
fast path == readable rules (the kernel's own checks are in test_ed_kernel.py)."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.games import get_game
from pnp.games.exploding_dice import engine, rules
from pnp.games.exploding_dice.params import ExplodingDiceParams, play_model
from pnp.games.exploding_dice.rules import Step, Termination
from pnp.games.exploding_dice.rules.bots import make_bot
from pnp.play.forward import play
from pnp.play.state import CHANCE, TERMINAL
from pnp.reference import conformance

FAST = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

face_lists = st.lists(st.integers(1, 6), min_size=5, max_size=5).map(lambda fs: (1, *fs))


@st.composite
def kits(draw, per_die: bool = True) -> ExplodingDiceParams:
    """Any playable kit: custom faces (per colour or per die), arrows, stall rule, size."""
    faces = {}
    for colour in draw(st.sets(st.sampled_from(["red", "green", "blue", "purple"]))):
        if not per_die or draw(st.booleans()):
            faces[colour] = (draw(face_lists),)
        else:
            faces[colour] = tuple(draw(face_lists) for _ in range(4))
    return ExplodingDiceParams(
        n=draw(st.sampled_from([4, 4, 4, 6])),
        faces=faces,
        arrows=draw(st.sampled_from(["all", "pinwheel"])),
        stall=draw(st.sampled_from(["redraw", "skip"])),
    )


def check_invariants(state: rules.State, previous_scores: list[int]) -> None:
    dice = len(state.model.dice)
    on_grid = [d for d in state.grid if d is not None]
    assert sorted(on_grid + state.reserve) == list(range(dice))  # every die, exactly once
    assert all(a <= b for a, b in zip(previous_scores, state.scores, strict=True))
    for cell, d in enumerate(state.grid):
        assert (d is None) == (state.shown[cell] == 0)
        if d is not None:
            assert state.shown[cell] in state.model.dice[d].faces
            # after every turn no two neighbours show the same number (they exploded);
            # the fast engine relies on this
            for nb in state.board.neighbours[cell]:
                assert state.grid[nb] is None or state.shown[nb] != state.shown[cell]


def play_checked(params: ExplodingDiceParams, players: int, bot: str, seed: int) -> rules.State:
    """Play a game with the forward model, checking the invariants as each turn begins."""
    model = play_model(params)
    rng = random.Random(seed)
    state = rules.new_game(model, players, rng)
    scores = [list(state.scores)]

    def check(s: rules.State, action: int) -> None:
        if s.step is Step.COLOUR and not s.tried:  # a turn begins: the last one is over
            check_invariants(s, scores[-1])
            scores.append(list(s.scores))
            assert s.turns <= rules.MAX_TURNS

    play(state, make_bot(bot, model), rng, on_step=check)
    check_invariants(state, scores[-1])
    return state


@FAST
@given(kits(), st.integers(2, 4), st.integers(0, 2**32))
def test_random_games_keep_every_die_and_never_lose_points_and_end(params, players, seed):
    state = play_checked(params, players, "random", seed)
    assert isinstance(state.ended, Termination)
    assert len(state.leaders) == state.turns
    if state.ended is Termination.FIFTY:
        assert max(state.scores) >= rules.TARGET
    if state.ended is Termination.FULL:
        assert all(d is not None for d in state.grid)
    if state.ended is Termination.STALLED:
        assert params.stall == "skip"


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32))
def test_greedy_games_keep_the_invariants(players, seed):
    play_checked(ExplodingDiceParams(), players, "greedy", seed)


def snapshot(state: rules.State) -> tuple:
    """Everything a step may change, as plain values."""
    return (
        tuple(state.grid),
        tuple(state.shown),
        tuple(state.reserve),
        tuple(state.scores),
        tuple(state.leaders),
        tuple(state.tried),
        tuple(state.before),
        (state.seat, state.turns, state.quiet_turns, state.ended, state.step, state.options),
        (state.colour, state.die, state.face, state.first),
    )


@FAST
@given(kits(), st.integers(2, 4), st.booleans(), st.integers(0, 2**32))
def test_the_state_api_keeps_its_laws_over_random_games(params, players, two, seed):
    """Clones are independent, chance outcomes are a law and `sample_chance` draws from
    it, `random_action` is legal, and every game ends within the turn cap."""
    model = play_model(params)
    rng = random.Random(seed)
    state = engine.new_state(model, players, rng, two_colours=two and players == 2)
    steps = 0
    while state.current_player() != TERMINAL:
        steps += 1
        assert steps < 20 * rules.MAX_TURNS
        before = snapshot(state)
        twin = state.clone()
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            assert all(p > 0 for _, p in outcomes)
            assert len({a for a, _ in outcomes}) == len(outcomes)
            action = state.sample_chance(rng)
            assert action in [a for a, _ in outcomes]
        else:
            legal = state.legal_actions()
            assert legal and len(set(legal)) == len(legal)
            assert state.chance_outcomes() == []
            action = state.random_action(rng)
            assert action in legal
        assert snapshot(state) == before  # asking leaves the state as it was
        twin.apply(action)
        assert snapshot(state) == before  # the clone plays on its own
        state.apply(action)
        assert snapshot(state) == snapshot(twin)
    assert state.is_terminal() and state.legal_actions() == []
    out = state.outcome()
    assert out is not None and out.termination is state.ended
    assert out.winners == state.record().winners
    assert state.turns <= rules.MAX_TURNS


@FAST
@given(kits(per_die=False), st.integers(2, 4), st.booleans(), st.integers(0, 2**32))
def test_fast_engine_plays_the_same_game_as_the_reference(params, players, two, seed):
    two = two and players == 2
    model = play_model(params)
    assert engine._tables(model) is not None  # the fast path really runs
    fast = engine.play_fast(model, players, "random", random.Random(seed), two_colours=two)
    ref = engine.play_one(model, players, "random", seed, two_colours=two, reference=True)
    assert fast == ref


@settings(max_examples=12, deadline=None)
@given(kits(per_die=False), st.integers(2, 4), st.integers(0, 2**32))
def test_fast_greedy_plays_the_same_game_as_the_reference(params, players, seed):
    model = play_model(params)
    fast = engine.play_fast(model, players, "greedy", random.Random(seed))
    assert fast == engine.play_one(model, players, "greedy", seed, reference=True)


def test_fast_and_reference_agree_game_by_game_on_the_default_kit():
    model = play_model(ExplodingDiceParams())
    for i in range(150):
        seed = f"7:{i}"
        assert engine.play_fast(model, 4, "random", random.Random(seed)) == engine.play_one(
            model, 4, "random", seed, reference=True
        )


def test_a_seed_fixes_the_game_and_different_seeds_differ():
    model = play_model(ExplodingDiceParams())
    a = [engine.play_one(model, 3, "random", f"1:{i}") for i in range(30)]
    b = [engine.play_one(model, 3, "random", f"1:{i}") for i in range(30)]
    assert a == b
    assert len({(r.turns, r.scores) for r in a}) > 10
    rng = random.Random("1:5")  # a reused generator gives the same game as the seed
    assert engine.play_one(model, 3, "random", rng) == a[5]


def test_end_reasons_and_lengths_look_like_the_game():
    """Loose sanity bounds over 400 random games (the README has the real numbers)."""
    model = play_model(ExplodingDiceParams())
    records = [engine.play_one(model, 4, "random", f"3:{i}") for i in range(400)]
    ends = Counter(r.end for r in records)
    assert set(ends) <= {"fifty", "full"} and ends["fifty"] > 300
    mean = sum(r.turns for r in records) / len(records)
    assert 10 < mean < 40
    for r in records:
        assert len(r.leaders) == r.turns
        assert max(r.scores) == r.scores[r.winners[0]]


def test_the_conformance_data_plays_both_the_fast_path_and_the_readable_rules():
    """`tests/test_conformance.py` checks `play_one` on every recorded game: worth it only if
    the data holds kits of both kinds (uniform faces: tables; per-die faces: readable rules)."""
    game = get_game("exploding-dice")
    path = Path(__file__).parent / "conformance" / "exploding-dice.json"
    entries = json.loads(path.read_text(encoding="utf-8"))["games"]
    fast = {engine._tables(conformance.model_of(game, e)) is not None for e in entries}
    assert fast == {True, False}
