"""Benchmark: complete Desert Home games per second, random and greedy bots.

Run as ``python -m pnp.games.desert_home.bench``. A benchmark, not a test: the numbers
depend on the machine and what else runs on it, so each line gives games per wall-clock
second over the worker processes and games per CPU second (what an idle core would give).
Game i is seeded ``"1:i"`` as the simulation runner seeds it. Random and greedy games run
in the compiled kernel (see `engine`); each also runs, on a line of its own in the same
run, on the readable rules pnp falls back to without a C compiler, which played every
greedy game before issue 22: the greedy kernel's line gives its speed-up over them beside
the target (at least `GREEDY_TARGET` times). As the simulation runner does, the parent
builds the kernel's board (`engine.warm`, counted in the time) before it forks the
workers, which inherit it.
"""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor

from pnp.games.desert_home import engine
from pnp.games.desert_home.params import DesertHomeParams
from pnp.runtime.rates import Rate, timed

GAMES = {
    "random": 4000,
    "greedy": 3000,
    "random, readable rules": 100,
    "greedy, readable rules": 300,
}
"""Games per setting; the readable rules are the fallback without the compiled kernel."""
JOBS = 2
GREEDY_TARGET = 5
"""Issue 22: greedy games on the fast path, at least this many times the readable rules'."""


def play_range(setting: str, start: int, stop: int) -> int:
    """Play games start..stop-1 of the default kit; returns how many."""
    model = engine.prepare(DesertHomeParams(), 2)
    bot, _, path = setting.partition(", ")
    for i in range(start, stop):
        engine.play_one(model, 2, bot, random.Random(f"1:{i}"), reference=bool(path))
    return stop - start


def games_per_second(setting: str, games: int, jobs: int) -> Rate:
    """Games per second over `jobs` fresh processes."""
    chunk = max(1, games // (jobs * 8))
    cuts = [(i, min(games, i + chunk)) for i in range(0, games, chunk)]
    with timed() as span:
        model = engine.prepare(DesertHomeParams(), 2)
        engine.warm(model)  # as the runner: the workers inherit it
        with ProcessPoolExecutor(jobs) as pool:
            done = sum(pool.map(play_range, [setting] * len(cuts), *zip(*cuts, strict=True)))
    assert done == games
    return span.rate(games)


def bench(games: dict[str, int] | None = None, jobs: int = JOBS) -> list[tuple[str, str]]:
    """(what, result) lines: each bot's complete games per second with `jobs` processes,
    then the greedy kernel's speed-up over the readable rules beside its target."""
    rows, rates = [], {}
    for setting, n in (games or GAMES).items():
        if setting.endswith("readable rules") and engine._kernel is None:
            continue  # that is the bot's line already
        rate = rates[setting] = games_per_second(setting, n, jobs)
        rows.append((f"desert-home {setting}, {n} games, {jobs} processes", rate.text()))
    fast, slow = rates.get("greedy"), rates.get("greedy, readable rules")
    if fast and slow:
        rows.append(
            (
                "desert-home greedy, kernel over the readable rules (issue 22)",
                f"{fast.wall / slow.wall:.1f}x wall clock, "
                f"{fast.cpu / slow.cpu:.1f}x per CPU second "
                f"(target: at least {GREEDY_TARGET}x)",
            )
        )
    return rows


if __name__ == "__main__":
    for what, result in bench():
        print(f"{what}: {result}")
