"""Building Community bots for the reference engine.

Both read only the public position (the board, the pawns, whose turn it is) and the legal
moves: players may not signal plans, so no bot knows what its partners intend. `random`
is the behaviour two engines must agree on: `rng.choice` over the canonical move list.
`greedy` takes a move whose swap leaves the fewest isolated tiles on the whole board
(where the pawn then goes does not change that count); ties are uniform over the moves.
"""

from __future__ import annotations

import random

from pnp.games.building_community.rules import Move, State, isolated_cells, swapped
from pnp.outcome import bot_maker

BOT_NAMES = ("random", "greedy")


class RandomBot:
    name = "random"

    def choose(self, state: State, moves: list[Move], rng: random.Random) -> Move:
        return rng.choice(moves)


def isolated_after(state: State, move: Move) -> int:
    """Isolated tiles on the whole board once the move's swap is made."""
    return len(isolated_cells(state.model, swapped(state.tiles, move.swap)))


class GreedyBot:
    name = "greedy"

    def choose(self, state: State, moves: list[Move], rng: random.Random) -> Move:
        pairs = dict.fromkeys(m.swap for m in moves)  # each swap once, in move order
        left = {pair: isolated_after(state, Move(pair, 0)) for pair in pairs}
        fewest = min(left.values())
        return rng.choice([m for m in moves if left[m.swap] == fewest])


make_bot = bot_maker({"random": RandomBot, "greedy": GreedyBot})
