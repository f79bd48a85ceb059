"""The simulation runner: same tallies for any jobs, bounded work in flight, Ctrl-C.

The Ctrl-C tests run a small driver in a subprocess (its own session, so the signal goes
to the whole process group, workers included, as a terminal's Ctrl-C does) with a fake
engine whose games are slow or hang, and read the games it reports. The driver starts
with SIGINT at its default even when pytest runs from a shell that ignores it, and every
wait is bounded in total, so a broken runner fails instead of hanging.

The worker tests run the real `pnp simulate` and kill its processes (Linux /proc).
"""

from __future__ import annotations

import ctypes
import errno
import json
import multiprocessing.context
import os
import queue
import signal
import subprocess
import sys
import textwrap
import threading
import time
import types
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_run import one_error_line
from procs import (
    children,
    cpu_seconds,
    default_sigint,
    finish,
    gone,
    kill_group,
    needs_proc,
    start,
    until,
)

from pnp.contract.hooks import EngineHooks
from pnp.play.outcome import GameRecord
from pnp.runtime import interrupt
from pnp.runtime.errors import PnpError
from pnp.runtime.interrupt import report_after_ctrl_c
from pnp.sim import runner
from pnp.sim.pool import IN_FLIGHT, Pool
from pnp.sim.runner import MAX_GAMES, MAX_JOBS, run
from pnp.sim.worker import play_chunk

ROOT = Path(__file__).resolve().parents[1]
HANG_GUARD = 20  # seconds: only there so a broken runner fails instead of hanging the suite


def _random_record(players: int, rng) -> GameRecord:
    """A game record that depends on every draw, so a wrong seed shows in the tallies."""
    turns = rng.randrange(1, 9)
    winners = tuple(sorted(rng.sample(range(players), rng.randrange(1, players + 1))))
    leaders = tuple(rng.randrange(-1, players) for _ in range(turns))
    colours = tuple((c,) for c in ("red", "green", "blue", "purple")[:players])
    end = rng.choice(("fifty", "full", "timeout"))
    return GameRecord(turns, end, (0,) * players, winners, colours, leaders)


def _fake_engine(fail_at: int | None = None, error: type[Exception] = ValueError):
    mod = types.ModuleType("fake_runner_engine")

    def play_one(model, players, bot, rng, **options):
        record = _random_record(players, rng)
        if fail_at is not None and model["played"][0] == fail_at:
            raise error("the engine broke")
        model["played"][0] += 1
        return record

    mod.play_one = play_one
    mod.HOOKS = EngineHooks()
    return mod


@pytest.fixture
def fake(monkeypatch):
    """Install a fake engine module where forked workers find it by name."""

    def install(**kwargs):
        mod = _fake_engine(**kwargs)
        monkeypatch.setitem(sys.modules, mod.__name__, mod)
        return mod

    return install


# --- determinism and bounds -----------------------------------------------------------------


def test_tallies_are_the_same_for_any_number_of_jobs(fake):
    eng = fake()
    whole = play_chunk(eng, {"played": [0]}, 3, "random", 11, 0, 1200, {})
    for jobs in (1, 2, 3):
        result = run(eng, {"played": [0]}, 3, "random", 1200, 11, jobs=jobs)
        assert not result.interrupted and result.games == 1200
        assert result.acc == whole, f"jobs={jobs}"
    other = run(eng, {"played": [0]}, 3, "random", 1200, 12, jobs=2)
    assert other.acc != whole


@pytest.mark.parametrize(
    ("games", "jobs", "message"),
    [
        (0, 1, "--games must be between 1 and"),
        (MAX_GAMES + 1, 1, "--games must be between 1 and"),
        (10, 0, "--jobs must be between 1 and"),
        (10, MAX_JOBS + 1, "--jobs must be between 1 and"),
    ],
)
def test_games_and_jobs_have_bounds(fake, games, jobs, message):
    with pytest.raises(PnpError, match=message):
        run(fake(), {"played": [0]}, 2, "random", games, 1, jobs=jobs)


def test_no_more_than_in_flight_chunks_per_worker_are_handed_out(fake, monkeypatch):
    most = []
    send = Pool._send

    def counting_send(self, worker, chunk):
        send(self, worker, chunk)
        most.append(sum(w.queued for w in self.workers))

    monkeypatch.setattr(Pool, "_send", counting_send)
    result = run(fake(), {"played": [0]}, 2, "random", 6000, 1, jobs=2)
    assert result.games == 6000
    assert len(most) == 6000 // runner._chunk_size(6000, 2)
    assert max(most) == IN_FLIGHT * 2


