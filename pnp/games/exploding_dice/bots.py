"""Exploding Dice bots for the reference engine.

`random` is the reference behaviour two engines must agree on: every choice the rules
leave to a player is uniform over the allowed options. `greedy` looks one placement
ahead: it takes the entry that maximises its own colours' points this turn minus the
best opponent's (ties uniform); its colour choices are uniform, like `random`'s.
"""

from __future__ import annotations

import random

from pnp.chance import below, pick
from pnp.games.exploding_dice.rules import State, preview_gains
from pnp.outcome import bot_maker

BOT_NAMES = ("random", "greedy")


class RandomBot:
    """Uniform over every allowed option."""

    name = "random"

    def choose_colour(self, state: State, options: list[int], rng: random.Random) -> int:
        return pick(rng, options)

    def choose_entry(
        self, state: State, die: int, face: int, options: list[int], rng: random.Random
    ) -> int:
        """Uniform by rejection: draw any entry until it is a legal one. The same law as
        `pick`, but the fast engine can draw it without listing every legal entry."""
        allowed = set(options)
        while True:
            e = below(rng, len(state.board.lines))
            if e in allowed:
                return e


def entry_value(state: State, entry: int, die: int, face: int) -> int:
    """Own colours' gain this turn minus the best opponent's, if the die goes in here."""
    gains = preview_gains(state, entry, die, face)
    per_seat = [sum(gains[c] for c in cs) for cs in state.owners]
    mine = per_seat[state.seat]
    others = [v for s, v in enumerate(per_seat) if s != state.seat]
    return mine - max(others)


class GreedyBot(RandomBot):
    """One-ply greedy placement; colour choices stay uniform."""

    name = "greedy"

    def choose_entry(
        self, state: State, die: int, face: int, options: list[int], rng: random.Random
    ) -> int:
        if len(options) == 1:
            return options[0]
        values = [entry_value(state, e, die, face) for e in options]
        best = max(values)
        return pick(rng, [e for e, v in zip(options, values, strict=True) if v == best])


make_bot = bot_maker({"random": RandomBot, "greedy": GreedyBot})
