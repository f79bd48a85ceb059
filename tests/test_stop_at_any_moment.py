"""A simulation stops soon after Ctrl-C or SIGTERM whatever it is doing: starting its pool,
playing its first chunks, deep in a kernel's batches, or in a tree search's decision of a
million playouts (compiled or readable, in this process or in a worker), and so does
`--skill-trace`.

Each run is signalled at a moment found by watching it (its processes' CPU time, never a
sleep). What a stop costs is measured as the CPU time all its processes spend after the
signal (the whole process tree's, from the kernel's accounting once pnp is reaped): a
window where the signal is not acted on shows up there as seconds of play, however busy the
machine is. The bound is a generous safety bound; what a stop takes on this machine, in
wall-clock time, is in `make bench` (`pnp.bench.stop`).
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from procs import (
    catches_sigterm,
    children,
    cpu_seconds,
    finish,
    kill_group,
    needs_proc,
    start,
    until,
)

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not needs_proc, reason="Linux /proc")]

CPU_AFTER = 1.0
"""CPU seconds (all processes together) a run may spend after the signal: measured
0.02-0.2 s; a window where the signal waits for a batch or a decision costs seconds."""
ENDS = 20.0  # wall-clock seconds: only so that a run that never stops fails the test

Moment = Callable[[int], bool]


def _tree_cpu(pid: int) -> float:
    return cpu_seconds(pid) + sum(cpu_seconds(k) for k in children(pid))


def _reaped_cpu() -> float:
    """CPU seconds of this process's children that have ended (and theirs, reaped by them)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def stop(
    args: tuple[str, ...],
    moment: Moment,
    signum: int = signal.SIGINT,
    group: bool = True,
    times: int = 1,
    waiting_for: str = "the moment",
    launch: Callable[[], subprocess.Popen] | None = None,
    ends: float = ENDS,
) -> tuple[int, str, str, float]:
    """Start `pnp ARGS` (or `launch()` it), wait for `moment(pid)`, send `signum` (`times`
    times) to its process group (a terminal's Ctrl-C) or, `group` false, to pnp alone
    (`kill PID`): (exit code, stdout, stderr, CPU seconds all its processes spent after
    the signal)."""
    reaped = _reaped_cpu()
    proc = launch() if launch is not None else start(*args)
    try:
        until(lambda: moment(proc.pid) or proc.poll() is not None, proc=proc, step=0.005,
              waiting_for=waiting_for)  # fmt: skip
        assert proc.poll() is None, "pnp ended before the signal: pick an earlier moment"
        before = _tree_cpu(proc.pid)
        for _ in range(times):
            (os.killpg if group else os.kill)(proc.pid, signum)
        code, out, err = finish(proc, guard=ends)
    finally:
        kill_group(proc)
    return code, out, err, _reaped_cpu() - reaped - before


def parent_cpu(seconds: float) -> Moment:
    return lambda pid: cpu_seconds(pid) >= seconds


def workers_cpu(seconds: float, workers: int = 2) -> Moment:
    def ready(pid: int) -> bool:
        kids = children(pid)
        return len(kids) == workers and all(cpu_seconds(k) >= seconds for k in kids)

    return ready


def forking(pid: int) -> bool:
    return len(children(pid)) >= 1


def stopped_like_any_command(code: int, err: str, signum: int = signal.SIGINT) -> None:
    assert code == 128 + signum, err
    assert "Traceback" not in err and "error" not in err, err
    word = "terminated" if signum == signal.SIGTERM else "interrupted"
    assert err.splitlines()[-1].startswith(("interrupted", word)), err


# --- issue 31, item 21: a two-worker run of random Parcheesi games ---------------------------

PARCHEESI = ("simulate", "parcheesi", "--games", "300000", "--jobs", "2", "--progress", "none")
MOMENTS = {
    "loading": catches_sigterm,
    "loaded": parent_cpu(0.15),
    "pool starting": forking,
    "workers starting": workers_cpu(0.01),
    "first chunks": workers_cpu(0.1),
    "kernel batches": workers_cpu(0.5),
    "later batches": workers_cpu(1.5),
}


IN_CI = ("loading", "pool starting", "kernel batches")
"""The moments CI signals at (one each while loading, forking and playing); `make
test-all` signals at every one."""


def in_ci_only(names: list[str], kept: tuple[str, ...]) -> list:
    """`names` as parameters, those not `kept` marked long."""
    return [n if n in kept else pytest.param(n, marks=pytest.mark.long) for n in names]


@pytest.mark.parametrize("moment", in_ci_only(list(MOMENTS), IN_CI))
def test_ctrl_c_stops_a_two_worker_run_at_any_moment(moment):
    code, _, err, cpu = stop(PARCHEESI, MOMENTS[moment], waiting_for=moment)
    stopped_like_any_command(code, err)
    assert cpu < CPU_AFTER, f"{cpu:.2f} CPU s after Ctrl-C while {moment}"


# --- item 22: a decision of a million playouts --------------------------------------------