def test_a_huge_run_stopped_early_has_played_only_the_chunks_in_flight(fake):
    def stop(done):
        raise KeyboardInterrupt  # as if Ctrl-C came while waiting for the first chunk

    result = run(fake(), {"played": [0]}, 2, "random", MAX_GAMES, 1, jobs=2, progress=stop)
    assert result.interrupted
    size = runner._chunk_size(MAX_GAMES, 2)
    assert 0 < result.games <= (IN_FLIGHT + 1) * 2 * size


@pytest.mark.parametrize("error", [ValueError, PnpError])
def test_an_engine_error_in_a_worker_reaches_the_caller(fake, error):
    eng = fake(fail_at=30, error=error)
    with pytest.raises(error, match="the engine broke"):
        run(eng, {"played": [0]}, 2, "random", 1000, 1, jobs=2)


# --- Ctrl-C in process --------------------------------------------------------------------------


class _Probe:
    """A record whose `winners` runs `hook` while `Accumulator.add` is reading it."""

    turns, end, scores, colours, leaders, counters = 1, "fifty", (0, 0), (), (0,), {}

    def __init__(self, hook):
        self.hook = hook

    @property
    def winners(self):
        self.hook()
        return (0,)


def test_a_second_ctrl_c_cuts_a_game_short_but_never_a_tally():
    """Two stops while a game's tally is added up (`play_chunk` in this process): the
    tally is made whole, nothing is raised, and the chunk ends after that game."""
    halt = ctypes.c_bool(False)
    stop = interrupt.RunStop(halt)
    stop.cut_short = True
    eng = types.ModuleType("probe_engine")

    def twice() -> None:
        stop.handle(signal.SIGINT, None)
        stop.handle(signal.SIGINT, None)  # a second stop: raises, but for the tally

    eng.play_one = lambda model, players, bot, rng, **options: _Probe(twice)
    eng.HOOKS = EngineHooks()
    acc = play_chunk(eng, None, 2, "random", 1, 0, 10, {}, None, halt)
    assert acc.games == 1 and halt.value and stop.count >= 2
    with pytest.raises(KeyboardInterrupt):  # outside a tally it cuts the game short
        stop.handle(signal.SIGINT, None)


def test_report_after_ctrl_c_lets_ctrl_c_through_until_a_run_stops(ctrl_c_raises):
    with report_after_ctrl_c():
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
            time.sleep(5)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


# --- Ctrl-C from outside, in a subprocess ---------------------------------------------------

SLOW_ENGINE = '''
"""Games that print a line when they finish, and take `delay` s, or hang after `hang_after`."""
import ctypes
import os
import time

from pnp.contract.hooks import EngineHooks
from pnp.play.outcome import GameRecord

HOOKS = EngineHooks()
played = 0


def play_one(model, players, bot, rng, **options):
    global played
    played += 1
    if model["hang_after"] and played > model["hang_after"]:
        os.write(1, b"hung\\n")  # the test's Ctrl-C waits for every process to be in here
        time.sleep(3600)
    time.sleep(model["delay"])
    turns = rng.randrange(1, 6)
    os.write(1, b"game\\n")
    return GameRecord(turns, "fifty", (1, 0), (0,), (("red",), ("blue",)), (0,) * turns)
'''

DRIVER = """
import sys, time
import slow_engine
from pnp.runtime.interrupt import report_after_ctrl_c
from pnp.sim.runner import run

games, jobs, delay, hang_after, pause = sys.argv[1:]
model = {"delay": float(delay), "hang_after": int(hang_after)}
with report_after_ctrl_c():
    result = run(slow_engine, model, 2, "random", int(games), 1, jobs=int(jobs))
    print("stopped", flush=True)
    time.sleep(float(pause))  # reporting takes a while
    print("result", result.interrupted, result.games, flush=True)
"""


class Lines:
    """Lines as they arrive (on a queue), and a wait for one that is bounded in all."""

    def __init__(self, guard: float = HANG_GUARD) -> None:
        self.queue: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        self.guard = guard

    def wait_for(self, text: str, times: int = 1, why: Callable[[], str] = str) -> None:
        """Until `text` has been seen `times` times; fail after `guard` s however many
        other lines keep coming, or at end of file ("EOF")."""
        deadline = time.monotonic() + self.guard
        while self.seen.count(text) < times:
            left = deadline - time.monotonic()
            assert left > 0, f"waited {self.guard} s for {times} x {text!r}"
            try:
                self.seen.append(self.queue.get(timeout=left))
            except queue.Empty:
                continue
            assert self.seen[-1] != "EOF" or text == "EOF", why()


