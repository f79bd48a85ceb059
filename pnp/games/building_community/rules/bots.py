"""Building Community bots: the generic random and greedy bots, and greedy's evaluation.

Both read only the public position (the board, the pawns, whose turn it is) and the legal
moves: players may not signal plans, so no bot knows what its partners intend. `random`
is the behaviour two engines must agree on: `rng.choice` over the canonical move list
(`rules.draw`). `greedy` takes a move whose swap leaves the fewest isolated tiles on the
whole board (where the pawn then goes does not change that count); ties are uniform over
the moves, drawn the same way (a forced move too: `rng.choice` over one move spends
randomness, as the fast path draws, and `forward.GreedyBot` draws it through `tie`).
"""

from __future__ import annotations

from collections.abc import Callable

from pnp.games.building_community import rules
from pnp.games.building_community.rules import Action, draw
from pnp.games.building_community.rules.model import PlayModel
from pnp.play import forward
from pnp.play.outcome import bot_maker
from pnp.play.state import Bot


def isolated_after(state: rules.State, move: rules.Move) -> int:
    """Isolated tiles on the whole board once the move's swap is made."""
    return len(rules.isolated_cells(state.model, rules.swapped(state.tiles, move.swap)))


def evaluate(state: rules.State, action: Action) -> float:
    """Greedy's rating of a move: fewer isolated tiles left is better."""
    assert isinstance(action, rules.Move)  # a pass is forced, never rated
    return -isolated_after(state, action)


BOTS: dict[str, Callable[[], Bot[rules.State]]] = {
    "random": forward.RandomBot,
    "greedy": lambda: forward.GreedyBot(evaluate, tie=draw),
}
_make = bot_maker(BOTS)
BOT_NAMES = tuple(BOTS)


def make_bot(name: str, model: PlayModel | None = None) -> Bot[rules.State]:
    """A bot by name (the model is not needed: the evaluation reads only the position);
    a ValueError names the bots for an unknown one."""
    return _make(name)
