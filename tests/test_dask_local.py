"""A sweep's grid on this machine: the local pool and a Dask LocalCluster give the same
JSON as one process playing every game in order; the one-line errors of `--scheduler`.

The cluster of real `dask scheduler` and `dask worker` processes is in test_dask_cluster.py.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from cli_run import one_error_line, run
from dask_grid import grid_jobs, grid_json
from procs import start

from pnp.play.outcome import GameRecord
from pnp.runtime.errors import PnpError
from pnp.sim import dask_backend
from pnp.sim.merge import JobTally
from pnp.sim.metrics import Accumulator
from pnp.sim.runner import run_jobs

distributed = pytest.importorskip("distributed")


def test_chunks_arriving_in_any_order_merge_as_if_played_in_order():
    """Counters remember the order keys were first seen, and the mean's interval sums
    floats in that order: a tally merged in arrival order could differ in its last bits."""
    ends = ["timeout", "fifty", "full"]
    records = [GameRecord(1 + i % 7, ends[i % 3], (0, 0), (i % 2,), (), ()) for i in range(9)]
    in_order = Accumulator(2)
    for r in records:
        in_order.add(r)
    parts = []
    for a in range(0, 9, 3):
        part = Accumulator(2)
        for r in records[a : a + 3]:
            part.add(r)
        parts.append(part)
    tally = JobTally(2, 9)
    for k in (2, 0, 1):
        tally.add(k, parts[k])
        assert tally.complete == (k == 1)
    merged = tally.finish()
    assert merged == in_order
    assert list(merged.ends) == list(in_order.ends) == ["timeout", "fifty", "full"]
    assert list(merged.turns) == list(in_order.turns)
    backwards = Accumulator(2).merge(parts[2]).merge(parts[1]).merge(parts[0])
    assert list(backwards.turns) != list(in_order.turns)  # what the chunk order prevents


@pytest.mark.slow  # a second or more: the fast tier stays under a minute
def test_a_grid_on_the_local_pool_is_the_same_for_any_workers_and_chunk_size():
    jobs = grid_jobs(900)
    expected = grid_json(jobs, run_jobs(jobs, 1))
    assert '"games": 900' in expected
    for workers, chunk in ((1, 77), (2, None), (2, 50), (3, 130)):
        seen: list[tuple[int, int]] = []
        results = run_jobs(jobs, workers, lambda s, g, seen=seen: seen.append((s, g)), chunk=chunk)
        assert grid_json(jobs, results) == expected, (workers, chunk)
        assert seen[-1] == (6, 6 * 900) and seen == sorted(seen)
    other = grid_jobs(900, seed=8)
    assert grid_json(other, run_jobs(other, 2)) != expected


def test_the_pool_sends_a_job_to_a_worker_once_and_then_only_chunks(monkeypatch):
    from pnp.sim import pool

    sent: Counter[tuple[int, str, int]] = Counter()
    send = pool.Pool._send

    def counting(self, worker, task):
        before = set(worker.knows)
        send(self, worker, task)
        if task[0] not in before:
            sent[(self.workers.index(worker), "job", task[0])] += 1
        sent[(self.workers.index(worker), "chunk", task[0])] += 1

    monkeypatch.setattr(pool.Pool, "_send", counting)
    jobs = grid_jobs(600)
    run_jobs(jobs, 2, chunk=50)
    jobs_sent = {k: n for k, n in sent.items() if k[1] == "job"}
    chunks = sum(n for k, n in sent.items() if k[1] == "chunk")
    assert chunks == 6 * 12
    assert set(jobs_sent.values()) == {1}  # never twice to the same worker
    assert {w for w, _, _ in jobs_sent} == {0, 1}  # both workers served the grid


@pytest.mark.slow  # a LocalCluster takes seconds to start
def test_a_grid_on_a_local_dask_cluster_gives_the_same_json():
    jobs = grid_jobs(900)
    expected = grid_json(jobs, run_jobs(jobs, 1))
    seen: list[tuple[int, int]] = []
    results = run_jobs(jobs, 2, lambda s, g: seen.append((s, g)), "local", 60.0, chunk=100)
    assert grid_json(jobs, results) == expected
    assert seen[-1] == (6, 6 * 900)


@pytest.mark.slow
def test_ctrl_c_on_a_dask_cluster_returns_the_finished_chunks_at_once():
    # minutes of games on two workers: only a prompt cancel ends the run within the bound,
    # which leaves room for a loaded machine (of the grid's 3,000 chunks, the run cancels
    # the few on the cluster: test_dask_cluster.py holds that number to a few a thread)
    jobs = grid_jobs(1_000_000)
    told: list[float] = []

    def ctrl_c(settings: int, games: int) -> None:
        told.append(time.monotonic())
        raise KeyboardInterrupt  # as the command line's progress line meets Ctrl-C

    results = run_jobs(jobs, 2, ctrl_c, "local", 60.0, chunk=2000)
    returned = time.monotonic()
    assert told and returned - told[0] < 30.0  # cancelled, not played to the end
    assert results[-1].interrupted
    assert 0 < sum(r.games for r in results) < 6 * 1_000_000


def test_without_dask_installed_scheduler_is_one_line_saying_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails
    code, out, err = run(
        capsys, "simulate", "exploding-dice", "--games", "50", "--scheduler", "local"
    )
    assert code == 2
    line = one_error_line(err)
    assert "pip install 'pnp-kits[dask]'" in line
    with pytest.raises(PnpError, match=r"pip install 'pnp-kits\[dask\]'"):
        run_jobs(grid_jobs(10), 1, scheduler="tcp://127.0.0.1:1")


def test_the_scheduler_timeout_must_be_positive(capsys):
    code, _, err = run(
        capsys, "simulate", "exploding-dice", "--scheduler", "local", "--scheduler-timeout", "0"
    )
    assert code == 2
    assert "--scheduler-timeout must be more than 0" in one_error_line(err)


@pytest.mark.parametrize("value", ["1e6", "86401", "inf", "nan", "-1"])
@pytest.mark.parametrize("command", [["simulate"], ["tune", "--target", "turns in 5..30"]])
def test_a_scheduler_timeout_past_a_day_or_no_wait_is_one_line(capsys, command, value):
    code, _, err = run(
        capsys, command[0], "exploding-dice", *command[1:], "--scheduler", "tcp://127.0.0.1:1",
        "--scheduler-timeout", value,
    )  # fmt: skip
    assert code == 2
    assert "--scheduler-timeout must be more than 0 and at most 86,400 seconds" in (
        one_error_line(err)
    )


@contextmanager
def _silent_scheduler() -> Iterator[tuple[str, socket.socket]]:
    """An address that takes a connection and never answers on it (a scheduler hung, or
    another service on its port): Dask's own timeout never ends that wait."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        listener.settimeout(60)
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}", listener


