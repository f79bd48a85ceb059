"""Desert Home's search sees thirst beyond its horizon: a hand-built position (pictures as in
test_dh_rules) where a group left on a black field dies at the end of the round, after the
rival's turn, which the search's one-turn playouts never reach. Priced by the cut-off value
(`value.THIRST_KEEP`), the search takes the group off; with thirst unpriced (every weight 1,
the search as it was) it takes a smaller gain elsewhere and leaves the group to die."""

from __future__ import annotations

import random

import pytest
from test_dh_rules import G, R, cell, in_refuge, position, spending

from pnp.games.desert_home import engine
from pnp.games.desert_home.fast import kernel as compiled
from pnp.games.desert_home.rules import BLACK, MOVE, THIRST, turn
from pnp.games.desert_home.rules import value as value_module
from pnp.games.desert_home.rules.state import State
from pnp.play.mcts import MctsBot
from pnp.play.memo import PerModel

# Seat 0's refuge entry holds a yellow; a red blocks the way west of three greens and a
# green tent standing on a thirst field, whose other sides (north, east) are safe tiles.
# Three reds in seat 1's refuge keep the seats near level, where the cut-off's reward
# tells small differences apart best.
BOARD = """
#    .    .    .      _  .
.Y1  .R1  tG3^1  .  _  .
#    _    _    _      _  .
.    _    _    _      _  .
#    _    _    _      _  .
"""
GREENS = cell(1, 2)


def doomed() -> State:
    """Round 3, seat 0 to spend one point on green or yellow; the greens have stood on the
    thirst field since round 1, so it turned black in round 2 and kills at the end of this
    round, after seat 1's turn."""
    state = position(BOARD)
    in_refuge(state, 1, R, 3)
    for _ in range(2):
        turn.end_round(state)
        turn.start_round(state)
    assert state.round == 3 and state.seat == 0
    assert state.tile[GREENS] == BLACK and state.deadline[GREENS] == state.round
    return spending(state, "GY", 1)


def search_choice(state: State, compiled_search: bool) -> tuple[int, ...]:
    """The mcts bot's choice as the game plays it (budget, horizon, exploration)."""
    bot = MctsBot(
        engine.MCTS_BUDGET,
        playout_turns=engine.PLAYOUT_TURNS,
        exploration=engine.MCTS_EXPLORATION,
        compiled=compiled_search,
    )
    action: tuple[int, ...] = bot.choose(state, random.Random(5))
    return action


needs_kernel = pytest.mark.skipif(compiled._kernel is None, reason="built without a C compiler")
SEARCHES = [
    pytest.param(True, marks=needs_kernel, id="compiled"),
    pytest.param(False, marks=pytest.mark.slow, id="readable"),  # a second a position
]


@pytest.mark.parametrize("compiled_search", SEARCHES)
def test_the_search_takes_a_group_off_a_black_field_before_it_dies(compiled_search):
    state = doomed()
    action = search_choice(state, compiled_search)
    kind, src, dst, *_ = action
    assert (kind, src) == (MOVE, GREENS), "the greens are left to die"
    assert state.tile[dst] not in (BLACK, THIRST)
    state.apply(action)
    assert state.colour[GREENS] == -1 and state.colour[dst] == G  # the whole group, tent too
    assert (state.figs[dst], state.tents[dst]) == (3, 1)


@pytest.mark.parametrize("compiled_search", SEARCHES)
def test_with_thirst_unpriced_the_search_leaves_the_group_to_die(compiled_search, monkeypatch):
    """The position tells the two searches apart: the old cut-off (every piece counted
    whole) rates taking the greens off below the yellow's step into the refuge that the one
    point also buys (or an entering figure)."""
    monkeypatch.setattr(value_module, "THIRST_KEEP", (1.0,))
    monkeypatch.setattr(compiled, "kernel_board", PerModel(compiled._build_kernel_board))
    state = doomed()
    action = search_choice(state, compiled_search)
    assert action[:2] != (MOVE, GREENS)
    state.apply(action)
    assert state.colour[GREENS] == G and state.tile[GREENS] == BLACK
