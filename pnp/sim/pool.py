"""The local process pool: worker processes started once per `run_jobs` call and kept for
every job of it (all the settings of a sweep's grid), each fed chunks over its own pipe.

A worker is sent a job's data (engine, model, bot, seed, options) the first time it gets
one of that job's chunks, never again; after that a chunk is five numbers. Chunks go out
in job order, at most `IN_FLIGHT` per worker, so every worker stays busy until the whole
grid is played and the first settings finish first. Tallies come back in any order and
are merged in chunk order (`pnp.sim.merge`).
"""

from __future__ import annotations

import ctypes
import itertools
import os
import pickle
import signal
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from pnp.runtime.errors import PnpError
from pnp.runtime.interrupt import RunStop
from pnp.sim.merge import JobTally, Task
from pnp.sim.worker import serve

IN_FLIGHT = 2  # chunks handed to a worker at a time: one playing, one waiting
POLL = 0.1  # seconds between looks at Ctrl-C while the workers play


class _RemoteTraceback(Exception):
    """A worker's traceback, attached as the cause of the error it raised."""

    def __str__(self) -> str:
        return "\n" + str(self.args[0])


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    queued: int = 0
    knows: set[int] = field(default_factory=set)  # jobs whose data it has been sent


class Pool:
    """Worker processes answering chunks of any job with tallies."""

    def __init__(
        self, context: Any, workers: int, jobs: Sequence[bytes], halt: ctypes.c_bool
    ) -> None:
        self.workers: list[_Worker] = []
        self.jobs = jobs  # each job's pickled `JobData`, pickled once for every worker
        self.halt = halt
        self.failure: str | None = None
        parent = os.getpid()
        try:
            for _ in range(workers):
                mine, theirs = context.Pipe()
                try:
                    process = context.Process(
                        target=serve, args=(theirs, halt, parent), daemon=True
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
        tasks: Iterator[Task],
        tallies: Sequence[JobTally],
        progress: Callable[[], None] | None,
        ctrl_c: RunStop,
    ) -> None:
        """Hand out chunks and merge the tallies until every game is played or Ctrl-C."""
        for _ in range(IN_FLIGHT):  # a chunk to each worker before a second to any
            for worker in self.workers:
                for task in itertools.islice(tasks, 1):
                    self._send(worker, task)
        by_conn: dict[object, _Worker] = {w.conn: w for w in self.workers}
        told = False
        while ctrl_c.count < 2:
            busy = [w.conn for w in self.workers if w.queued]
            if not busy:
                return
            if not told and self._stopping(ctrl_c):
                told = self._tell_stop()
            ready = wait(busy, timeout=POLL)
            for conn in ready:
                self._receive(by_conn[conn], tallies, ctrl_c)
                if not self._stopping(ctrl_c):
                    for task in itertools.islice(tasks, 1):
                        self._send(by_conn[conn], task)
            if ready and progress and not self._stopping(ctrl_c):
                try:
                    progress()
                except KeyboardInterrupt:  # Ctrl-C reaching us some other way
                    ctrl_c.note()
        # stop now: keep what the workers have already sent, wait for nothing more
        busy = [w.conn for w in self.workers if w.queued]
        for conn in wait(busy, timeout=0):
            self._receive(by_conn[conn], tallies, ctrl_c)

    def _tell_stop(self) -> bool:
        """Send each worker SIGINT, now that `halt` is raised: a worker ends a tree search
        under way (a decision of a million playouts) instead of finishing its game. The
        workers may have had the terminal's Ctrl-C too; not its SIGTERM, nor a `kill` of
        this process alone."""
        for worker in self.workers:
            if worker.process.pid is not None and worker.process.exitcode is None:
                try:
                    os.kill(worker.process.pid, signal.SIGINT)
                except ProcessLookupError:
                    pass
        return True

    def _stopping(self, ctrl_c: RunStop) -> bool:
        """No more chunks go out: Ctrl-C, or a worker died."""
        return bool(ctrl_c.count) or self.failure is not None

    def _send(self, worker: _Worker, task: Task) -> None:
        job = task[0]
        try:
            if job not in worker.knows:
                worker.conn.send(("job", job, self.jobs[job]))
                worker.knows.add(job)
            worker.conn.send(("chunk", *task))
        except OSError:  # it died since its last answer: its end-of-file says how
            return
        worker.queued += 1

    def _receive(self, worker: _Worker, tallies: Sequence[JobTally], ctrl_c: RunStop) -> None:
        try:
            kind, *payload = worker.conn.recv()
        except (EOFError, OSError):
            worker.queued = 0
            if ctrl_c.count or self.failure is not None:
                return  # stopping anyway: its unfinished chunk is not counted
            worker.process.join(1)
            self.failure = f"a simulation worker {death(worker.process.exitcode)}"
            self.halt.value = True  # the others stop after their game and send what they have
            return
        if kind == "error":
            exc, text = payload
            raise exc from _RemoteTraceback(text)
        job, chunk, acc = payload
        tallies[job].add(chunk, acc)
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


def job_bytes(job: tuple[Any, ...]) -> bytes:
    """A job's data as a worker is sent it, pickled once."""
    return pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)


def death(exitcode: int | None) -> str:
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
