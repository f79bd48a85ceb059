"""The simulation runner: many seeded games, spread over local processes.

Game i of a run is played with ``random.Random(f"{seed}:{i}")``, whatever process plays
it, and the tallies merge exactly (see `metrics`), so a run gives the same numbers for
any ``jobs``.

Games go to workers in chunks, at most `IN_FLIGHT` chunks per worker at a time (`pool`),
and only tallies come back, so memory stays flat however many games a run asks for. A
sweep's grid is one `run_jobs` call: the chunks of all its settings share one pool, or go
to a Dask cluster a few at a time (`dask_backend`); either way each setting's tallies are merged
in chunk order (`merge`), so the JSON is the same for any backend, workers and chunk size.

Ctrl-C or SIGTERM (`pnp.runtime.interrupt.RunStop`): the first raises a shared flag that every
game loop reads between games, so the run stops once the games being played are over and
the finished games are still tallied and reported (``RunResult.interrupted``). A second
stops at once: workers are terminated and the games already handed back are reported;
with ``jobs=1`` it interrupts the game being played (never a tally half made).

A worker that dies (killed, out of memory) stops the run like a first Ctrl-C: the other
workers finish the game they are playing, and the games finished so far come back with
``RunResult.failure`` saying what happened; its unfinished chunk is lost. A worker never
outlives its parent: on Linux the kernel kills it when the parent dies (parent-death
signal), elsewhere a thread of the worker watches for it.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pnp.contract.gamedef import Engine, warm
from pnp.runtime import interrupt
from pnp.runtime.errors import PnpError
from pnp.runtime.interrupt import RunStop, stop_at
from pnp.sim.merge import JobTally, grid_tasks
from pnp.sim.metrics import Accumulator
from pnp.sim.worker import Seating, engine_ref, play_chunk

MAX_GAMES = 10_000_000
MAX_JOBS = 64


class RunFailed(PnpError):
    """The run could not go on (a worker died, no worker could be started): not bad input."""

    exit_code = 1


@dataclass
class RunResult:
    """A run's tallies, and whether (and why) it stopped before its last game."""

    acc: Accumulator
    interrupted: bool = False
    failure: str | None = None  # why the run stopped early, if not Ctrl-C: a worker died

    @property
    def games(self) -> int:
        return self.acc.games


def default_jobs() -> int:
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(MAX_JOBS, cpus))


