"""Benchmark: random-bot games per second through the runner, and the kit build time.

Run as ``python -m pnp.bench`` (``--games`` to change the 20,000 games per setting).
A benchmark, not a test: the numbers depend on the machine and on what else runs on it,
so it prints games per wall-clock second and per CPU second (all processes) side by side;
the second is what an otherwise idle machine would give per core.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from pnp.games import get_game
from pnp.sim.command import engine_for
from pnp.sim.runner import run

GAME = "exploding-dice"


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the pool's workers)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def games_per_second(games: int, jobs: int, players: int = 4, seed: int = 1) -> tuple[float, float]:
    """(games per wall-clock second, games per CPU second over all processes) for one run
    of the simulation runner, in a fresh process so no warm table carries over."""
    gdef = get_game(GAME)
    engine = engine_for(gdef)
    model = engine.prepare(gdef.default_params(), players)
    wall, cpu = time.perf_counter(), _cpu()
    result = run(engine, model, players, "random", games, seed, jobs)
    wall, cpu = time.perf_counter() - wall, _cpu() - cpu
    assert result.games == games
    return games / wall, games / cpu


def build_seconds() -> str:
    """The kit build time, or 'n/a' while the build is not wired up."""
    try:
        from pnp.build import build_game
    except ImportError:
        return "n/a"
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        try:
            build_game(GAME, out=Path(tmp))
        except Exception as exc:  # a benchmark reports, it does not fail
            return f"n/a ({type(exc).__name__}: {exc})"
        return f"{time.perf_counter() - start:.2f} s"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m pnp.bench", description=__doc__)
    ap.add_argument("--games", type=int, default=20_000, help="games per setting")
    ap.add_argument("--jobs", type=int, nargs="*", default=[1, 2], help="job counts to try")
    ap.add_argument("--no-build", action="store_true", help="skip the kit build timing")
    args = ap.parse_args(argv)
    print(f"{GAME}: {args.games} random-bot games, 4 players, seed 1")
    print(f"  (this machine has {os.cpu_count()} CPUs; load average now {os.getloadavg()[0]:.2f})")
    for jobs in args.jobs:
        with ProcessPoolExecutor(1) as fresh:  # a new process per setting: cold tables
            rate, per_cpu = fresh.submit(games_per_second, args.games, jobs).result()
        print(
            f"  --jobs {jobs}: {rate:8,.0f} games/s wall clock   "
            f"({per_cpu:,.0f} games per CPU second)"
        )
    if not args.no_build:
        print(f"kit build (a4 + letter, all formats): {build_seconds()}")


if __name__ == "__main__":
    main()
