"""Ctrl-C and SIGTERM end every command one way: one line, exit 130 (143 for SIGTERM),
``--out`` as it was, never a traceback and never killed by the signal itself.

The in-process tests put the signal exactly where it used to be lost (inside cairo's
write callback); the others run the real `pnp` and signal it at many moments, each found
by watching what the command has done so far (never by sleeping).
"""

from __future__ import annotations

import ctypes
import io
import os
import signal
import subprocess
import sys
import threading
import time
import types
from pathlib import Path

import cairosvg.surface
import procs
import pytest
from procs import (
    GUARD,
    ROOT,
    catches_sigterm,
    children,
    cpu_seconds,
    finish,
    kill_group,
    needs_proc,
    start,
    until,
)
from tiers import ci_keeps

from pnp.draw.render.png import svg_to_png
from pnp.runtime import interrupt

ENDS = 20.0  # s: pnp ends this soon after the signal, or the test fails (and kills it)

SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="10mm">'
    '<rect width="5" height="5"/></svg>'
)


class _CtrlCWhileWriting(io.BytesIO):
    """The PNG's output: Ctrl-C arrives while cairo writes the first bytes into it."""

    def write(self, data):  # type: ignore[override]
        if not self.tell():
            signal.raise_signal(signal.SIGINT)
        return super().write(data)


def test_ctrl_c_inside_cairos_write_callback_is_a_keyboard_interrupt(monkeypatch, ctrl_c_raises):
    # cairo turned it into CAIRO_STATUS_WRITE_ERROR, a traceback instead of exit 130
    monkeypatch.setattr(cairosvg.surface, "io", types.SimpleNamespace(BytesIO=_CtrlCWhileWriting))
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with pytest.raises(KeyboardInterrupt):
        svg_to_png(SVG, dpi=96)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_held_acts_on_a_signal_after_the_block_and_lets_an_ignored_one_be(ctrl_c_raises):
    done = []
    with pytest.raises(KeyboardInterrupt):
        with interrupt.held():
            signal.raise_signal(signal.SIGINT)
            done.append("the block ran to its end")
    assert done == ["the block ran to its end"]
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with interrupt.held():
            signal.raise_signal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, before)


def test_held_holds_sigterm_too_where_it_stops_the_command():
    seen = []
    before = signal.signal(signal.SIGTERM, lambda signum, frame: seen.append(signum))
    try:
        with interrupt.held():
            signal.raise_signal(signal.SIGTERM)
            assert seen == []
        assert seen == [signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, before)


def _listing(folder: Path) -> list[tuple[str, bytes]]:
    """Everything under `folder`, hidden files included, with its content."""
    return sorted(
        (str(p.relative_to(folder)), p.read_bytes() if p.is_file() else b"")
        for p in folder.rglob("*")
    )


def _pngs_made(out: Path) -> int:
    return len(list(out.glob(".pnp-staging-*/new/*/png/*.png")))


def _stop_a_build(tmp_path: Path, signum: int, after_pngs: int, then=None) -> tuple[int, str]:
    """`pnp build exploding-dice --format png` into a folder that already holds a kit,
    signalled once `after_pngs` previews are rendered: (exit code, stderr); the folder
    must be exactly as it was."""
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    (out / "kept.txt").write_text("a file of the user's\n")
    before = _listing(out)
    proc = start("build", "exploding-dice", "--format", "png", "--out", str(out), then=then)
    try:
        until(
            lambda: _pngs_made(out) >= after_pngs or proc.poll() is not None,
            proc=proc,
            waiting_for=f"{after_pngs} PNG previews",
        )
        os.killpg(proc.pid, signum)
        code, _, err = finish(proc, guard=ENDS)
    finally:
        kill_group(proc)
    assert code != 0, "the build ended before the signal: pick an earlier moment"
    assert _listing(out) == before
    return code, err


@pytest.mark.slow
@pytest.mark.skipif(not needs_proc, reason="Linux")
@pytest.mark.parametrize("after", ci_keeps(range(1, 37, 8), 0, 4))  # 5 moments, 39 previews
def test_ctrl_c_while_pngs_render_ends_like_any_other_ctrl_c(tmp_path, after):
    code, err = _stop_a_build(tmp_path, signal.SIGINT, after)
    assert (code, err) == (130, "interrupted\n"), f"after {after} PNGs: {err}"


