"""Jobs: each build, simulation, solve or check runs in a process of its own, off the
server's event loop, at most `slots` at a time; the rest wait in order.

A task's process is forked from a warm server process (multiprocessing's forkserver, with
pnp imported once), so starting one costs milliseconds, and it can be stopped: cancelling
sends SIGTERM (pnp's Ctrl-C: a simulation stops between games, a build rolls its staging
back) and, if the process has not ended a second later, SIGKILL; when the studio stops,
its processes and the forkserver get `STOP_WAIT` in all. A finished result is kept
in the cache under the hash of its request, so the same request later is answered at once;
identical requests in flight wait for the first instead of running twice.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import secrets
import signal
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from pnp.runtime import interrupt
from pnp.runtime.errors import PnpError
from pnp.studio.cache import Cache, CacheError, key_of

STATES = ("queued", "running", "done", "failed", "cancelled")
GRACE = 1.0  # seconds a cancelled process has to end before it is killed
STOP_WAIT = 0.3  # seconds, in all, that our processes have to end when the studio stops
MAX_JOBS_KEPT = 500  # finished jobs remembered (their files stay in the cache)


class TaskError(PnpError):
    """A task refused its input: the CLI's one-line message (and what it found, if any)."""

    def __init__(self, message: str, result: Any = None) -> None:
        super().__init__(message)
        self.result = result


@dataclass
class Job:
    """One job as the API shows it."""

    id: str
    kind: str
    game: str
    key: str
    args: dict[str, Any]
    state: str = "queued"
    done: int = 0
    total: int | None = None
    message: str = ""
    result: Any = None
    error: str | None = None
    folder: Path | None = None
    started: float | None = None
    finished: float | None = None
    cancel: threading.Event = field(default_factory=threading.Event)

    def view(self) -> dict[str, Any]:
        """The job as `GET /api/jobs/{id}` answers: state, progress, and result or error."""
        elapsed = None
        if self.started is not None:
            elapsed = (self.finished or time.monotonic()) - self.started
        rate = self.done / elapsed if elapsed and self.total is not None else None
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "game": self.game,
            "state": self.state,
            "progress": {"done": self.done, "total": self.total, "message": self.message},
            "seconds": round(elapsed, 2) if elapsed is not None else None,
            "rate": round(rate, 1) if rate is not None else None,
            "result": self.result,
        }
        if self.error is not None:
            out["error"] = self.error
        return out


PRELOAD = ["pnp.studio.work", "pnp.studio.warm"]
"""What the forkserver imports (and so runs) before it forks the first task process."""


def _context() -> Any:
    """Processes forked from a single-threaded server process that has pnp imported and
    warmed up (`pnp.studio.warm`; the web server has threads, so forking it directly could
    copy a held lock)."""
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(PRELOAD)
        return ctx
    return multiprocessing.get_context("spawn")


@dataclass
class Asked:
    """A short task some callers wait for: its result (or error) comes in `future`."""

    key: str
    future: Future[tuple[Any, Path]] = field(default_factory=Future)  # run_task's answer
    cancel: threading.Event = field(default_factory=threading.Event)
    waiters: int = 1


