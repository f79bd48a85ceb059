"""A real Dask cluster on 127.0.0.1: a `dask scheduler` and two `dask worker` processes
started by the test (the venv's `dask` command, random free ports) and torn down after it.

The grid gives the same JSON as one process playing it in order, also when one of the two
workers is killed mid-grid, and the scheduler never holds more than a few unfinished
chunks a thread, whatever the size of the grid; a worker whose pnp is another version
refuses the run at connect (its version is read on the worker: the test gives it another
`pnp` distribution first on its path).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from dask_grid import grid_jobs, grid_json

from pnp import DISTRIBUTION
from pnp.runtime.errors import PnpError
from pnp.sim import dask_backend
from pnp.sim.runner import run_jobs

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.slow  # a cluster takes seconds to start

DASK = Path(sys.executable).with_name("dask")
READY = 60.0  # seconds for the processes to start on a busy machine


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    """A process in its own group (so killing it takes its nanny's child too)."""
    return subprocess.Popen(
        [str(DASK), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env={**os.environ, **(env or {})},
    )


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(10)


class Cluster:
    def __init__(self) -> None:
        self.address = f"tcp://127.0.0.1:{_free_port()}"
        self.procs: list[subprocess.Popen] = []
        port = self.address.rsplit(":", 1)[1]
        self.procs.append(
            _start("scheduler", "--host", "127.0.0.1", "--port", port, "--no-dashboard")
        )

    def worker(self, env: dict[str, str] | None = None) -> subprocess.Popen:
        proc = _start(
            "worker", self.address, "--host", "127.0.0.1", "--nthreads", "1",
            "--nworkers", "1", "--no-dashboard", env=env,
        )  # fmt: skip
        self.procs.append(proc)
        return proc

    def wait_for(self, workers: int) -> None:
        with distributed.Client(self.address, timeout=READY) as client:
            client.wait_for_workers(workers, timeout=READY)

    def close(self) -> None:
        for proc in reversed(self.procs):
            _kill(proc)


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    c = Cluster()
    try:
        yield c
    finally:
        c.close()


def test_a_grid_on_a_scheduler_and_two_workers_gives_the_same_json(cluster):
    cluster.worker()
    cluster.worker()
    cluster.wait_for(2)
    jobs = grid_jobs(900)
    expected = grid_json(jobs, run_jobs(jobs, 1))
    results = run_jobs(jobs, 2, scheduler=cluster.address, scheduler_timeout=30.0, chunk=100)
    assert grid_json(jobs, results) == expected


def test_a_worker_killed_mid_grid_leaves_the_json_unchanged(cluster):
    cluster.worker()
    doomed = cluster.worker()
    cluster.wait_for(2)
    jobs = grid_jobs(50_000)  # a second of games: the first tallies come back long before the end
    expected = grid_json(jobs, run_jobs(jobs, 2))  # the pool, held to one process elsewhere
    told: list[int] = []

    def kill_once(settings: int, games: int) -> None:
        told.append(games)
        if len(told) == 1:  # some chunks are in, most are still to play
            _kill(doomed)

    results = run_jobs(jobs, 2, kill_once, cluster.address, 30.0, chunk=500)
    assert doomed.poll() is not None and told[0] < 6 * 50_000 / 2
    assert not results[-1].interrupted and len(results) == 6
    assert grid_json(jobs, results) == expected


def test_a_grid_keeps_a_few_chunks_a_thread_on_the_scheduler_not_the_whole_grid(cluster):
    """What the scheduler holds unfinished is what a Ctrl-C must cancel: a few chunks for
    each of the cluster's threads, however many chunks the grid is cut in. A plugin on the
    scheduler follows every chunk's state and keeps the most ever unfinished at once."""
    from distributed.diagnostics.plugin import SchedulerPlugin

    class Unfinished(SchedulerPlugin):  # nested: pickled by value for the scheduler
        name = "pnp-test-unfinished-chunks"

        def __init__(self) -> None:
            self.keys: set[str] = set()
            self.most = 0

        def transition(self, key, start, finish, *args, **kwargs) -> None:
            if not str(key).startswith("pnp-chunk-"):
                return
            if finish in ("waiting", "queued", "processing", "no-worker"):
                self.keys.add(key)
            else:
                self.keys.discard(key)
            self.most = max(self.most, len(self.keys))

    def most(dask_scheduler) -> tuple[int, int]:  # run on the scheduler
        plugin = dask_scheduler.plugins[Unfinished.name]
        return plugin.most, len(plugin.keys)

    cluster.worker()
    cluster.worker()
    cluster.wait_for(2)
    jobs = grid_jobs(3000)  # 6 x 60 chunks of 50 games
    expected = grid_json(jobs, run_jobs(jobs, 1))
    with distributed.Client(cluster.address, timeout=READY) as watcher:
        watcher.register_plugin(Unfinished())
        results = run_jobs(jobs, 2, None, cluster.address, 30.0, chunk=50)
        most_at_once, left = watcher.run_on_scheduler(most)
    assert grid_json(jobs, results) == expected
    assert left == 0
    assert 0 < most_at_once <= 2 * dask_backend.IN_FLIGHT_A_THREAD < 6 * 60


def test_a_worker_with_another_pnp_version_is_refused_at_connect(cluster, tmp_path):
    """The worker finds pnp's distribution at 9.9.9 first on its path: the probe runs there."""
    info = tmp_path / f"{DISTRIBUTION.replace('-', '_')}-9.9.9.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {DISTRIBUTION}\nVersion: 9.9.9\n")
    cluster.worker(env={"PYTHONPATH": str(tmp_path)})
    cluster.wait_for(1)
    began = time.monotonic()
    with pytest.raises(
        PnpError, match=r"Dask worker tcp://127\.0\.0\.1:\d+ has pnp 9\.9\.9, this is"
    ):
        run_jobs(grid_jobs(100), 1, scheduler=cluster.address, scheduler_timeout=30.0)
    assert time.monotonic() - began < 30