@pytest.mark.slow
@pytest.mark.skipif(not needs_proc, reason="Linux")
@pytest.mark.parametrize("background", [False, True], ids=["", "ctrl-c-ignored"])
def test_sigterm_during_a_build_ends_like_ctrl_c_with_its_own_code(tmp_path, background):
    then = _ignore_sigint if background else None
    assert _stop_a_build(tmp_path, signal.SIGTERM, 5, then) == (143, "terminated\n")


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _double_ctrl_c(args: tuple[str, ...], ready) -> tuple[int, str]:
    proc = start(*args)
    try:
        until(lambda: ready(proc), proc=proc, waiting_for="the moment to press Ctrl-C")
        os.killpg(proc.pid, signal.SIGINT)
        os.killpg(proc.pid, signal.SIGINT)
        code, _, err = finish(proc, guard=ENDS)
    finally:
        kill_group(proc)
    return code, err


def _loading(cpu: float):
    return lambda proc: cpu_seconds(proc.pid) >= cpu


def _workers_playing(proc) -> bool:
    workers = children(proc.pid)
    return len(workers) == 2 and all(cpu_seconds(w) >= 0.3 for w in workers)


@pytest.mark.slow
@pytest.mark.skipif(not needs_proc, reason="Linux")
@pytest.mark.parametrize(
    "moment",
    [
        lambda proc: catches_sigterm(proc.pid),
        _loading(0.15),
        lambda proc: len(children(proc.pid)) == 2,
        _workers_playing,
    ],
    ids=["loading", "loaded", "forking", "playing"],
)
def test_a_double_ctrl_c_is_exit_130_at_any_moment(moment):
    args = ("simulate", "exploding-dice", "--games", "10000000", "--jobs", "2", "--json", "-")
    code, err = _double_ctrl_c((*args, "--progress", "none"), moment)  # stderr: one line
    assert code == 130, err  # never killed by SIGINT (-2)
    assert "Traceback" not in err and len(err.splitlines()) == 1, err


@pytest.mark.skipif(not needs_proc, reason="Linux")
@pytest.mark.parametrize(
    ("signum", "line"),
    [
        # a solve's search until it stops: 1.5 CPU s; fast coverage of signals is in test_runner
        pytest.param(signal.SIGINT, "interrupted", marks=pytest.mark.slow),
        pytest.param(signal.SIGTERM, "terminated", marks=pytest.mark.slow),
    ],
)
def test_solve_stops_on_ctrl_c_and_sigterm(signum, line):
    proc = start("solve", "building-community", "--budget", "1000000000")
    try:
        until(  # loaded, and searching
            lambda: cpu_seconds(proc.pid) >= 1.5, proc=proc, waiting_for="1.5 CPU s of search"
        )
        os.kill(proc.pid, signum)
        code, out, err = finish(proc, guard=ENDS)
    finally:
        kill_group(proc)
    # on a loaded machine the search may have printed its progress line (every 3 s) first
    *progress, last = err.splitlines()
    assert (code, out, last) == (128 + signum, "", line), err
    assert all(p.startswith("building-community: solving: ") for p in progress), err


ENDS_AFTER_CTRL_C_IN_EXEC = """
import signal
from pnp.runtime import interrupt

try:  # dataclasses and namedtuple run their generated code so; Ctrl-C may land there
    exec("raise KeyboardInterrupt")
except KeyboardInterrupt:
    interrupt.note(signal.SIGINT)
    interrupt.finish()
"""


def test_a_ctrl_c_caught_inside_exec_still_ends_with_exit_130(tmp_path):
    # CPython remembers a KeyboardInterrupt that left exec'd code and, under `python -m`,
    # killed the process with SIGINT at exit whatever exit code it asked for
    (tmp_path / "ends_after_ctrl_c.py").write_text(ENDS_AFTER_CTRL_C_IN_EXEC)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, "-m", "ends_after_ctrl_c"],
        capture_output=True,
        text=True,
        env=env,
        timeout=GUARD,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert (done.returncode, done.stderr) == (130, "interrupted\n")


