"""Parcheesi bots for the reference engine.

`random` is the reference behaviour both engines must agree on (decision 13): it always
rolls both dice and picks uniformly among the distinct results the rules allow, from the
list in `Position` order. `greedy` also rolls both dice (rolling one die only lowers the
chance of an exact count home under these rules) and ranks the results: most captures,
then most progress, then most pawns safe; ties are broken uniformly, as `random` does.
"""

from __future__ import annotations

import random

from pnp.chance import pick
from pnp.games.parcheesi.model import PlayModel
from pnp.games.parcheesi.rules import NEST, Position, State
from pnp.outcome import bot_maker

BOT_NAMES = ("random", "greedy")


class RandomBot:
    """Both dice, then a uniform choice among the allowed results."""

    name = "random"

    def dice_to_roll(self, state: State, rng: random.Random) -> int:
        return 2

    def choose(self, state: State, positions: list[Position], rng: random.Random) -> Position:
        return pick(rng, positions)


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


class GreedyBot(RandomBot):
    """Captures first, then progress, then safety; ties uniform."""

    name = "greedy"

    def choose(self, state: State, positions: list[Position], rng: random.Random) -> Position:
        if len(positions) == 1:
            return positions[0]
        ranks = [greedy_rank(state.model, state.colour, p) for p in positions]
        best = max(ranks)
        return pick(rng, [p for p, r in zip(positions, ranks, strict=True) if r == best])


make_bot = bot_maker({"random": RandomBot, "greedy": GreedyBot})
