"""Real `pnp` processes for the signal tests: started as a terminal would start them, and
looked at through /proc (Linux)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUARD = 60.0  # seconds: only there so a broken pnp fails a test instead of hanging it

needs_proc = Path("/proc/self/task").is_dir()


def _default_sigint() -> None:
    """In the child: Ctrl-C as a terminal gives it, even if this shell ignores SIGINT."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(
    *args: str, cwd: Path | None = None, then: Callable[[], None] | None = None
) -> subprocess.Popen:
    """`python -m pnp ARGS` in its own session (a signal to its group reaches its workers
    as a terminal's Ctrl-C does), with SIGINT at its default whatever ignores it here;
    `then` runs in the child before pnp does (to set a resource limit)."""

    def prepare() -> None:
        _default_sigint()
        if then is not None:
            then()

    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "pnp", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env=env,
        start_new_session=True,
        preexec_fn=prepare,
    )


def children(pid: int) -> list[int]:
    """The processes `pid` has started (its simulation workers)."""
    kids: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids += [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            pass
    return kids


def gone(pid: int) -> bool:
    """Not running any more: no such process, or a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time `pid` has used so far (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def until(what: Callable[[], object], guard: float = GUARD, step: float = 0.02) -> object:
    """Poll `what` until it is truthy and return it; fail after `guard` seconds in all."""
    deadline = time.monotonic() + guard
    while True:
        value = what()
        if value:
            return value
        assert time.monotonic() < deadline, f"still waiting after {guard} s"
        time.sleep(step)


def finish(proc: subprocess.Popen, guard: float = GUARD) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) once the process has ended; killed after `guard` s."""
    try:
        out, err = proc.communicate(timeout=guard)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        raise
    return proc.returncode, out, err


def kill_group(proc: subprocess.Popen) -> None:
    """Clean up whatever a test left running (workers included: they share the group)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    if proc.returncode is None:
        proc.communicate()
