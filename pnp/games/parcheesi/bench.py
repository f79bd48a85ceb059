"""Parcheesi speed: complete random-bot games per second of the fast engine, one core.

A benchmark, not a test: it reports CPU time (`time.process_time`), so other work on the
machine slows it less than it slows wall-clock figures. The runner splits games across
processes, so with n idle cores expect about n times these figures.
"""

from __future__ import annotations

import random
import time

from pnp.games.parcheesi import engine
from pnp.games.parcheesi.params import ParcheesiParams

SECONDS = 2.0  # CPU time per setting


def games_per_second(players: int, bot: str = "random", rules: str = "seed") -> tuple[float, float]:
    """(games per CPU second, mean turns) over about `SECONDS` of play, seeds 'bench:i'."""
    model = engine.prepare(ParcheesiParams(), players, rules=rules)
    engine.warm(model)
    games = turns = 0
    start = time.process_time()
    while time.process_time() - start < SECONDS:
        record = engine.play_one(model, players, bot, random.Random(f"bench:{games}"))
        games += 1
        turns += record.turns
    return games / (time.process_time() - start), turns / games


def bench() -> list[tuple[str, str]]:
    """(setting, result) rows: random games for 2, 3 and 4 players, greedy ones for 2 and
    4, and the other rules option."""
    rows = []
    for players, bot, rules in (
        (2, "random", "seed"),
        (3, "random", "seed"),
        (4, "random", "seed"),
        (2, "greedy", "seed"),
        (4, "greedy", "seed"),
        (4, "random", "standard"),
    ):
        rate, turns = games_per_second(players, bot, rules)
        label = f"parcheesi {players} players, {bot}, {rules} rules"
        rows.append((label, f"{rate:,.0f} games/s per core ({turns:.0f} turns a game)"))
    return rows


if __name__ == "__main__":
    for label, result in bench():
        print(f"{label}: {result}")
