"""Parcheesi's bots: the generic ones of `pnp.forward`, and the greedy bot's evaluation.

`random` is the reference behaviour every engine must agree on (decision 13): it rolls
both dice and picks uniformly among the distinct results the rules allow, from the list
in `Position` order. `greedy` also rolls both dice (rolling one die only lowers the
chance of an exact count home under these rules) and ranks the results: most captures,
then most progress, then most pawns safe; ties are broken uniformly, as `random` does.
"""

from __future__ import annotations

from collections.abc import Callable

from pnp.forward import GreedyBot, RandomBot
from pnp.games.parcheesi.model import PlayModel
from pnp.games.parcheesi.rules import NEST, PAWNS, Position
from pnp.games.parcheesi.state import Action, State
from pnp.outcome import bot_maker
from pnp.state import Bot
from pnp.state import State as GameState

BOT_NAMES = ("random", "greedy")


def safe_pawns(model: PlayModel, colour: int, own: tuple[int, ...]) -> int:
    """Pawns no opponent can capture next turn: on a safe space, in the strip or home,
    or in a blockade. Nest pawns do not count."""
    path = model.paths[colour]
    strip = model.paths[colour].index(model.home_entry[colour]) + 1
    count = 0
    for p in own:
        if p == NEST:
            continue
        if p >= strip or model.safe[path[p]] or own.count(p) == 2:
            count += 1
    return count


def greedy_rank(model: PlayModel, colour: int, position: Position) -> tuple[int, int, int]:
    """(captures, total progress, safe pawns): bigger is better, in this order."""
    return (
        position.captured.bit_count(),
        sum(position.own),
        safe_pawns(model, colour, position.own),
    )


def greedy_value(state: GameState[Action], action: Action) -> float:
    """`greedy_rank` of a result for the mover as one number that orders as the rank does:
    progress (-4 .. 4 home) and safe pawns (0 .. 4) are digits below the captures."""
    assert isinstance(state, State) and isinstance(action, Position)
    captures, progress, safe = greedy_rank(state.model, state.colour, action)
    span = PAWNS * (state.model.home + 1) + 1  # the values progress can take
    return float((captures * span + progress + PAWNS) * (PAWNS + 1) + safe)


_BOTS: dict[str, Callable[[], Bot[State]]] = {
    "random": RandomBot,
    "greedy": lambda: GreedyBot(greedy_value),
}
_make = bot_maker(_BOTS)


def make_bot(name: str, model: PlayModel | None = None) -> Bot[State]:
    """A new bot of that name for every seat (a ValueError names the bots)."""
    return _make(name)
