"""Benchmark: complete Desert Home games per second, random and greedy bots.

Run as ``python -m pnp.games.desert_home.bench``. A benchmark, not a test: the numbers
depend on the machine and what else runs on it, so each line gives games per wall-clock
second over the worker processes and games per CPU second (what an idle core would give).
Game i is seeded ``"1:i"`` as the simulation runner seeds it. Random games run in the
compiled kernel (and, on a line of their own, on the readable rules pnp falls back to
without a C compiler), greedy ones on the readable rules (see `engine`). As the simulation
runner does, the parent builds the kernel's board (`engine.warm`, counted in the time)
before it forks the workers, which inherit it.
"""

from __future__ import annotations

import random
import resource
import time
from concurrent.futures import ProcessPoolExecutor

from pnp.games.desert_home import engine
from pnp.games.desert_home.params import DesertHomeParams

GAMES = {"random": 4000, "greedy": 300, "random, readable rules": 100}
"""Games per setting; the readable rules are the fallback without the compiled kernel."""
JOBS = 2


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the pool's workers)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def play_range(setting: str, start: int, stop: int) -> int:
    """Play games start..stop-1 of the default kit; returns how many."""
    model = engine.prepare(DesertHomeParams(), 2)
    bot, _, path = setting.partition(", ")
    for i in range(start, stop):
        engine.play_one(model, 2, bot, random.Random(f"1:{i}"), reference=bool(path))
    return stop - start


def games_per_second(setting: str, games: int, jobs: int) -> tuple[float, float]:
    """(games per wall-clock second, games per CPU second) over `jobs` fresh processes."""
    chunk = max(1, games // (jobs * 8))
    cuts = [(i, min(games, i + chunk)) for i in range(0, games, chunk)]
    wall, cpu = time.perf_counter(), _cpu()
    model = engine.prepare(DesertHomeParams(), 2)
    engine.warm(model)  # as the runner: the workers inherit it
    with ProcessPoolExecutor(jobs) as pool:
        done = sum(pool.map(play_range, [setting] * len(cuts), *zip(*cuts, strict=True)))
    wall, cpu = time.perf_counter() - wall, _cpu() - cpu
    assert done == games
    return games / wall, games / cpu


def bench(games: dict[str, int] | None = None, jobs: int = JOBS) -> list[tuple[str, str]]:
    """(what, result) lines: each bot's complete games per second with `jobs` processes."""
    rows = []
    for setting, n in (games or GAMES).items():
        if setting.endswith("readable rules") and engine._kernel is None:
            continue  # that is the random line already
        rate, per_cpu = games_per_second(setting, n, jobs)
        rows.append(
            (
                f"desert-home {setting}, {n} games, {jobs} processes",
                f"{rate:,.0f} games/s wall clock ({per_cpu:,.0f} per CPU second)",
            )
        )
    return rows


if __name__ == "__main__":
    for what, result in bench():
        print(f"{what}: {result}")