@pytest.mark.slow  # a fresh interpreter that imports Dask
@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_or_sigterm_ends_a_wait_of_an_hour_for_the_scheduler(signum, code):
    with _silent_scheduler() as (address, listener):
        proc = start("simulate", "exploding-dice", "--games", "100", "--scheduler", address,
                     "--scheduler-timeout", "3600")  # fmt: skip
        conn, _ = listener.accept()  # the client waits for the scheduler's answer now
        with conn:
            os.killpg(proc.pid, signum)
            _, err = proc.communicate(timeout=30)  # a guard: the wait was for an hour
    assert proc.returncode == code, err
    assert err.strip().splitlines()[-1] == "interrupted: 0 of 100 games finished"
    assert "Traceback" not in err


@pytest.mark.slow  # a fresh interpreter that imports Dask and waits out the timeout
def test_a_scheduler_that_never_answers_is_one_line_after_the_timeout():
    with _silent_scheduler() as (address, _):
        r = subprocess.run(
            [sys.executable, "-m", "pnp.cli", "simulate", "exploding-dice", "--games", "100",
             "--scheduler", address, "--scheduler-timeout", "2", "--json", "-"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert r.returncode == 2, r.stderr
    assert one_error_line(r.stderr) == (
        f"error: cannot reach the Dask scheduler at {address} within 2 s (no answer)"
    )


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when the block ends: nothing listens


@pytest.mark.slow  # a fresh interpreter that imports Dask and waits out the timeout
def test_an_unreachable_scheduler_is_one_line_within_the_timeout():
    address = f"tcp://127.0.0.1:{_closed_port()}"
    began = time.monotonic()
    r = subprocess.run(
        [sys.executable, "-m", "pnp.cli", "simulate", "exploding-dice", "--games", "100",
         "--scheduler", address, "--scheduler-timeout", "2", "--json", "-"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    took = time.monotonic() - began
    assert r.returncode == 2, r.stderr
    line = one_error_line(r.stderr)
    assert address in line and "within 2 s" in line
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert took < 2 + 15  # the timeout, plus starting Python and importing Dask


def test_dask_is_imported_only_when_a_run_asks_for_it():
    code = (
        "import sys\n"
        "from pnp.sim.command import run_simulation\n"
        "import pnp.cli.simulate\n"
        "run_simulation('exploding-dice', games=20, jobs=2)\n"
        "print(sorted(m for m in ('dask', 'distributed') if m in sys.modules))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def test_a_worker_version_is_compared_with_this_one():
    class Client:
        def __init__(self, answers):
            self.answers = answers

        def run(self, function, *args, on_error):
            return {a: v for a, v in self.answers.items()}

    mine = dask_backend.pnp_version()
    dask_backend.check_workers(Client({"tcp://a:1": mine, "tcp://b:2": mine}))  # type: ignore[arg-type]
    with pytest.raises(PnpError, match=rf"worker tcp://b:2 has pnp 0\.0\.1, this is {mine}"):
        dask_backend.check_workers(Client({"tcp://a:1": mine, "tcp://b:2": "0.0.1"}))  # type: ignore[arg-type]
    missing = __import__("importlib.metadata").metadata.PackageNotFoundError("pnp")
    with pytest.raises(PnpError, match="worker tcp://a:1 has no pnp"):
        dask_backend.check_workers(Client({"tcp://a:1": missing}))  # type: ignore[arg-type]
