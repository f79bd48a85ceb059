"""The simulation runner: many seeded games, spread over local processes.

Game i of a run is played with ``random.Random(f"{seed}:{i}")``, whatever process plays
it, and the tallies merge exactly (see `metrics`), so a run gives the same numbers for
any ``jobs``.

Games go to workers in chunks, at most `IN_FLIGHT` chunks per worker at a time (`pool`),
and only tallies come back, so memory stays flat however many games a run asks for. A
sweep's grid is one `run_jobs` call: the chunks of all its settings share one pool, or go
to a Dask cluster at once (`dask_backend`); either way each setting's tallies are merged
in chunk order (`merge`), so the JSON is the same for any backend, workers and chunk size.

Ctrl-C: the first one raises a shared flag that every game loop reads between games, so
the run stops once the games being played are over (a game takes milliseconds) and the
finished games are still tallied and reported (``RunResult.interrupted``). A second one
stops at once: workers are terminated and the games already handed back are reported;
with ``jobs=1`` it interrupts the game being played (never a tally half made). SIGTERM
reaches the run as a Ctrl-C (`pnp.interrupt`); workers leave both to their parent.

A worker that dies (killed, out of memory) stops the run like a first Ctrl-C: the other
workers finish the game they are playing, and the games finished so far come back with
``RunResult.failure`` saying what happened; its unfinished chunk is lost. A worker never
outlives its parent: on Linux the kernel kills it when the parent dies (parent-death
signal), elsewhere a thread of the worker watches for it.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from pnp import interrupt
from pnp.errors import PnpError
from pnp.gamedef import Engine, warm
from pnp.sim.merge import JobTally, grid_tasks
from pnp.sim.metrics import Accumulator
from pnp.sim.pool import Pool, job_bytes
from pnp.sim.worker import Seating, engine_ref, play_chunk

MAX_GAMES = 10_000_000
MAX_JOBS = 64


class RunFailed(PnpError):
    """The run could not go on (a worker died, no worker could be started): not bad input."""

    exit_code = 1


@dataclass
class RunResult:
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
    (`pnp.sim.dask_backend`, with `workers` processes). Every chunk of every job is
    handed out at once, so the workers stay busy until the last job is done; `chunk`
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

        with _CtrlC(ctypes.c_bool(False)) as ctrl_c, _stop_at(deadline, ctrl_c):
            failure = play_on_dask(
                scheduler, scheduler_timeout, workers, jobs, chunk, tallies, told, ctrl_c
            )
    elif workers == 1 or len(tasks) == 1:
        with _CtrlC(ctypes.c_bool(False)) as ctrl_c, _stop_at(deadline, ctrl_c):
            _run_here(jobs, tasks, tallies, told, ctrl_c)
    else:
        for job in jobs:
            warm(job.engine, job.model)  # build lookup tables once; forked workers inherit them
        # fork where there is one: workers start at once and share the parent's imports
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        halt = context.RawValue(ctypes.c_bool, False)
        data = [job_bytes(job.data()) for job in jobs]
        with _CtrlC(halt) as ctrl_c, _stop_at(deadline, ctrl_c):
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


@contextmanager
def _stop_at(deadline: float | None, ctrl_c: _CtrlC) -> Iterator[None]:
    """Stop the run at `deadline` as a first Ctrl-C would (from a timer thread: the run's
    loops read the flag between games, and a tree search checks it as it begins)."""
    if deadline is None:
        yield
        return
    timer = threading.Timer(max(0.0, deadline - time.monotonic()), ctrl_c.note)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def _run_here(
    jobs: Sequence[Job],
    tasks: Sequence[tuple[int, int, int, int]],
    tallies: Sequence[JobTally],
    progress: Callable[[], None],
    ctrl_c: _CtrlC,
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
                tallies[i].add(k, acc)
            if halt.value:
                break
            progress()
    except KeyboardInterrupt:  # a second Ctrl-C, or one the engine let through
        pass
    finally:
        ctrl_c.cut_short = False


_TALLY_CODE = Accumulator.add.__code__


def _tallying(frame: types.FrameType | None) -> bool:
    """Is `frame` (or a caller of it) adding up tallies, which must not be cut in half?"""
    while frame is not None:
        if frame.f_code is _TALLY_CODE:
            return True
        frame = frame.f_back
    return False


def _take_signal(handler: Callable[[int, types.FrameType | None], None]) -> dict[int, Any]:
    """Put `handler` on Ctrl-C; what it replaced comes back from `_give_back`.

    Only the main thread can set a handler, and an ignored SIGINT stays ignored: in a
    job started in the background the handler goes on SIGTERM instead, if the command
    line made SIGTERM a stop (`pnp.interrupt`), so `kill PID` still reports the games.
    """
    if threading.current_thread() is not threading.main_thread():
        return {}
    if signal.getsignal(signal.SIGINT) not in (signal.SIG_IGN, None):
        return {signal.SIGINT: signal.signal(signal.SIGINT, handler)}
    if interrupt.sigterm_stops() or isinstance(signal.getsignal(signal.SIGTERM), _Reporting):
        return {signal.SIGTERM: signal.signal(signal.SIGTERM, handler)}
    return {}


def _give_back(taken: dict[int, Any]) -> None:
    for signum, previous in taken.items():
        signal.signal(signum, previous)


class _CtrlC:
    """SIGINT while a run is on: the first raises `halt`; any later one means stop now.

    The pool's parent only counts (its loop polls `count`). While games are played in
    this process (`cut_short`), a later one raises KeyboardInterrupt to cut the game
    short, unless a tally is being made: the run then ends right after it. So does the
    first one during a tree search's decision (`pnp.interrupt.searching`), which may take
    minutes: that game is left unfinished. Installed
    only from the main thread and never over an ignored SIGINT; the previous handler
    comes back afterwards (told, if it is `report_after_ctrl_c`'s, that a run stopped).
    """

    def __init__(self, halt: ctypes.c_bool) -> None:
        self.halt = halt
        self.count = 0
        self.signalled = False  # a signal stopped it (not only its deadline: `_stop_at`)
        self.cut_short = False
        self._raised = False  # once the run is being cut short, more Ctrl-C change nothing
        self._taken: dict[int, Any] = {}

    def note(self) -> None:
        self.count += 1
        self.halt.value = True

    def _handle(self, signum: int, frame: types.FrameType | None) -> None:
        interrupt.note(signum)
        self.signalled = True
        self.note()
        if self._raised or _tallying(frame):
            return
        if (self.count > 1 and self.cut_short) or interrupt.in_search():
            self._raised = True  # a long search is not waited for, even on the first stop
            raise KeyboardInterrupt

    def __enter__(self) -> _CtrlC:
        self._taken = _take_signal(self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for previous in self._taken.values():
            if self.signalled and isinstance(previous, _Reporting):
                previous.stopped = True
        _give_back(self._taken)


class _Reporting:
    """The SIGINT handler of `report_after_ctrl_c`: Ctrl-C as usual until a run stops."""

    def __init__(self) -> None:
        self.stopped = False

    def __call__(self, signum: int, frame: types.FrameType | None) -> None:
        interrupt.note(signum)
        if not self.stopped:
            self.stopped = True  # one KeyboardInterrupt; the clean-up is not cut short
            raise KeyboardInterrupt


@contextmanager
def report_after_ctrl_c() -> Iterator[None]:
    """Around a command that runs a simulation and then reports it.

    Ctrl-C raises KeyboardInterrupt as usual in the block, until Ctrl-C has stopped a
    `run` in it: from then on until the block ends Ctrl-C is ignored, so a second press
    cannot lose the games that finished (the run itself stops at once on a second one).
    """
    taken = _take_signal(_Reporting())
    try:
        yield
    finally:
        _give_back(taken)


def is_tty() -> bool:
    return sys.stderr.isatty()
