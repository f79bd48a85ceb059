"""The simulation runner: many seeded games, spread over local processes.

Game i of a run is played with ``random.Random(f"{seed}:{i}")``, whatever process plays
it, and the tallies merge exactly (see `metrics`), so a run gives the same numbers for
any ``jobs``. Games go to workers in chunks to keep the per-task overhead low. Ctrl-C
stops the run: the games already finished are still tallied and reported.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import random
import signal
import sys
import types
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from pnp.sim.metrics import Accumulator


@dataclass
class RunResult:
    acc: Accumulator
    interrupted: bool = False

    @property
    def games(self) -> int:
        return self.acc.games


def game_seed(seed: int, index: int) -> str:
    """The seed of game `index` of a run: hash-free, the same in every process."""
    return f"{seed}:{index}"


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _engine_ref(engine: Any) -> Any:
    """What to send a worker: a module by name (modules do not pickle), else the object."""
    return engine.__name__ if isinstance(engine, types.ModuleType) else engine


def _engine(ref: Any) -> Any:
    return importlib.import_module(ref) if isinstance(ref, str) else ref


def play_chunk(
    engine_ref: Any,
    model: Any,
    players: int,
    bot: str,
    seed: int,
    start: int,
    stop: int,
    options: dict[str, Any],
    acc: Accumulator | None = None,
) -> Accumulator:
    """Play games start..stop-1 and tally them (into `acc` if given, game by game)."""
    engine = _engine(engine_ref)
    acc = acc if acc is not None else Accumulator(players)
    rng = random.Random()
    play, add = engine.play_one, acc.add
    for i in range(start, stop):
        rng.seed(game_seed(seed, i))
        add(play(model, players, bot, rng, **options))
    return acc


def _chunks(games: int, jobs: int) -> list[tuple[int, int]]:
    """Chunks small enough to balance the workers and show progress, big enough to be cheap."""
    size = max(50, min(2000, games // max(1, jobs * 8)))
    return [(a, min(games, a + size)) for a in range(0, games, size)]


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the parent, which stops the run in order."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run(
    engine: Any,
    model: Any,
    players: int,
    bot: str,
    games: int,
    seed: int,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> RunResult:
    """Play `games` games; `progress(n)` is told after each chunk how many are done."""
    options = options or {}
    chunks = _chunks(games, jobs)
    total = Accumulator(players)
    ref = _engine_ref(engine)
    if jobs <= 1 or len(chunks) == 1:
        try:
            for a, b in chunks:
                play_chunk(engine, model, players, bot, seed, a, b, options, total)
                if progress:
                    progress(total.games)
        except KeyboardInterrupt:
            return RunResult(total, interrupted=True)
        return RunResult(total)

    interrupted = False
    warm = getattr(engine, "warm", None)
    if warm is not None:  # build lookup tables once; forked workers inherit them
        warm(model)
    # fork where there is one: workers start at once and share the parent's imports
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_quiet_worker)
    pending: set[Future] = set()
    try:
        pending = {
            pool.submit(play_chunk, ref, model, players, bot, seed, a, b, options)
            for a, b in chunks
        }
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                total.merge(fut.result())
            if progress:
                progress(total.games)
    except KeyboardInterrupt:
        interrupted = True
        for fut in pending:
            fut.cancel()
        # chunks already running finish (workers ignore Ctrl-C) and are counted
        done, _ = wait([f for f in pending if not f.cancelled()])
        for fut in done:
            if not fut.cancelled() and fut.exception() is None:
                total.merge(fut.result())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return RunResult(total, interrupted)


def is_tty() -> bool:
    return sys.stderr.isatty()
