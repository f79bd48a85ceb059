"""Desert Home sizes each mcts decision's playouts (`engine.mcts_sizing`): a decision with
fewer than ten actions gets a tenth of the budget per action, one with more than six
points left in the turn gets the budget scaled by six over those points, and no decision
spends more than 300 actions rated per playout of the budget, a playout reckoned at 150
plus its actions times the points in hand (4 where none are: a reroll); the readable
and the compiled search spend the same playouts and give the same visits. The positions
are taken from seed 2's greedy game."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

from pnp.games.desert_home import engine
from pnp.games.desert_home.fast import kernel as compiled
from pnp.games.desert_home.params import DesertHomeParams
from pnp.games.desert_home.rules import P_INFLUX, P_INFLUX_COLOUR, P_REROLL, P_SPEND
from pnp.games.desert_home.rules.state import State
from pnp.play.state import CHANCE
from pnp.sim.seats import mcts_bot

MODEL = engine.prepare(DesertHomeParams(), 2)
BUDGET = 40
WORK = BUDGET * 300
"""The work (actions rated, estimated) a decision's playouts may spend in all."""


def capped(state: State, playouts: int) -> int:
    """`playouts`, or fewer where their estimated work passes `WORK`."""
    actions, points = len(state.legal_actions()), state.points or 4
    return min(playouts, WORK // (150 + actions * points))


def first(found: Callable[[State], bool], seed: int = 2) -> State:
    """The first decision of seed `seed`'s greedy game where `found` holds."""
    rng = random.Random(seed)
    state = engine.new_state(MODEL, 2, rng)
    greedy = engine.make_bot("greedy", MODEL)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        if found(state):
            return state
        state.apply(greedy.choose(state, rng))
    raise AssertionError("no such decision in the game")


def spent(state: State, compiled_search: bool) -> dict[object, int]:
    bot = mcts_bot(engine, BUDGET)
    bot.compiled = compiled_search
    return bot.search(state.clone(), random.Random(5))


CASES = {
    "influx colour, 2 actions": (
        lambda s: s.phase == P_INFLUX_COLOUR and len(s.legal_actions()) == 2,
        math.ceil(BUDGET * 2 / 10),
    ),
    "influx field, 3 actions": (
        lambda s: s.phase == P_INFLUX and len(s.legal_actions()) == 3,
        math.ceil(BUDGET * 3 / 10),
    ),
    "spending, 12 points, 10 actions or more": (
        lambda s: s.phase == P_SPEND and s.points == 12 and len(s.legal_actions()) >= 10,
        math.ceil(BUDGET * 6 / 12),
    ),
    "spending, 6 points or fewer, 10 actions or more, within the work": (
        lambda s: (
            s.phase == P_SPEND
            and 0 < s.points <= 6
            and 10 <= len(s.legal_actions()) <= 150 // s.points
        ),
        BUDGET,
    ),
    "spending, 6 points or fewer, work over the cap": (
        lambda s: (
            s.phase == P_SPEND and 0 < s.points <= 6 and len(s.legal_actions()) * s.points > 150
        ),
        None,
    ),
    "spending, more than 6 points, work over the cap": (
        lambda s: (
            s.phase == P_SPEND and s.points > 6 and len(s.legal_actions()) > 50 - 150 / s.points
        ),
        None,
    ),
    "reroll, no points in hand": (
        lambda s: s.phase == P_REROLL and len(s.legal_actions()) == 64,
        BUDGET * 300 // (150 + 64 * 4),
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_a_decision_spends_its_sized_budget(case: str) -> None:
    found, playouts = CASES[case]
    state = first(found)
    if playouts is None:  # the cap decides, below the budget the rest of the rule gives
        points = max(state.points, 6)
        playouts = capped(state, math.ceil(BUDGET * 6 / points))
        assert playouts < math.ceil(BUDGET * 6 / points)
    readable = spent(state, compiled_search=False)
    assert sum(readable.values()) == playouts  # each playout passes one root action
    if compiled._kernel is not None:
        assert spent(state, compiled_search=True) == readable
