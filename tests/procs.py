"""Real `pnp` processes for the signal tests: started as a terminal would start them, and
looked at through /proc (Linux).

Every wait is bounded twice: by its own `guard`, and by one deadline for all the waits of
the current test (`TOTAL`, restarted by an autouse fixture in conftest.py), so a test that
signals several processes cannot add its guards up to minutes. A wait that runs out kills
the process group it waited on and fails the test with one sentence saying what it waited for.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import pytest

from pnp.bench.stop import children, cpu_seconds  # noqa: F401 - the tests read /proc as the bench does

ROOT = Path(__file__).resolve().parents[1]
GUARD = 60.0  # seconds: only there so a broken pnp fails a test instead of hanging it
TOTAL = 90.0  # seconds: every wait of one test together
REAP = 5.0  # seconds: for a killed group's pipes to close

needs_proc = Path("/proc/self/task").is_dir()

_test_total = TOTAL
_test_ends = time.monotonic() + TOTAL


def catches_sigterm(pid: int) -> bool:
    """Whether the process has a handler for SIGTERM: pnp's own signal handling is on.

    Python catches SIGINT from its first steps but leaves SIGTERM to the system; `pnp`
    takes SIGTERM as its first act, before loading its command line. A signal that comes
    earlier, while Python itself starts (its `site` module), is Python's to handle, and
    no program can: so a "while loading" moment waits for this."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = re.search(r"^SigCgt:\s*([0-9a-f]+)", status, re.MULTILINE)
    return caught is not None and bool(int(caught.group(1), 16) >> (signal.SIGTERM - 1) & 1)


def new_test(total: float = TOTAL) -> None:
    """Start the current test's deadline: its waits together last at most `total` s."""
    global _test_total, _test_ends
    _test_total, _test_ends = total, time.monotonic() + total


def _deadline(guard: float) -> float:
    return min(time.monotonic() + guard, _test_ends)


def _expired(what: str, guard: float, proc: subprocess.Popen | None) -> NoReturn:
    """Kill what the test started, then fail saying what never happened."""
    whole_test = time.monotonic() >= _test_ends
    if proc is not None:
        kill_group(proc)
    bound = f"the test's {_test_total:g} s for all its waits" if whole_test else f"{guard:g} s"
    killed = f"; killed process group {proc.pid}" if proc is not None else ""
    pytest.fail(f"{what}: not within {bound}{killed}", pytrace=False)


def default_sigint() -> None:
    """In the child: Ctrl-C as a terminal gives it, even if this shell ignores SIGINT."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(
    *args: str,
    cwd: Path | None = None,
    then: Callable[[], None] | None = None,
    module: str = "pnp",
    path: Path | None = None,
) -> subprocess.Popen:
    """`python -m pnp ARGS` in its own session (a signal to its group reaches its workers
    as a terminal's Ctrl-C does), with SIGINT at its default whatever ignores it here;
    `then` runs in the child before pnp does (to set a resource limit). `module` runs
    another module (a test's own wrapper of pnp, found in `path`)."""

    def prepare() -> None:
        default_sigint()
        if then is not None:
            then()

    where = [str(path)] if path is not None else []
    env = {
        **os.environ,
        "COLUMNS": "200",
        "NO_COLOR": "1",
        "PYTHONPATH": os.pathsep.join([*where, str(ROOT)]),
    }
    return subprocess.Popen(
        [sys.executable, "-m", module, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env=env,
        start_new_session=True,
        preexec_fn=prepare,
    )


def gone(pid: int) -> bool:
    """Not running any more: no such process, or a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def until(
    what: Callable[[], object],
    guard: float = GUARD,
    step: float = 0.02,
    proc: subprocess.Popen | None = None,
    waiting_for: str = "the awaited moment",
) -> object:
    """Poll `what` until it is truthy and return it; past `guard` s (or the test's
    deadline) kill `proc`'s group, if given, and fail naming `waiting_for`."""
    deadline = _deadline(guard)
    while True:
        value = what()
        if value:
            return value
        if time.monotonic() >= deadline:
            _expired(f"waited for {waiting_for}", guard, proc)
        time.sleep(step)


def finish(proc: subprocess.Popen, guard: float = GUARD) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) once the process has ended; past `guard` s (or the
    test's deadline) its group is killed and the test fails."""
    try:
        out, err = proc.communicate(timeout=max(0.0, _deadline(guard) - time.monotonic()))
    except subprocess.TimeoutExpired:
        _expired(f"waited for pnp (pid {proc.pid}) to end", guard, proc)
    return proc.returncode, out, err


def kill_group(proc: subprocess.Popen) -> None:
    """Clean up whatever a test left running (workers included: they share the group)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    if proc.returncode is None:
        try:
            proc.communicate(timeout=REAP)
        except subprocess.TimeoutExpired:  # a pipe held open outside the group
            for pipe in (proc.stdin, proc.stdout, proc.stderr):
                if pipe is not None:
                    pipe.close()
            proc.wait(timeout=REAP)