class Jobs:
    """The studio's jobs and its pool of `slots` runners (threads that each watch one
    task process)."""

    def __init__(self, cache: Cache, slots: int) -> None:
        self.cache = cache
        self.slots = slots
        self.ctx = _context()
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self._pool = ThreadPoolExecutor(max_workers=slots, thread_name_prefix="pnp-job")
        self._checks = ThreadPoolExecutor(max_workers=slots, thread_name_prefix="pnp-check")
        self._lock = threading.Lock()
        self._key_locks: dict[str, threading.Lock] = {}
        self._inflight: dict[str, Asked] = {}
        self._processes: set[BaseProcess] = set()
        self._closed = False

    # --- jobs -------------------------------------------------------------------------

    def start(self) -> None:
        """Start the forkserver now, so that it has warmed up by the time the page asks for
        its first preview. It is born with Ctrl-C ignored (the server stops it; a Ctrl-C
        during its warm-up would print the traceback of an import), and each job process
        takes Ctrl-C back (`pnp.studio.work.child_main`)."""
        if self.ctx.get_start_method() == "forkserver":
            from multiprocessing import forkserver

            if threading.current_thread() is not threading.main_thread():
                threading.Thread(target=forkserver.ensure_running, daemon=True).start()
                return
            with interrupt.ctrl_c_ignored():
                forkserver.ensure_running()  # a spawn: the warm-up runs in the new process

    def submit(self, kind: str, game: str, args: dict[str, Any], request: dict[str, Any]) -> Job:
        """A new job for `kind` (build, simulate, solve) with the task's `args`; `request`
        is what names its cache entry."""
        job = Job(secrets.token_hex(8), kind, game, key_of({"kind": kind, **request}), args)
        with self._lock:
            self.jobs[job.id] = job
            while len(self.jobs) > MAX_JOBS_KEPT:
                old_id, old = next(iter(self.jobs.items()))
                if old.state in ("queued", "running"):
                    break
                del self.jobs[old_id]
        self._pool.submit(self._run_job, job)
        return job

    def get(self, job_id: str) -> Job | None:
        return self.jobs.get(job_id)

    def cancel(self, job: Job) -> None:
        """Stop a queued or running job (a finished one stays as it is)."""
        job.cancel.set()
        if job.state == "queued":
            job.state = "cancelled"
            job.finished = time.monotonic()

    def _run_job(self, job: Job) -> None:
        if job.cancel.is_set() or self._closed:
            job.state = "cancelled"
            return
        job.state = "running"
        job.started = time.monotonic()

        def progress(done: int, total: int | None, message: str) -> None:
            job.done, job.total, job.message = done, total, message

        try:
            job.result, job.folder = self.run_task(
                job.kind, job.key, job.args, progress, job.cancel
            )
            job.state = "done"
            if isinstance(job.result, dict) and job.kind == "simulate":
                job.done = job.total = job.result["json"].get("games", job.done)
        except JobCancelled:
            job.state = "cancelled"
        except TaskError as exc:
            job.state, job.error, job.result = "failed", str(exc), exc.result
        except CacheError as exc:  # the cache folder cannot be written: one line naming it
            job.state, job.error = "failed", str(exc)
        except Exception as exc:  # a bug in a task: said on the page, never a dead runner
            job.state, job.error = "failed", f"internal error ({type(exc).__name__}: {exc})"
        finally:
            job.finished = time.monotonic()

    # --- checks and other short tasks ---------------------------------------------------

    def ask(
        self, kind: str, args: dict[str, Any], request: dict[str, Any], most: int | None = None
    ) -> Asked:
        """A short task (check, preview) whose callers wait for its result: one run per
        distinct request however many ask at once, then answered from the cache. Each
        caller that gives up calls `leave`; when none is left the task is cancelled. A new
        task when `most` jobs and tasks already wait is `Busy` (joining one is not)."""
        key = key_of({"kind": kind, **request})
        with self._lock:
            asked = self._inflight.get(key)
            if asked is not None:
                asked.waiters += 1
                return asked
            if most is not None and self._waiting() >= most:
                raise Busy(self._waiting())
            asked = self._inflight[key] = Asked(key)

        def work() -> None:
            try:
                if asked.cancel.is_set() or self._closed:
                    raise JobCancelled
                result, folder = self.run_task(kind, key, args, None, asked.cancel)
                asked.future.set_result((result, folder))
            except BaseException as exc:
                asked.future.set_exception(exc)
            finally:
                with self._lock:
                    if self._inflight.get(key) is asked:
                        del self._inflight[key]

        self._checks.submit(work)
        return asked

    def leave(self, asked: Asked) -> None:
        """One caller of `ask` no longer waits (its client went away): the last one to go
        cancels the task, queued or running, and a new identical ask starts afresh."""
        with self._lock:
            asked.waiters -= 1
            if asked.waiters > 0 or asked.future.done():
                return
            asked.cancel.set()
            if self._inflight.get(asked.key) is asked:
                del self._inflight[asked.key]

    def waiting(self) -> int:
        """Jobs queued or running, and checks under way: what the cap counts."""
        with self._lock:
            return self._waiting()

    def _waiting(self) -> int:
        jobs = sum(j.state in ("queued", "running") for j in self.jobs.values())
        return jobs + len(self._inflight)

    # --- one task in one process ------------------------------------------------------

    def run_task(
        self,
        kind: str,
        key: str,
        args: dict[str, Any],
        progress: Any,
        cancel: threading.Event,
    ) -> tuple[Any, Path]:
        """The task's result and its cache folder: from the cache, else from a new process.
        Raises `TaskError` for bad input, `JobCancelled` when cancelled."""
        with self._lock:
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:  # the same request twice: the second one waits and reads the cache
            cached = self.cache.result(key)
            folder = self.cache.folder(key)
            if cached is not None and folder is not None:
                return cached, folder
            if cancel.is_set():
                raise JobCancelled
            work = self.cache.new_work_folder(key)
            try:
                result = self._in_process(kind, args, work, progress, cancel)
                return result, self.cache.keep(key, work, result)
            except BaseException:
                self.cache.drop(work)  # gone once the task has ended, however it ended
                raise

    def _in_process(
        self, kind: str, args: dict[str, Any], work: Path, progress: Any, cancel: threading.Event
    ) -> Any:
        from pnp.studio.work import child_main

        if self._closed:
            raise JobCancelled
        parent, child = self.ctx.Pipe(duplex=False)
        proc = self.ctx.Process(
            target=child_main, args=(child, kind, args, str(work)), name=f"pnp-{kind}"
        )
        proc.start()
        child.close()
        with self._lock:
            self._processes.add(proc)
        stopped_at: float | None = None
        end: tuple[Any, ...] | None = None  # the last message from the pipe: ("done", result)...
        try:
            while end is None:
                if (cancel.is_set() or self._closed) and stopped_at is None:
                    stopped_at = time.monotonic()
                    proc.terminate()
                if stopped_at is not None and time.monotonic() - stopped_at > GRACE:
                    proc.kill()
                    raise JobCancelled
                if parent.poll(0.05):
                    try:
                        message = parent.recv()
                    except EOFError:
                        break
                    if message[0] == "progress" and progress is not None:
                        progress(*message[1:])
                    elif message[0] != "progress":
                        end = message
                elif not proc.is_alive() and not parent.poll(0):
                    break
        finally:
            parent.close()
            proc.join(GRACE)
            if proc.is_alive():
                proc.kill()
                proc.join()
            with self._lock:
                self._processes.discard(proc)
        if end is None:
            if stopped_at is not None:
                raise JobCancelled
            raise RuntimeError(f"the {kind} process ended unexpectedly (exit code {proc.exitcode})")
        if end[0] == "done":
            if stopped_at is not None:
                raise JobCancelled  # finished as the cancel came: a cancel still wins
            return end[1]
        if end[0] == "cancelled":
            raise JobCancelled
        if end[0] == "error":
            raise TaskError(end[1], end[2] if len(end) > 2 else None)
        raise RuntimeError(end[1])

    # --- the end ----------------------------------------------------------------------

    def close(self) -> None:
        """Stop every job now (the server is stopping): SIGTERM, then SIGKILL for what has
        not ended within `STOP_WAIT`, the forkserver included, so the studio's stop is
        bounded whatever a process does with SIGTERM."""
        self._closed = True
        for job in list(self.jobs.values()):
            if job.state in ("queued", "running"):
                job.cancel.set()
        with self._lock:
            procs = list(self._processes)
        for proc in procs:
            proc.terminate()
        deadline = time.monotonic() + STOP_WAIT
        for proc in procs:
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._checks.shutdown(wait=False, cancel_futures=True)
        _stop_forkserver(deadline)


