"""Parcheesi's compiled kernel plays the reference rules: roll by roll and game by game.

The kernel (`pnp/games/parcheesi/_kernel.c`) is what every simulation runs. It is checked
three ways against the readable rules (`rules.py`) and the Python fast path: the allowed
results of the hand-made tricky rolls, the allowed results of every roll met in random
reference games, and whole games from the same seed (records and the generator after;
`test_parcheesi_properties.py` adds random seeds through all three engines).
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_parcheesi_properties import MODELS, TRICKY

from pnp.games.parcheesi import engine, rules
from pnp.games.parcheesi.bots import make_bot

N = rules.NEST
pytestmark = pytest.mark.skipif(
    engine._kernel is None and not os.environ.get("CI"),
    reason="pnp was installed without a C compiler: the kernel was not built",
)  # in CI a kernel that did not build fails `test_compiled.py`


def kernel_results(state: rules.State, dice: tuple[int, int]) -> list[tuple[tuple, int]]:
    t = engine._tables(state.model)
    pawns = [state.pawns[c] for c in range(4)]
    return engine._kernel.results(t.board, state.seats, pawns, state.colour, *dice, t.standard)


def reference_results(state: rules.State, dice: tuple[int, int]) -> list[tuple[tuple, int]]:
    return [(p.own, p.captured) for p in rules.allowed_positions(state, dice)]


@pytest.mark.parametrize("rules_name", ["seed", "standard"])
@pytest.mark.parametrize(("pawns", "mover", "dice"), TRICKY)
def test_kernel_roll_results_match_the_reference_on_tricky_positions(
    rules_name, pawns, mover, dice
):
    state = rules.new_game(MODELS[rules_name], 4)
    for c in state.seats:
        state.pawns[c] = list(pawns.get(c, [N] * 4))
    state.seat = state.seats.index(mover)
    assert kernel_results(state, dice) == reference_results(state, dice)


def doubled(own: tuple[int, ...], home: int) -> set[int]:
    """The board spaces holding two of the mover's pawns."""
    return {p for p in own if 0 <= p < home and own.count(p) == 2}


def test_a_start_blockade_stays_broken_in_the_kernel():
    """Decision 8 by hand: double 3s give 3, 3, 4, 4. The blockade on 20 may stay, but once
    it opens its pawns may not stand together again (26 + 26, 27 + 27, 28 + 28 are out),
    while two pawns that start apart (20 and 21) may meet: 20 + 4 = 21 + 3."""
    home = MODELS["seed"].home
    state = rules.new_game(MODELS["seed"], 2)
    state.pawns[0] = [20, 20, 40, home]
    locked = kernel_results(state, (3, 3))
    assert locked == reference_results(state, (3, 3))
    assert ((20, 20, 54, home), 0) in locked
    assert all(doubled(own, home) <= {20} for own, _ in locked)
    state.pawns[0] = [20, 21, 40, home]
    free = kernel_results(state, (3, 3))
    assert free == reference_results(state, (3, 3))
    assert ((24, 24, 47, home), 0) in free


@settings(max_examples=8, deadline=None)
@given(
    st.sampled_from(["seed", "standard"]),
    st.integers(2, 4),
    st.integers(0, 2**32),
)
def test_kernel_roll_results_match_the_reference_in_random_games(rules_name, players, seed):
    """Every roll of a reference game (up to 60 turns), compared before it is played."""
    state = rules.new_game(MODELS[rules_name], players)
    rng, bot = random.Random(seed), make_bot("random")
    dice_rng = random.Random(seed + 1)
    while state.ended is None and state.turns < 60:
        dice = (rules.roll_die(dice_rng), rules.roll_die(dice_rng))
        assert kernel_results(state, dice) == reference_results(state, dice)
        rules.play_turn(state, bot, rng)


SETTINGS = [
    (r, p, b) for r in ("seed", "standard") for p in (2, 3, 4) for b in ("random", "greedy")
]


@pytest.mark.parametrize(("rules_name", "players", "bot"), SETTINGS)
def test_kernel_and_python_path_play_the_same_games(rules_name, players, bot):
    model = MODELS[rules_name]
    for i in range(6):
        a, b = random.Random(f"k:{i}"), random.Random(f"k:{i}")
        assert engine.play_one(model, players, bot, a) == engine.play_one(
            model, players, bot, b, compiled=False
        )
        assert a.getstate() == b.getstate()  # the very same draws, the generator handed back


def test_the_kernel_refuses_what_it_cannot_play():
    t = engine._tables(MODELS["seed"])
    kernel = engine._kernel
    with pytest.raises(ValueError):
        kernel.board([[0, 1]] * 3, [False] * 4, [1] * 4)  # three colours
    with pytest.raises(ValueError):
        kernel.board([[0, 9]] * 4, [False] * 4, [1] * 4)  # a node off the board
    with pytest.raises(ValueError):
        kernel.play(t.board, (0, 2), False, False, 1000, (1, 2, 3))  # not a twister state
    with pytest.raises(ValueError):
        kernel.play(t.board, (0, 0), False, False, 1000, random.Random(1).getstate()[1])
    with pytest.raises(ValueError):
        kernel.results(t.board, (0, 2), [[N] * 4] * 4, 1, 5, 6, False)  # the mover not seated
    with pytest.raises(ValueError):
        kernel.results(t.board, (0, 2), [[N] * 4] * 4, 0, 0, 6, False)  # a die showing 0
