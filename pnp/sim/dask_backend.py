"""Games played on a Dask cluster: `pnp simulate --scheduler tcp://host:8786` (or `local`).

Dask (`pip install 'pnp-kits[dask]'`) is imported here only, and only when a run asks for it.
The chunks of every job are submitted in job order, each a pure function of (job, start,
stop), so Dask may rerun one on another worker when a worker dies and the tallies are the
same; they are merged in chunk order (`pnp.sim.merge`), so the JSON of a seed is
byte-identical to the local pool's, whatever order they finish in. At most `in_flight`
chunks (a few for each thread of the cluster) are on the cluster at a time, and each one
that finishes makes room for the next: a Ctrl-C cancels only those, so it is as quick for
any size of grid (cancelling a whole grid costs in proportion to its size), and the first
tallies come back without waiting for the scheduler to take in the whole grid.

A job's data (engine, model, bot...) is a kilobyte or two pickled, and rides with each of
its tasks: a task depending on a data task (or on scattered data) would be placed on the
worker holding that data, leaving the others idle, and scattered data lost with a worker
could not be rebuilt. A worker unpickles a job once (`load_job` caches).

Reaching the scheduler and waiting for a worker take at most `--scheduler-timeout` seconds
(a day at most: `check_timeout`), and Ctrl-C or SIGTERM ends that wait at once
(`pnp.runtime.interrupt.raising_on_stop`), however long it was to be.

At connect every worker is asked which pnp it has (`importlib.metadata` run on the worker):
a worker without pnp, or with another version, refuses the run with one line, since it
would play other rules or fail on every chunk.
"""

from __future__ import annotations

import functools
import importlib.metadata
import itertools
import logging
import multiprocessing
import os
import pickle
import queue
import signal
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from typing import TYPE_CHECKING, Any

from pnp import DISTRIBUTION
from pnp.runtime.errors import PnpError
from pnp.runtime.interrupt import RunStop, alarm, raising_on_stop
from pnp.sim.merge import JobTally, Task, grid_tasks
from pnp.sim.metrics import Accumulator
from pnp.sim.worker import JobData, load_job_data, play_chunk

if TYPE_CHECKING:
    from distributed import Client

INSTALL = f"pip install '{DISTRIBUTION}[dask]'"
LOCAL = "local"  # --scheduler local: a LocalCluster on this machine for the run
POLL = 0.1  # seconds between looks at the futures (and at Ctrl-C)
LONELY = 1.0  # seconds between looks at whether the cluster still has a worker
MOST_TIMEOUT = 86_400.0  # seconds --scheduler-timeout may be: a day
GRACE = 1.0  # seconds past the timeout before a scheduler that never answers is left
TASKS_A_THREAD = 8  # tasks a grid is cut in, for each thread of the cluster
IN_FLIGHT_A_THREAD = 4  # chunks on the cluster for each of its threads (`in_flight`)
MOST_GAMES = 5000  # games a task at most (a second or so of a quick engine's games)
MOST_SLOW_GAMES = 50  # the same for seats that think (mcts): seconds a game
LOCAL_CONFIG: dict[str, Any] = {
    # workers forked from this process start at once with pnp imported (spawned ones
    # would import Dask and pnp again: seconds of a short run)
    **(
        {"distributed.worker.multiprocessing-method": "fork"}
        if "fork" in multiprocessing.get_all_start_methods()
        else {}
    ),
    # Dask's own watchers wake every process many times a second (the statistical
    # profiler every 10 ms, the event-loop tick every 20 ms, the memory monitor every
    # 100 ms): CPU taken from the games on a machine with as many workers as cores
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "500ms",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.worker.memory.monitor-interval": "1s",
}


def check_timeout(timeout: float) -> None:
    """Refuse a `--scheduler-timeout` that is no wait (0, negative, NaN) or past a day."""
    if not 0 < timeout <= MOST_TIMEOUT:
        raise PnpError(
            f"--scheduler-timeout must be more than 0 and at most {MOST_TIMEOUT:,.0f} seconds "
            f"(a day), got {timeout:g}"
        )


def pnp_version() -> str:
    """This pnp's version, as a worker's is read (from the installed distribution)."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        from pnp import __version__

        return __version__


@functools.lru_cache(maxsize=64)
def load_job(data: bytes) -> JobData:
    """A job's data on a worker, unpickled once for all of its tasks there."""
    return load_job_data(data)


def play_task(data: bytes, start: int, stop: int) -> Accumulator:
    """One chunk on a worker: games start..stop-1 of the pickled job `data`, tallied."""
    engine, model, players, bot, seed, options = load_job(data)
    return play_chunk(engine, model, players, bot, seed, start, stop, options)