def _stop_forkserver(deadline: float) -> None:
    """End the forkserver with the server (SIGKILL if it is still there at `deadline`).
    While it still warms up, a runner thread that asked it for a task process waits for
    its answer, and Python waits for that thread before it exits: Ctrl-C just after the
    first request took as long as the warm-up (20 s on a loaded machine). Its end answers
    the thread with an error, and the exit goes on.

    The ended server is reaped and forgotten here: a record left pointing at a dying
    process made the next server in this process (a test's) find it "alive" and send its
    first task to it (EOFError)."""
    from multiprocessing import forkserver, util

    server: Any = forkserver._forkserver  # CPython's record (its `_stop` waits out a warm-up)
    with server._lock:
        pid = server._forkserver_pid
        if pid is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
        _reap(pid, deadline)
        with contextlib.suppress(OSError):
            os.close(server._forkserver_alive_fd)
        address = server._forkserver_address
        if address and not util.is_abstract_socket_namespace(address):
            with contextlib.suppress(OSError):
                os.unlink(address)
        server._forkserver_address = None
        server._forkserver_alive_fd = None
        server._forkserver_pid = None


def _reap(pid: int, deadline: float) -> int | None:
    """Wait for our child `pid` to end, SIGKILL it at `deadline` (a `time.monotonic()`
    time), and collect it: its exit code (minus the signal that ended it), or None if it
    was not ours to collect."""
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return None  # not ours, or collected already
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() >= deadline:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            try:
                return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
            except ChildProcessError:
                return None
        time.sleep(0.01)


class Busy(Exception):
    """Too many jobs and checks wait to start another: how many."""

    def __init__(self, waiting: int) -> None:
        super().__init__(waiting)
        self.waiting = waiting


class JobCancelled(Exception):
    """The task was cancelled (by the user or because the server stops)."""
