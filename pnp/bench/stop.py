"""Benchmark: how long `pnp simulate` takes to end after Ctrl-C, at many moments of a run.

Part of `make bench` (``python -m pnp.bench.stop`` alone). Each run is started as a
terminal starts it (its own process group, SIGINT at its default), signalled once its
processes have spent a given CPU time (loading, starting the pool, the first chunks, the
kernel's batches, a tree search's decision of a million playouts), and timed from the
signal to its end. The tests hold a generous bound on the CPU spent after the signal
(tests/test_stop_at_any_moment.py); these are the wall-clock figures a user sees, which
depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

RANDOM = ("simulate", "parcheesi", "--games", "300000", "--jobs", "2", "--progress", "none")
SEARCH = ("--bot", "mcts", "--bot-budget", "1000000", "--progress", "none")
RUNS = {
    "parcheesi, 300,000 random games, --jobs 2": (
        RANDOM,
        [("loading", 0.05, 0), ("pool starting", 0.0, 1), ("first chunks", 0.1, 2),
         ("kernel batches", 0.5, 2), ("later batches", 1.5, 2)],
    ),
    "exploding-dice, mcts at 1,000,000 playouts, --jobs 2": (
        ("simulate", "exploding-dice", "--games", "2", "--jobs", "2", *SEARCH),
        [("a decision under way", 0.8, 2)],
    ),
    "exploding-dice, mcts at 1,000,000 playouts, --jobs 1": (
        ("simulate", "exploding-dice", "--games", "2", "--jobs", "1", *SEARCH),
        [("a decision under way", 1.0, 0)],
    ),
    "parcheesi, mcts at 1,000,000 playouts, --jobs 2": (
        ("simulate", "parcheesi", "--games", "4", "--jobs", "2", *SEARCH),
        [("a decision under way", 0.8, 2)],
    ),
}  # fmt: skip
"""For each run, its moments: (name, CPU seconds, in how many workers, 0 for pnp itself)."""
GUARD = 120.0  # seconds: a run that does not stop is killed and reported so


def cpu_seconds(pid: int) -> float:
    """User + system CPU time `pid` has used so far (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The processes `pid` has started (its simulation workers)."""
    kids: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids += [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            pass
    return kids


def _reached(pid: int, cpu: float, workers: int) -> bool:
    if workers == 0:
        return cpu_seconds(pid) >= cpu
    kids = children(pid)
    return len(kids) >= workers and all(cpu_seconds(k) >= cpu for k in kids[:workers])


def stop_seconds(args: tuple[str, ...], cpu: float, workers: int) -> float | None:
    """Seconds from SIGINT (to the run's process group) to the run's end, or None if it
    did not end within `GUARD` (it is killed then)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "pnp", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        # in the measured child only, before pnp runs: Ctrl-C as a terminal would give it
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + GUARD
        while not _reached(proc.pid, cpu, workers) and proc.poll() is None:
            if time.monotonic() > deadline:
                return None
            time.sleep(0.003)
        signalled = time.perf_counter()
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(GUARD)
        except subprocess.TimeoutExpired:
            return None
        return time.perf_counter() - signalled
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def report(repeats: int = 3) -> list[str]:
    """One line per run and moment: median and worst seconds to stop over `repeats`."""
    if not Path("/proc/self/task").is_dir():
        return ["stop after Ctrl-C: not measured (needs Linux /proc)"]
    lines = [f"stop after Ctrl-C (SIGINT to the process group), {repeats} runs a moment:"]
    for label, (args, moments) in RUNS.items():
        lines.append(f"  {label}:")
        for name, cpu, workers in moments:
            times = [stop_seconds(args, cpu, workers) for _ in range(repeats)]
            done = sorted(t for t in times if t is not None)
            hung = len(times) - len(done)
            said = (
                f"median {statistics.median(done):.2f} s, worst {done[-1]:.2f} s"
                if done
                else "never"
            )
            lines.append(
                f"    {name:22} {said}" + (f" ({hung} did not stop in {GUARD:g} s)" if hung else "")
            )
    return lines


def main(argv: list[str] | None = None) -> None:
    repeats = int(argv[0]) if argv else 3
    print("\n".join(report(repeats)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
