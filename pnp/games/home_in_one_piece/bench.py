"""How fast the Home in One Piece engine plays, per bot, on the default kit: the compiled
kernel beside the readable rules it reproduces (the anchor: the only engine before the
kernel), and the issue's target of ten times the anchor.

A benchmark, not a test: it reports games per second of this process, which depends on
the machine and its load; both sides play the same seeds in one run. The random bot is
slower because its games run much longer.
"""

from __future__ import annotations

import random

from pnp.games.home_in_one_piece import engine
from pnp.games.home_in_one_piece.fast import kernel as compiled
from pnp.games.home_in_one_piece.params import HomeInOnePieceParams
from pnp.games.home_in_one_piece.rules.model import PlayModel
from pnp.runtime.rates import Rate, timed

TARGET = 10.0  # times the readable rules' games per second (issue 22)


def rate(model: PlayModel, bot: str, games: int, seed: int, reference: bool) -> tuple[Rate, int]:
    """(games per second, turns played) over `games` seeds, in this process."""
    turns = 0
    with timed(children=False) as span:
        for i in range(games):
            rng = random.Random(f"{seed}:{i}")
            turns += engine.play_one(model, 2, bot, rng, reference=reference).turns
    return span.rate(games), turns


def bench(games: int = 200, seed: int = 1) -> list[tuple[str, str]]:
    """(setting, games per second) for each bot, two players, default kit."""
    model = engine.prepare(HomeInOnePieceParams(), 2)
    rows = []
    for bot in engine.BOTS:
        slow, turns = rate(model, bot, max(games // 10, 10), seed, reference=True)
        label = f"home-in-one-piece, {bot} bot, 2 players"
        rows.append(
            (
                f"{label}, readable rules (anchor)",
                f"{slow.text()}, {turns / max(games // 10, 10):.0f} turns a game",
            )
        )
        if not compiled.available():
            rows.append((f"{label}, compiled kernel", "not built"))
            continue
        fast, _ = rate(model, bot, games * 10, seed, reference=False)
        verdict = "met" if fast.cpu >= TARGET * slow.cpu else "NOT met"
        rows.append(
            (
                f"{label}, compiled kernel",
                f"{fast.text()} = {fast.cpu / slow.cpu:.0f}x the anchor per CPU second "
                f"(target {TARGET:g}x: {verdict})",
            )
        )
    return rows
