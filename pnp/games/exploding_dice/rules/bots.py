"""Exploding Dice bots: the generic random and greedy bots, and greedy's evaluation.

`random` is the reference behaviour every implementation must agree on: every choice the
rules leave to a player is uniform over the allowed options. `greedy` looks one placement
ahead: it takes the entry that maximises its own colours' points this turn minus the best
opponent's (ties uniform); its colour choices are uniform, like `random`'s.
"""

from __future__ import annotations

from collections.abc import Callable

from pnp.games.exploding_dice.params import PlayModel
from pnp.games.exploding_dice.rules import State, Step, preview_gains
from pnp.play import state as api
from pnp.play.forward import GreedyBot, RandomBot
from pnp.play.outcome import bot_maker

BOT_NAMES = ("random", "greedy")


def entry_value(state: State, entry: int, die: int, face: int) -> int:
    """Own colours' gain this turn minus the best opponent's, if the die goes in here."""
    gains = preview_gains(state, entry, die, face)
    per_seat = [sum(gains[c] for c in cs) for cs in state.owners]
    mine = per_seat[state.seat]
    others = [v for s, v in enumerate(per_seat) if s != state.seat]
    return mine - max(others)


def evaluate(state: api.State[int], action: int) -> float:
    """Greedy's rating of an action: an entry's margin; every colour rates the same."""
    assert isinstance(state, State)
    if state.step is Step.ENTRY:
        return entry_value(state, action, state.die, state.face)
    return 0


_BOTS: dict[str, Callable[[], api.Bot[State]]] = {
    "random": RandomBot,
    "greedy": lambda: GreedyBot(evaluate),
}
_make = bot_maker(_BOTS)


def make_bot(name: str, model: PlayModel) -> api.Bot[State]:
    """A new bot of that name (a ValueError for an unknown one); every kit plays the same
    bots, so `model` is not needed."""
    return _make(name)
