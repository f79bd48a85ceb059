"""How fast the Home in One Piece engine plays, per bot, on the default kit.

A benchmark, not a test: it reports games per CPU second of this process, which depends on
the machine and its load. The random bot is slower because its games run much longer.
"""

from __future__ import annotations

import random
import time

from pnp.games.home_in_one_piece import engine
from pnp.games.home_in_one_piece.params import HomeInOnePieceParams


def bench(games: int = 200, seed: int = 1) -> list[tuple[str, str]]:
    """(setting, games per second) for each bot, two players, default kit."""
    model = engine.prepare(HomeInOnePieceParams(), 2)
    rows = []
    for bot in engine.BOTS:
        start = time.process_time()
        turns = 0
        for i in range(games):
            turns += engine.play_one(model, 2, bot, random.Random(f"{seed}:{i}")).turns
        spent = max(time.process_time() - start, 1e-9)
        rows.append(
            (
                f"home-in-one-piece, {bot} bot, 2 players",
                f"{games / spent:,.0f} games/s ({turns / games:.0f} turns a game)",
            )
        )
    return rows
