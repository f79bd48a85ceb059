"""Home in One Piece bots: the generic random player, and the greedy planner's bot.

`random` is `pnp.play.forward.RandomBot`: the state's `random_action` draws its whole turn and
hands it out touch by touch (see `state.py`). `greedy` plays `greedy.take_turn`.

The greedy player is its own `pnp.play.state.Bot`, not `pnp.play.forward.GreedyBot(evaluate)`: its
turn is a plan of several touches, not a pick of one listed touch at a time. It plans the
rest of the turn on a copy of the state and hands the touches out one decision at a time
(`State.follow_plan`); from a turn under way it plans with the touches the roll has left.
"""

from __future__ import annotations

import random
from typing import Any

from pnp.games.home_in_one_piece.rules import greedy
from pnp.games.home_in_one_piece.rules.model import PlayModel
from pnp.games.home_in_one_piece.rules.state import Action, State
from pnp.play.forward import RandomBot
from pnp.play.state import Bot
from pnp.play.state import State as GameState

BOT_NAMES = ("random", "greedy")


class GreedyBot:
    name = "greedy"

    def choose(self, state: GameState[Any], rng: random.Random) -> Action:
        """The next touch of the turn `greedy.take_turn` plans (`State.follow_plan`)."""
        assert isinstance(state, State), "the greedy bot plays Home in One Piece only"
        return state.follow_plan("greedy", greedy.take_turn, rng)


def make_bot(name: str, model: PlayModel | None = None) -> Bot[Any]:
    """A new bot of that name (the model is not needed: both bots read it off the state)."""
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot()
    raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(BOT_NAMES)}")