def play_on_dask(
    scheduler: str,
    timeout: float,
    workers: int,
    jobs: Sequence[Any],
    chunk: int | None,
    tallies: Sequence[JobTally],
    progress: Callable[[], None],
    ctrl_c: RunStop,
) -> str | None:
    """Play every game of `jobs` into `tallies` on the cluster at `scheduler` (`chunk`
    games a task, or `chunk_sizes`); the reason the run stopped early when a worker's loss
    could not be made good (None otherwise, or after Ctrl-C, which cancels the chunks in
    flight)."""
    check_timeout(timeout)
    with ExitStack() as stack:
        try:
            with raising_on_stop(ctrl_c):
                client, stop_now = stack.enter_context(connect(scheduler, timeout, workers))
        except KeyboardInterrupt:  # while the cluster was reached: no game was played
            return None
        threads = sum(client.nthreads().values())
        sizes = [chunk] * len(jobs) if chunk else chunk_sizes(jobs, threads)
        tasks = grid_tasks([j.games for j in jobs], sizes)
        failure = _play(client, timeout, jobs, tasks, tallies, progress, ctrl_c)
        if ctrl_c.count:
            stop_now()
        return failure


class _TimedOut(KeyboardInterrupt):
    """The wait for a scheduler ran past its timeout: raised in the wait as Ctrl-C is,
    which Dask's wait answers by cancelling it (a server that accepts the connection and
    never answers is waited for without end by Dask's own timeout)."""


def _stop_now(client: Client, cluster: Any) -> Callable[[], None]:
    """After Ctrl-C, kill the worker processes of our own LocalCluster (never restarted):
    one busy in a game cannot hear that its task was cancelled, and closing the cluster
    would wait for its game to end."""
    pids = list(client.run(os.getpid).values())

    def stop() -> None:
        for nanny in cluster.workers.values():
            nanny.close_gracefully()  # what the cluster's own shutdown says first
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    return stop


