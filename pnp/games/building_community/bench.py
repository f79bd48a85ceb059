"""Building Community benchmark figures: solver positions per second, games per second.

A benchmark, not a test: figures depend on the machine and its load, so each is given
per CPU second of this process (what an otherwise idle core would do).
"""

from __future__ import annotations

import time

from pnp.games.building_community import engine, solver
from pnp.games.building_community.model import play_model
from pnp.games.building_community.params import BuildingCommunityParams


def _per_cpu_second(work) -> float:
    """Run `work()` (which returns a count) and give the count per CPU second."""
    start = time.process_time()
    count = work()
    return count / max(time.process_time() - start, 1e-9)


def _solve_nodes(radius: int, budget: int) -> int:
    return solver.solve(play_model(BuildingCommunityParams(radius=radius)), 2, budget).nodes


def _games(bot: str, games: int) -> int:
    model = play_model(BuildingCommunityParams())
    engine.warm(model)
    for i in range(games):
        engine.play_one(model, 2, bot, f"bench:{i}")
    return games


def bench() -> list[tuple[str, str]]:
    """(label, figure) rows for `make bench`."""
    rows = [  # R=2 is mostly the breadth-first proof, R=3 the best-first passes
        ("building-community solver (R=2, 2 players, solved)", lambda: _solve_nodes(2, 10**7)),
        ("building-community solver (R=3, 2 players)", lambda: _solve_nodes(3, 200_000)),
    ]
    out = [(label, f"{_per_cpu_second(work):,.0f} positions/s") for label, work in rows]
    for bot in engine.BOTS:
        rate = _per_cpu_second(lambda b=bot: _games(b, 2000))
        out.append((f"building-community {bot} games (R=3, 2 players)", f"{rate:,.0f} games/s"))
    return out
