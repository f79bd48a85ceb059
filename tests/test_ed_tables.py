"""Exploding Dice's fast tables on large grids: a line longer than `EAGER_LINE` works its
pushes out as play meets them, and gives exactly what the whole enumeration gives, so a
16 x 16 grid prepares at once and plays the same games as before; the readable rules
play the same game as the lazy tables."""

from __future__ import annotations

import random

import pytest

from pnp.games.exploding_dice import engine, rules
from pnp.games.exploding_dice.params import ExplodingDiceParams, play_model
from pnp.games.exploding_dice.rules.bots import make_bot
from pnp.play.forward import play


def _model(n: int):
    return play_model(ExplodingDiceParams(n=n))


@pytest.mark.parametrize("n", [10, 12])
def test_a_long_lines_lazy_pushes_are_its_enumerated_ones(n):
    board = rules.Board.of(_model(n))
    t = engine._Tables(_model(n))
    line = board.lines[0]
    assert len(line) > engine.EAGER_LINE
    table, bad = engine._Tables._line_tables(line, t.nbmask, t.zone)
    lazy_push, lazy_bad = t.push[0], t.checks[0][1]
    for occ in bad:  # every occupancy of the line's cells
        assert lazy_bad[occ] == bad[occ]
        assert lazy_push[occ] == table.get(occ)


def test_a_16_grid_prepares_without_enumerating_its_lines():
    t = engine._Tables(_model(16))
    assert all(len(p) == 0 for p in t.push)  # nothing worked out before play asks


def test_a_lines_memory_is_bounded():
    memo = engine._Memo(lambda k: k * 2, cap=8)
    for k in range(100):
        assert memo[k] == 2 * k
        assert len(memo) <= 8


@pytest.mark.parametrize("bot", ["random", "greedy"])
@pytest.mark.parametrize("seed", range(3))
def test_the_lazy_tables_play_the_readable_rules_game_on_a_10_grid(bot, seed):
    model = _model(10)
    fast = engine.play_fast(model, 3, bot, random.Random(seed))
    rng = random.Random(seed)
    state = engine.new_state(model, 3, rng)
    slow = play(state, make_bot(bot, model), rng).record(tuple(engine.COUNTERS))
    assert fast == slow