# --- the harness itself: every wait bounded, the group killed, one clear failure --------------


@pytest.mark.skipif(not needs_proc, reason="Linux")
def test_a_process_that_ignores_ctrl_c_is_killed_and_the_test_fails_in_one_sentence():
    proc = start("simulate", "exploding-dice", "--games", "10000000", then=_ignore_sigint)
    try:
        os.killpg(proc.pid, signal.SIGINT)  # ignored: this run would last minutes
        with pytest.raises(pytest.fail.Exception, match="killed process group") as failed:
            finish(proc, guard=0.5)
    finally:
        kill_group(proc)
    assert f"waited for pnp (pid {proc.pid}) to end: not within 0.5 s" in str(failed.value)
    assert proc.returncode == -signal.SIGKILL


def test_all_the_waits_of_one_test_share_one_deadline():
    procs.new_test(total=0.2)
    until(lambda: True)  # a wait that ends in time takes nothing from the others
    with pytest.raises(pytest.fail.Exception, match="the test's 0.2 s for all its waits"):
        until(lambda: False, guard=60, waiting_for="nothing")


# --- timers and waits that cannot poll (`alarm`, `raising_on_stop`) -----------------------

LONG = 60.0  # s: a sleep the alarm must cut; were it not cut, the test would hang this long


class Outer(Exception):
    pass


class Inner(Exception):
    pass


def test_an_alarm_raises_its_exception_in_a_block_that_runs_past_its_time():
    with pytest.raises(Inner), interrupt.alarm(0.01, Inner):
        time.sleep(LONG)
    assert signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_an_alarm_of_none_or_off_the_main_thread_never_rings():
    with interrupt.alarm(None, Inner):
        assert signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None)
    seen: list[object] = []

    def elsewhere() -> None:
        with interrupt.alarm(0.0, Inner):
            seen.append(signal.getitimer(signal.ITIMER_REAL))

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join(LONG)
    assert seen == [(0.0, 0.0)]


def test_an_outer_alarm_due_first_rings_with_its_own_exception_in_an_inner_one():
    with pytest.raises(Outer), interrupt.alarm(0.01, Outer), interrupt.alarm(LONG, Inner):
        time.sleep(LONG)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_an_inner_alarm_gives_the_outer_one_its_time_back():
    with pytest.raises(Outer), interrupt.alarm(0.2, Outer):
        with pytest.raises(Inner), interrupt.alarm(0.01, Inner):
            time.sleep(LONG)
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 0 < left <= 0.2
        time.sleep(LONG)


def test_an_alarm_keeps_a_timer_set_by_other_code():
    """A test runner's timeout, say: its handler and its time left survive the block."""
    rung: list[int] = []

    def theirs(signum: int, frame: object) -> None:
        rung.append(signum)

    before = signal.signal(signal.SIGALRM, theirs)
    try:
        signal.setitimer(signal.ITIMER_REAL, LONG)
        with pytest.raises(Inner), interrupt.alarm(0.01, Inner):
            time.sleep(LONG)
        assert signal.getsignal(signal.SIGALRM) is theirs
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 0 < left <= LONG
        assert rung == []
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def test_another_timer_due_first_is_called_then_the_alarm_still_rings():
    rung: list[int] = []
    before = signal.signal(signal.SIGALRM, lambda signum, frame: rung.append(signum))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.01)
        with pytest.raises(Inner), interrupt.alarm(0.05, Inner):
            time.sleep(LONG)  # their handler returns: the sleep goes on until ours
        assert rung == [signal.SIGALRM]
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def test_a_stop_during_a_wait_that_cannot_poll_raises_and_counts(ctrl_c_raises):
    with interrupt.RunStop(ctypes.c_bool(False)) as run:
        handler = signal.getsignal(signal.SIGINT)
        with pytest.raises(KeyboardInterrupt), interrupt.raising_on_stop(run):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(LONG)
        assert run.count == 1 and run.halt.value
        assert signal.getsignal(signal.SIGINT) == handler  # the run's counting handler again
        with pytest.raises(KeyboardInterrupt), interrupt.raising_on_stop(run):
            pass  # the run was stopped before the wait began: it is not begun