def chunk_sizes(jobs: Sequence[Any], threads: int) -> list[int]:
    """Games a task for each job: the grid in about `TASKS_A_THREAD` tasks for each of the
    cluster's threads, so they share the work evenly to the end, and no more, since each
    task costs the scheduler and the worker some milliseconds (the local pool's small
    chunks would cost Dask a good part of a quick game's run); but at most `MOST_GAMES`
    (`MOST_SLOW_GAMES` for seats that think), so the progress moves and a Ctrl-C, which
    loses the tasks being played, loses little."""
    size = max(1, -(-sum(j.games for j in jobs) // max(1, threads * TASKS_A_THREAD)))
    return [
        min(j.games, size, MOST_GAMES if isinstance(j.bot, str) else MOST_SLOW_GAMES) for j in jobs
    ]


@contextmanager
def connect(
    scheduler: str, timeout: float, workers: int
) -> Iterator[tuple[Client, Callable[[], None]]]:
    """A client of the scheduler (or of a LocalCluster of `workers` processes started for
    the run), its workers checked, and what stops the run's own workers at once after
    Ctrl-C; one-line errors for what cannot be used."""
    try:
        import dask
        import distributed
    except ImportError:
        raise PnpError(f"--scheduler needs Dask: {INSTALL}") from None
    with _quiet(), ExitStack() as stack:
        if scheduler == LOCAL:
            cluster = _local_cluster(dask, distributed, workers)
            stack.callback(cluster.close)
            target: Any = cluster
        else:
            target = scheduler
        try:
            with alarm(timeout + GRACE, _TimedOut):
                client = distributed.Client(target, timeout=timeout, set_as_default=False)
        except BaseException as exc:
            _abandon(distributed.Client, exc)
            if not isinstance(exc, Exception | _TimedOut):
                raise  # Ctrl-C
            why = "no answer" if isinstance(exc, _TimedOut) else _reason(exc)
            raise PnpError(
                f"cannot reach the Dask scheduler at {scheduler} within {timeout:g} s ({why})"
            ) from None
        stack.callback(client.close)
        try:
            client.wait_for_workers(1, timeout=timeout)
        except Exception:
            raise PnpError(
                f"the Dask scheduler at {scheduler} has no worker (waited {timeout:g} s)"
            ) from None
        check_workers(client)
        yield client, _stop_now(client, target) if scheduler == LOCAL else (lambda: None)


def _abandon(client_class: Any, exc: BaseException) -> None:
    """Forget the client that never connected (found in the frames `exc` left). Closing
    it waits for its connection attempt to end, up to twice the timeout (two days), and
    Python closes it as soon as it is collected, after the command's own end line: it is given
    a second, then marked closed, so that nothing waits for it any more."""
    tb = exc.__traceback__
    while tb is not None:
        client = tb.tb_frame.f_locals.get("self")
        if isinstance(client, client_class) and client.status != "closed":
            with suppress(Exception, KeyboardInterrupt):
                client.close(timeout=1)
            client.status = "closed"
        tb = tb.tb_next


def _local_cluster(dask: Any, distributed: Any, workers: int) -> Any:
    """A LocalCluster of `workers` single-threaded processes on 127.0.0.1."""
    try:
        with dask.config.set(LOCAL_CONFIG):
            return distributed.LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
    except Exception as exc:
        raise PnpError(f"cannot start a local Dask cluster: {_reason(exc)}") from None


@contextmanager
def local_cluster(workers: int) -> Iterator[str]:
    """A LocalCluster kept for many runs (the rounds of `pnp tune --scheduler local`):
    its scheduler's address, for `run_jobs`; started once, closed at the end."""
    try:
        import dask
        import distributed
    except ImportError:
        raise PnpError(f"--scheduler needs Dask: {INSTALL}") from None
    with _quiet():
        cluster = _local_cluster(dask, distributed, workers)
        try:
            yield str(cluster.scheduler_address)
        finally:
            cluster.close()


def check_workers(client: Client) -> None:
    """Refuse a cluster where a worker lacks pnp or has another version of it."""
    mine = pnp_version()
    theirs = client.run(importlib.metadata.version, DISTRIBUTION, on_error="return")
    for address, version in sorted(theirs.items()):
        if isinstance(version, importlib.metadata.PackageNotFoundError | ImportError):
            raise PnpError(f"Dask worker {address} has no pnp: install {DISTRIBUTION} {mine} on it")
        if isinstance(version, BaseException):
            raise PnpError(f"Dask worker {address} could not say its pnp version: {version}")
        if version != mine:
            raise PnpError(
                f"Dask worker {address} has pnp {version}, this is {mine}: "
                "install the same version on every worker"
            )


def _play(
    client: Client,
    timeout: float,
    jobs: Sequence[Any],
    tasks: Sequence[Task],
    tallies: Sequence[JobTally],
    progress: Callable[[], None],
    ctrl_c: RunStop,
) -> str | None:
    from distributed.scheduler import KilledWorker

    run = uuid.uuid4().hex[:12]
    data = [pickle.dumps(job.data(), protocol=pickle.HIGHEST_PROTOCOL) for job in jobs]
    todo = iter(tasks)  # earlier jobs first, so the first settings finish first
    flying: dict[str, tuple[Any, int, int]] = {}  # key: future, job, chunk number
    done: queue.SimpleQueue[Any] = queue.SimpleQueue()  # futures as they finish
    window = in_flight(client.nthreads())
    failure: str | None = None
    lonely_since: float | None = None
    looked = time.monotonic()
    try:
        while not ctrl_c.count:
            for i, k, a, b in itertools.islice(todo, max(0, window - len(flying))):
                key = f"pnp-chunk-{run}-{i}-{k}"
                future = client.submit(play_task, data[i], a, b, key=key, priority=len(jobs) - i)
                flying[key] = (future, i, k)
                future.add_done_callback(done.put)
            if not flying:
                break
            finished = _finished(done, flying)
            for future in finished:
                try:
                    acc = future.result()
                except KilledWorker as exc:
                    failure = f"Dask gave up on a chunk: {_reason(exc)}"
                    break
                _, i, k = flying.pop(future.key)
                tallies[i].add(k, acc)
            if failure:
                break
            if finished:
                try:
                    progress()
                except KeyboardInterrupt:  # Ctrl-C reaching us some other way
                    ctrl_c.note()
            now = time.monotonic()
            if now - looked >= LONELY:  # a cluster whose workers all left would wait forever
                looked = now
                threads = client.nthreads()
                window = in_flight(threads)  # workers come and go
                lonely_since = (lonely_since or now) if not threads else None
                if lonely_since is not None and now - lonely_since > timeout:
                    failure = f"every Dask worker left (none for {timeout:g} s)"
                    break
    finally:
        client.cancel([future for future, _, _ in flying.values() if not future.done()])
    return failure


def in_flight(threads: dict[str, int]) -> int:
    """Chunks a cluster of `threads` (worker: threads) is given at a time:
    `IN_FLIGHT_A_THREAD` for each thread (at least one thread's worth, while it has none).
    One is played while the others wait on the scheduler, which hands a worker its next as
    soon as its last is done, without waiting for this process to submit one; a faster
    worker takes more."""
    return IN_FLIGHT_A_THREAD * max(1, sum(threads.values()))


def _finished(done: queue.SimpleQueue[Any], flying: dict[str, tuple[Any, int, int]]) -> list[Any]:
    """The futures of `flying` that finished since the last look, waiting up to `POLL`
    seconds for the first (so a Ctrl-C is seen within that time)."""
    out: list[Any] = []
    try:
        out.append(done.get(timeout=POLL))
        while True:
            out.append(done.get_nowait())
    except queue.Empty:
        pass
    return [f for f in out if f.key in flying]


def _reason(exc: BaseException) -> str:
    """The first line of an exception, short enough for a one-line error."""
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:200]


@contextmanager
def _quiet() -> Iterator[None]:
    """Dask's own log lines (a worker lost, a connection retried) stay off the command
    line's stderr: what matters comes back as pnp's one line."""
    logger = logging.getLogger("distributed")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)