def _chunk_size(games: int, jobs: int, slow: bool = False) -> int:
    """Small enough to balance the workers and show progress, big enough to be cheap.
    `slow` games (thinking bots take seconds a game) go out a few at a time."""
    if slow:
        return max(1, min(50, games // max(1, jobs * 8)))
    return max(50, min(2000, games // max(1, jobs * 8)))


def check_limits(games: int, jobs: int) -> None:
    """One-line errors for a run too small or too big (`run` checks too; a command may
    call this first, before it builds the play model)."""
    if not 1 <= games <= MAX_GAMES:
        raise PnpError(f"--games must be between 1 and {MAX_GAMES:,}, got {games}")
    if not 1 <= jobs <= MAX_JOBS:
        raise PnpError(f"--jobs must be between 1 and {MAX_JOBS}, got {jobs}")


def run(
    engine: Engine,
    model: object,
    players: int,
    bot: Seating,
    games: int,
    seed: int,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> RunResult:
    """Play `games` games; `progress(n)` is told after each chunk how many are done.

    ``interrupted`` is true when the run stopped before every game was played: by
    Ctrl-C, or because a worker died (then ``failure`` says how). Workers that cannot
    be started are a `RunFailed` error.
    """
    check_limits(games, jobs)
    job = Job(engine, model, players, bot, games, seed, options or {})
    told = (lambda settings, n: progress(n)) if progress else None
    return run_jobs([job], jobs, told)[0]


@dataclass(frozen=True)
class Job:
    """One setting's games: a single run, or one point of a sweep's grid."""

    engine: Engine
    model: object
    players: int
    bot: Seating
    games: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)

    def data(self) -> tuple[Any, ...]:
        """What a worker needs to play any chunk of it (`pnp.sim.worker.JobData`)."""
        return (
            engine_ref(self.engine),
            self.model,
            self.players,
            self.bot,
            self.seed,
            self.options,
        )


GridProgress = Callable[[int, int], None]
"""Told (settings finished, games finished) over all the jobs of a `run_jobs` call."""


def chunk_size(job: Job, workers: int) -> int:
    return _chunk_size(job.games, workers, slow=not isinstance(job.bot, str))


def run_jobs(
    jobs: Sequence[Job],
    workers: int = 1,
    progress: GridProgress | None = None,
    scheduler: str | None = None,
    scheduler_timeout: float = 10.0,
    *,
    chunk: int | None = None,
    deadline: float | None = None,
) -> list[RunResult]:
    """Every job's games, one `RunResult` per job in order; after Ctrl-C or a worker's
    death the list ends with the job that was cut short (later jobs are left out).

    `scheduler` names where the games are played: None for this machine's own process
    pool, a Dask scheduler's address, or 'local' for a Dask cluster on this machine
    (`pnp.sim.dask_backend`, with `workers` processes). The chunks of all the jobs form
    one queue, so the workers stay busy until the last job is done; `chunk`
    fixes the games per chunk (the tallies are the same for any). At `deadline` (a
    `time.monotonic()` time) the run stops as on a first Ctrl-C, said by no one: the games
    being played end and what finished is reported, cut short (`pnp tune`'s time budget).
    """
    for job in jobs:
        check_limits(job.games, workers)
    if not jobs:
        return []
    tallies = [JobTally(job.players, job.games) for job in jobs]
    tasks = grid_tasks([job.games for job in jobs], [chunk or chunk_size(j, workers) for j in jobs])

    def told() -> None:
        if progress:
            progress(sum(t.complete for t in tallies), sum(t.games for t in tallies))

    failure: str | None = None
    if scheduler is not None:
        from pnp.sim.dask_backend import play_on_dask

        with RunStop(ctypes.c_bool(False)) as ctrl_c, stop_at(deadline, ctrl_c):
            failure = play_on_dask(
                scheduler, scheduler_timeout, workers, jobs, chunk, tallies, told, ctrl_c
            )
    elif workers == 1 or len(tasks) == 1:
        with RunStop(ctypes.c_bool(False)) as ctrl_c, stop_at(deadline, ctrl_c):
            _run_here(jobs, tasks, tallies, told, ctrl_c)
    else:
        for job in jobs:
            warm(job.engine, job.model)  # build lookup tables once; forked workers inherit them
        # fork where there is one: workers start at once and share the parent's imports
        import multiprocessing  # a pool is started here only: one process needs none of it

        from pnp.sim.pool import Pool, job_bytes

        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        halt = context.RawValue(ctypes.c_bool, False)
        data = [job_bytes(job.data()) for job in jobs]
        with RunStop(halt) as ctrl_c, stop_at(deadline, ctrl_c):
            pool = Pool(context, min(workers, len(tasks)), data, halt)
            try:
                pool.play(iter(tasks), tallies, told, ctrl_c)
            finally:
                pool.close(now=ctrl_c.count > 1)
        failure = pool.failure
    out: list[RunResult] = []
    for tally in tallies:
        cut = not tally.complete
        out.append(RunResult(tally.finish(), interrupted=cut, failure=failure if cut else None))
        if cut:
            break
    return out


def _run_here(
    jobs: Sequence[Job],
    tasks: Sequence[tuple[int, int, int, int]],
    tallies: Sequence[JobTally],
    progress: Callable[[], None],
    ctrl_c: RunStop,
) -> None:
    """Every chunk in this process, one after the other (one worker, or too few games
    to share)."""
    halt = ctrl_c.halt
    ctrl_c.cut_short = True
    try:
        for i, k, a, b in tasks:
            job = jobs[i]
            acc = Accumulator(job.players)
            try:
                play_chunk(
                    job.engine,
                    job.model,
                    job.players,
                    job.bot,
                    job.seed,
                    a,
                    b,
                    job.options,
                    acc,
                    halt,
                )
            finally:  # a second Ctrl-C mid-chunk: the games tallied so far still count
                with interrupt.unbroken:
                    tallies[i].add(k, acc)
            if halt.value:
                break
            progress()
    except KeyboardInterrupt:  # a second Ctrl-C, or one the engine let through
        pass
    finally:
        ctrl_c.cut_short = False


def is_tty() -> bool:
    return sys.stderr.isatty()