MILLION = ("--bot", "mcts", "--bot-budget", "1000000", "--progress", "none")
SEARCHES = {
    "exploding-dice-workers": (
        ("simulate", "exploding-dice", "--games", "2", *MILLION),
        workers_cpu(0.8),
    ),
    "exploding-dice-jobs-1": (
        ("simulate", "exploding-dice", "--games", "2", "--jobs", "1", *MILLION),
        parent_cpu(1.0),
    ),
    "parcheesi-jobs-2": (
        ("simulate", "parcheesi", "--games", "4", "--jobs", "2", *MILLION),
        workers_cpu(0.8),
    ),
}


SIGNALS = {
    "ctrl-c": (signal.SIGINT, True),
    "sigterm-to-the-group": (signal.SIGTERM, True),
    "kill-pid": (signal.SIGTERM, False),
}


def _search_cases() -> list:
    """Every search with every signal; CI sends Ctrl-C to each search and all three
    signals to the first (`make test-all` sends all three to each)."""
    first = next(iter(SEARCHES))
    return [
        pytest.param(
            search,
            *SIGNALS[how],
            id=f"{search}-{how}",
            marks=() if how == "ctrl-c" or search == first else pytest.mark.long,
        )  # fmt: skip
        for search in SEARCHES
        for how in SIGNALS
    ]


@pytest.mark.parametrize(("search", "signum", "group"), _search_cases())
def test_a_compiled_search_of_a_million_playouts_stops_on_a_signal(search, signum, group):
    """Deep in the first decision (about a second of its minute), the search sees the
    signal within a few hundred playouts and the game is left unfinished; workers hear it
    from their parent when only pnp was signalled."""
    args, moment = SEARCHES[search]
    code, out, err, cpu = stop(args, moment, signum, group, waiting_for="a decision under way")
    stopped_like_any_command(code, err, signum)
    assert "0 of " in err.splitlines()[-1]  # no game finished: none is reported as one
    assert cpu < CPU_AFTER, f"{cpu:.2f} CPU s after the signal"


READABLE = """
import sys
import pnp.sim.seats

made = pnp.sim.seats.mcts_bot


def readable(engine, budget):
    bot = made(engine, budget)
    bot.compiled = False
    return bot


pnp.sim.seats.mcts_bot = readable
sys.argv = ["pnp", *sys.argv[1:]]
from pnp.__main__ import main
main()
"""


def readable_pnp(tmp_path: Path, args: tuple[str, ...]) -> subprocess.Popen:
    """`pnp ARGS` whose mcts seats search on the readable loop (`MctsBot(compiled=False)`)."""
    (tmp_path / "readable_pnp.py").write_text(READABLE)
    return start(*args, module="readable_pnp", path=tmp_path)


@pytest.mark.parametrize(
    "jobs, moment",
    [("1", parent_cpu(1.0)), pytest.param("2", workers_cpu(0.8), marks=pytest.mark.long)],
)
def test_the_readable_search_stops_on_ctrl_c_too(tmp_path, jobs, moment):
    """The search in Python, the compiled one's reference, at a million playouts."""
    args = ("simulate", "exploding-dice", "--games", "2", "--jobs", jobs, *MILLION)
    code, _, err, cpu = stop(args, moment, launch=lambda: readable_pnp(tmp_path, args))
    stopped_like_any_command(code, err)
    assert cpu < CPU_AFTER, f"{cpu:.2f} CPU s after Ctrl-C"


# --- --skill-trace: like every other command ------------------------------------------------

TRACE = ("simulate", "exploding-dice", "--skill-trace", "--games", "8", *MILLION[2:])


@pytest.mark.parametrize(
    "signum, group, times",
    [
        (signal.SIGINT, True, 1),
        pytest.param(signal.SIGTERM, False, 1, marks=pytest.mark.long),
        pytest.param(signal.SIGINT, True, 2, marks=pytest.mark.long),
    ],
    ids=["ctrl-c", "kill-pid", "ctrl-c-twice"],
)
def test_skill_trace_stops_like_any_command_and_prints_no_trace(signum, group, times):
    code, out, err, cpu = stop(TRACE, workers_cpu(0.8), signum, group, times)
    word = "terminated" if signum == signal.SIGTERM else "interrupted"
    assert (code, out, err) == (128 + signum, "", f"{word}\n")  # no trace, as if complete
    assert cpu < CPU_AFTER, f"{cpu:.2f} CPU s after the signal"


def test_the_harness_measures_what_runs_after_the_signal():
    """The measure can fail: a run whose Ctrl-C is ignored (a job started in the
    background) plays its 12,000 games (about 3 CPU s) to the end after the signal."""
    args = ("simulate", "parcheesi", "--games", "12000", "--jobs", "2", "--progress", "none")
    ignoring = start(*args, then=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    code, _, _, cpu = stop(args, workers_cpu(0.1), launch=lambda: ignoring, ends=80)
    assert code == 0 and cpu > 2 * CPU_AFTER
