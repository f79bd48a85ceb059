"""Parcheesi's bots: the generic ones of `pnp.play.forward`, and the greedy bot's evaluation.

`random` is the reference behaviour every engine must agree on (decision 13): it rolls
both dice and picks uniformly among the distinct results the rules allow, from the list
in `Position` order (where the model lets the mover choose its dice, `random` picks
uniformly there too, as it does at every choice). `greedy` always rolls both dice (a
lone pawn hunting an exact count home has a better chance with two: a die showing it, two
values adding up to it, a double's bottom faces) and ranks the results: most captures,
then most progress, then most pawns safe; ties are broken uniformly, as `random` does.
"""

from __future__ import annotations

from collections.abc import Callable

from pnp.games.parcheesi.rules.model import PlayModel
from pnp.games.parcheesi.rules.state import Action, State
from pnp.games.parcheesi.rules.state import greedy_value as rated
from pnp.play.forward import GreedyBot, RandomBot
from pnp.play.outcome import bot_maker
from pnp.play.state import Bot
from pnp.play.state import State as GameState

BOT_NAMES = ("random", "greedy")


def greedy_value(state: GameState[Action], action: Action) -> float:
    """`state.greedy_value`: a result by `rank.rank_value`, both dice above one."""
    assert isinstance(state, State)
    return rated(state, action)


_BOTS: dict[str, Callable[[], Bot[State]]] = {
    "random": RandomBot,
    "greedy": lambda: GreedyBot(greedy_value),
}
_make = bot_maker(_BOTS)


def make_bot(name: str, model: PlayModel | None = None) -> Bot[State]:
    """A new bot of that name for every seat (a ValueError names the bots)."""
    return _make(name)
