"""The simulation runner: many seeded games, spread over local processes.

Game i of a run is played with ``random.Random(f"{seed}:{i}")``, whatever process plays
it, and the tallies merge exactly (see `metrics`), so a run gives the same numbers for
any ``jobs``.

Games go to workers in chunks, at most `IN_FLIGHT` chunks per worker at a time, and only
tallies come back, so memory stays flat however many games a run asks for.

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
import itertools
import multiprocessing
import os
import signal
import sys
import threading
import types
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from pnp import interrupt
from pnp.errors import PnpError
from pnp.gamedef import Engine, warm
from pnp.sim.metrics import Accumulator
from pnp.sim.worker import Seating, engine_ref, play_chunk, serve

MAX_GAMES = 10_000_000
MAX_JOBS = 64
IN_FLIGHT = 2  # chunks handed to a worker at a time: one playing, one waiting
POLL = 0.2  # seconds between looks at Ctrl-C while the workers play


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


def _chunks(games: int, size: int) -> Iterator[tuple[int, int]]:
    return ((a, min(games, a + size)) for a in range(0, games, size))


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
    options = options or {}
    size = _chunk_size(games, jobs, slow=not isinstance(bot, str))
    if jobs == 1 or games <= size:
        with _CtrlC(ctypes.c_bool(False)) as ctrl_c:
            total = _run_here(engine, model, players, bot, games, seed, options, progress, ctrl_c)
    else:
        warm(engine, model)  # build lookup tables once; forked workers inherit them
        # fork where there is one: workers start at once and share the parent's imports
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        halt = context.RawValue(ctypes.c_bool, False)
        job = (engine_ref(engine), model, players, bot, seed, options)
        workers = min(jobs, -(-games // size))
        total = Accumulator(players)
        with _CtrlC(halt) as ctrl_c:
            pool = _Pool(context, workers, job, halt)
            try:
                pool.play(_chunks(games, size), total, progress, ctrl_c)
            finally:
                pool.close(now=ctrl_c.count > 1)
        return RunResult(total, interrupted=total.games < games, failure=pool.failure)
    return RunResult(total, interrupted=total.games < games)


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


GridProgress = Callable[[int, int], None]
"""Told (settings finished, games finished) over all the jobs of a `run_jobs` call."""


def run_jobs(
    jobs: Sequence[Job],
    workers: int = 1,
    progress: GridProgress | None = None,
    scheduler: str | None = None,
    scheduler_timeout: float = 10.0,
) -> list[RunResult]:
    """Every job's games, one `RunResult` per job in order; after Ctrl-C or a worker's
    death the list ends with the job that was cut short (later jobs are left out).

    `scheduler` names where the games are played: None for this machine's own process
    pool, a Dask scheduler's address, or 'local' for a Dask cluster on this machine.
    """
    if scheduler is not None:
        raise PnpError("--scheduler is not available yet")  # issue 21: the Dask backend
    out: list[RunResult] = []
    done = 0
    for job in jobs:
        before = done

        def told(n: int, before: int = before) -> None:
            if progress:
                progress(len(out), before + n)

        result = run(
            job.engine,
            job.model,
            job.players,
            job.bot,
            job.games,
            job.seed,
            workers,
            job.options,
            told,
        )
        out.append(result)
        done += result.games
        if progress:
            progress(len(out), done)
        if result.interrupted:
            break
    return out


def _run_here(
    engine: Engine,
    model: object,
    players: int,
    bot: Seating,
    games: int,
    seed: int,
    options: dict[str, Any],
    progress: Callable[[int], None] | None,
    ctrl_c: _CtrlC,
) -> Accumulator:
    """The whole run in this process (one job, or too few games to share)."""
    total, halt = Accumulator(players), ctrl_c.halt
    ctrl_c.cut_short = True
    try:
        for a, b in _chunks(games, _chunk_size(games, 1, slow=not isinstance(bot, str))):
            play_chunk(engine, model, players, bot, seed, a, b, options, total, halt)
            if halt.value:
                break
            if progress:
                progress(total.games)
    except KeyboardInterrupt:  # a second Ctrl-C, or one the engine let through
        pass
    finally:
        ctrl_c.cut_short = False
    return total


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
    short, unless a tally is being made: the run then ends right after it. Installed
    only from the main thread and never over an ignored SIGINT; the previous handler
    comes back afterwards (told, if it is `report_after_ctrl_c`'s, that a run stopped).
    """

    def __init__(self, halt: ctypes.c_bool) -> None:
        self.halt = halt
        self.count = 0
        self.cut_short = False
        self._raised = False  # once the run is being cut short, more Ctrl-C change nothing
        self._taken: dict[int, Any] = {}

    def note(self) -> None:
        self.count += 1
        self.halt.value = True

    def _handle(self, signum: int, frame: types.FrameType | None) -> None:
        interrupt.note(signum)
        self.note()
        if self.count > 1 and self.cut_short and not self._raised and not _tallying(frame):
            self._raised = True
            raise KeyboardInterrupt

    def __enter__(self) -> _CtrlC:
        self._taken = _take_signal(self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for previous in self._taken.values():
            if self.count and isinstance(previous, _Reporting):
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


class _RemoteTraceback(Exception):
    """A worker's traceback, attached as the cause of the error it raised."""

    def __str__(self) -> str:
        return "\n" + str(self.args[0])


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    queued: int = 0


class _Pool:
    """Worker processes, each fed chunks over its own pipe and answering with tallies."""

    def __init__(
        self, context: Any, workers: int, job: tuple[Any, ...], halt: ctypes.c_bool
    ) -> None:
        self.workers: list[_Worker] = []
        self.halt = halt
        self.failure: str | None = None
        parent = os.getpid()
        try:
            for _ in range(workers):
                mine, theirs = context.Pipe()
                try:
                    process = context.Process(
                        target=serve, args=(theirs, halt, parent, *job), daemon=True
                    )
                    process.start()
                except BaseException:
                    mine.close()
                    raise
                finally:
                    theirs.close()  # so a worker that dies shows up as end-of-file
                self.workers.append(_Worker(process, mine))
        except OSError as exc:  # no more processes or open files (ulimit -u, ulimit -n)
            self.close(now=True)
            reason = exc.strerror or type(exc).__name__
            raise PnpError(  # an environment pnp cannot work in: exit 2, like the others
                f"cannot start {workers} simulation workers: {reason.lower()}; "
                "try fewer --jobs (--jobs 1 plays in this process)"
            ) from None

    def play(
        self,
        chunks: Iterator[tuple[int, int]],
        total: Accumulator,
        progress: Callable[[int], None] | None,
        ctrl_c: _CtrlC,
    ) -> None:
        """Hand out chunks and merge the tallies until every game is played or Ctrl-C."""
        for worker in self.workers:
            for chunk in itertools.islice(chunks, IN_FLIGHT):
                self._send(worker, chunk)
        by_conn: dict[object, _Worker] = {w.conn: w for w in self.workers}
        while ctrl_c.count < 2:
            busy = [w.conn for w in self.workers if w.queued]
            if not busy:
                return
            ready = wait(busy, timeout=POLL)
            for conn in ready:
                self._receive(by_conn[conn], total, ctrl_c)
                if not self._stopping(ctrl_c):
                    for chunk in itertools.islice(chunks, 1):
                        self._send(by_conn[conn], chunk)
            if ready and progress and not self._stopping(ctrl_c):
                try:
                    progress(total.games)
                except KeyboardInterrupt:  # Ctrl-C reaching us some other way
                    ctrl_c.note()
        # stop now: keep what the workers have already sent, wait for nothing more
        busy = [w.conn for w in self.workers if w.queued]
        for conn in wait(busy, timeout=0):
            self._receive(by_conn[conn], total, ctrl_c)

    def _stopping(self, ctrl_c: _CtrlC) -> bool:
        """No more chunks go out: Ctrl-C, or a worker died."""
        return bool(ctrl_c.count) or self.failure is not None

    def _send(self, worker: _Worker, chunk: tuple[int, int]) -> None:
        try:
            worker.conn.send(chunk)
        except OSError:  # it died since its last answer: its end-of-file says how
            return
        worker.queued += 1

    def _receive(self, worker: _Worker, total: Accumulator, ctrl_c: _CtrlC) -> None:
        try:
            kind, *payload = worker.conn.recv()
        except (EOFError, OSError):
            worker.queued = 0
            if ctrl_c.count or self.failure is not None:
                return  # stopping anyway: its unfinished chunk is not counted
            worker.process.join(1)
            self.failure = f"a simulation worker {_death(worker.process.exitcode)}"
            self.halt.value = True  # the others stop after their game and send what they have
            return
        if kind == "error":
            exc, text = payload
            raise exc from _RemoteTraceback(text)
        total.merge(payload[0])
        worker.queued -= 1

    def close(self, now: bool) -> None:
        """Let the workers exit (or, `now`, terminate them) and reap them."""
        self.halt.value = True  # after an error, workers still playing stop at once
        for worker in self.workers:
            if now:  # SIGKILL: workers ignore SIGTERM, and hold nothing to clean up
                worker.process.kill()
            else:
                try:
                    worker.conn.send(None)
                except OSError:
                    pass
        for worker in self.workers:
            worker.process.join(5)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()


def _death(exitcode: int | None) -> str:
    """How a worker process ended, in words: 'was killed by SIGKILL (signal 9)'."""
    if exitcode is None:
        return "stopped answering"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = "a signal"
        return f"was killed by {name} (signal {-exitcode})"
    return f"exited unexpectedly (exit code {exitcode})"


def is_tty() -> bool:
    return sys.stderr.isatty()