class Driver(Lines):
    """The driver in its own session; its stdout lines arrive on a queue."""

    def __init__(self, tmp: Path, games: int, jobs: int, delay=0.0, hang_after=0, pause=0.0):
        super().__init__()
        (tmp / "slow_engine.py").write_text(SLOW_ENGINE)
        (tmp / "driver.py").write_text(textwrap.dedent(DRIVER))
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp), str(ROOT)])}
        args = [str(a) for a in (games, jobs, delay, hang_after, pause)]
        self.proc = subprocess.Popen(
            [sys.executable, str(tmp / "driver.py"), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            start_new_session=True,
            preexec_fn=default_sigint,  # Ctrl-C works even if this shell ignores it
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.queue.put(line.strip())
        self.queue.put("EOF")

    def wait_for(self, text: str, times: int = 1, why: Callable[[], str] | None = None) -> None:
        super().wait_for(text, times, why or self.proc.stderr.read)

    def ctrl_c(self) -> None:
        os.killpg(self.proc.pid, signal.SIGINT)

    def finish(self) -> tuple[bool, int]:
        """(interrupted, games) as the driver reported them, and all went quietly."""
        self.wait_for("EOF")
        self.proc.wait(timeout=HANG_GUARD)
        stderr = self.proc.stderr.read()
        assert self.proc.returncode == 0 and not stderr, stderr
        _, interrupted, games = next(s for s in self.seen if s.startswith("result")).split()
        return interrupted == "True", int(games)

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()


@pytest.fixture
def driver(tmp_path):
    started = []

    def start(*args, **kwargs):
        started.append(Driver(tmp_path, *args, **kwargs))
        return started[-1]

    yield start
    for d in started:
        d.kill()


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_stops_between_games_and_reports_every_finished_game(driver, jobs):
    # 100,000 games: chunks of 2,000 games of 0.05 s, so waiting for a chunk would take
    # 100 s; the run has to stop between games
    d = driver(100_000, jobs, delay=0.05)
    d.wait_for("game", 4)
    d.ctrl_c()
    interrupted, games = d.finish()
    assert interrupted
    assert games == d.seen.count("game") >= 4


@pytest.mark.slow
@pytest.mark.parametrize(("jobs", "kept"), [(1, 120), (2, 200)])
def test_a_second_ctrl_c_stops_even_hung_games_and_reports_the_rest(driver, jobs, kept):
    # every process hangs in its 121st game; with two workers (chunks of 50) the games
    # each has handed back are its first two chunks: 2 x 100. Ctrl-C comes once every
    # process is inside its hung game (a process between its 120th and 121st game would
    # stop there and hand back its third chunk's 20 games)
    d = driver(800, jobs, hang_after=120)
    d.wait_for("hung", jobs)
    d.ctrl_c()  # asks the hung games to finish: they never do
    time.sleep(0.5)
    d.ctrl_c()
    assert d.finish() == (True, kept)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_second_ctrl_c_while_reporting_does_not_lose_the_report(driver, jobs):
    d = driver(100_000, jobs, delay=0.02, pause=0.5)
    d.wait_for("game", 4)
    d.ctrl_c()
    d.wait_for("stopped")
    d.ctrl_c()
    interrupted, games = d.finish()
    assert interrupted and games == d.seen.count("game")


# --- the harness itself: bounded, and independent of the shell's SIGINT -----------------------


def test_waiting_for_a_line_is_bounded_in_all_however_many_others_come():
    lines = Lines(guard=0.5)
    stop = threading.Event()

    def chatter():  # a line every 10 ms for up to 30 s: each read is quick, none is it
        end = time.monotonic() + 30
        while not stop.is_set() and time.monotonic() < end:
            lines.queue.put("game")
            time.sleep(0.01)

    threading.Thread(target=chatter, daemon=True).start()
    try:
        with pytest.raises(AssertionError, match="waited 0.5 s"):
            lines.wait_for("stopped")
    finally:
        stop.set()


def test_ctrl_c_reaches_the_driver_even_when_this_process_ignores_it(driver):
    # as when the tests run from a shell that ignores SIGINT (a background job)
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        d = driver(100_000, 1, delay=0.05)
    finally:
        signal.signal(signal.SIGINT, before)
    d.wait_for("game", 2)
    d.ctrl_c()
    interrupted, games = d.finish()
    assert interrupted and games == d.seen.count("game")


# --- workers: one that dies, a parent that dies, workers that cannot start ---------------------

HIOP = ("simulate", "home-in-one-piece", "--games", "10000000", "--jobs", "2", "--json", "-")
HIOP += ("--progress", "none")  # stderr holds only what the test reads, however long it runs
WORKERS_GONE = 30.0  # s: a bound so a survivor fails the test; the kernel takes milliseconds


def _workers(proc) -> list[int]:
    """The two workers of `proc`, once both have started playing."""
    # a shared machine may keep them waiting for a core: generous guards, not a timing
    workers = until(lambda: len(children(proc.pid)) == 2 and children(proc.pid), guard=30)
    until(lambda: all(cpu_seconds(w) >= 0.2 for w in workers), guard=30)
    return workers


@pytest.mark.slow  # a real pool's worker killed; Ctrl-C between games stays in the fast tier
@pytest.mark.skipif(not needs_proc, reason="finds the workers in /proc")
def test_a_killed_worker_is_one_error_line_and_the_finished_games_are_reported():
    proc = start(*HIOP)
    try:
        workers = _workers(proc)
        os.kill(workers[0], signal.SIGKILL)
        code, out, err = finish(proc)
    finally:
        kill_group(proc)
    line = one_error_line(err)
    assert code == 1
    assert "killed by SIGKILL (signal 9)" in line
    games = json.loads(out)["games"]  # the games that finished, reported
    assert 0 < games < 10_000_000
    assert f" {games:,} of 10,000,000 games finished" in line
    assert all(gone(w) for w in workers)


@pytest.mark.slow
@pytest.mark.skipif(not needs_proc, reason="finds the workers in /proc")
def test_workers_do_not_outlive_a_parent_killed_outright():
    proc = start(*HIOP)
    try:
        workers = _workers(proc)
        os.kill(proc.pid, signal.SIGKILL)
        # each worker is in the middle of a 2,000-game chunk, far longer than
        # WORKERS_GONE to play: it must not play it out
        until(lambda: all(gone(w) for w in workers), guard=WORKERS_GONE)
    finally:
        kill_group(proc)


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.skipif(not needs_proc, reason="finds the workers in /proc")
@pytest.mark.parametrize(
    "background", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["", "ctrl-c-ignored"]
)
def test_sigterm_stops_the_run_like_ctrl_c_and_reports_the_finished_games(background):
    # a job started in the background ignores Ctrl-C, and still stops so on SIGTERM
    proc = start(*HIOP, then=_ignore_sigint if background else None)
    try:
        workers = _workers(proc)
        os.kill(proc.pid, signal.SIGTERM)  # the parent only, as `kill PID` does
        until(lambda: all(gone(w) for w in workers), guard=WORKERS_GONE)
        code, out, err = finish(proc)
    finally:
        kill_group(proc)
    assert code == 128 + signal.SIGTERM
    games = json.loads(out)["games"]
    assert err.splitlines() == [f"interrupted: {games} of 10000000 games finished"]
    assert games > 0


def test_workers_that_cannot_be_started_are_a_run_error_and_none_is_left(fake, monkeypatch):
    started = []
    real_start = multiprocessing.context.ForkProcess.start

    def start_one(process):  # the second fork fails, as under `ulimit -u`
        if started:
            raise BlockingIOError(errno.EAGAIN, os.strerror(errno.EAGAIN))
        real_start(process)
        started.append(process)

    monkeypatch.setattr(multiprocessing.context.ForkProcess, "start", start_one)
    with pytest.raises(PnpError, match="cannot start 2 simulation workers: resource tempor"):
        run(fake(), {"played": [0]}, 2, "random", 6000, 1, jobs=2)
    assert len(started) == 1 and started[0].exitcode is not None  # reaped, not left running


@pytest.mark.slow
@pytest.mark.skipif(not needs_proc, reason="Linux")
def test_too_few_file_descriptors_for_the_workers_is_one_error_line():
    import resource

    def few_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (12, 12))

    proc = start("simulate", "exploding-dice", "--games", "20000", "--jobs", "2", then=few_files)
    try:
        code, _, err = finish(proc)
    finally:
        kill_group(proc)
    assert code == 2  # an environment pnp cannot work in, like the other limits
    assert "simulation workers" in one_error_line(err)
