"""The worker side of the simulation runner: what a worker process runs.

`play_chunk` plays a run of seeded games into tallies, in any process; `serve` is a worker's
loop: jobs and chunks in over its pipe, tallies (or an error with its traceback) out. A
worker leaves Ctrl-C and SIGTERM to its parent (which raises `halt`) and never outlives it:
on Linux the kernel kills it when the parent dies (parent-death signal), elsewhere a thread
watches.
"""

from __future__ import annotations

import ctypes
import importlib
import os
import pickle
import random
import signal
import sys
import threading
import time
import traceback
import types
from typing import TYPE_CHECKING, Any, cast

from pnp.contract.gamedef import Engine
from pnp.runtime import interrupt
from pnp.sim.metrics import Accumulator
from pnp.sim.seats import Lineup, play_lineup

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

BATCH = 200  # games an engine's `play_many` plays in one call (halt is looked at between)
PARENT_WATCH = 0.5  # seconds between a worker's looks at its parent, where no kernel does it
PR_SET_PDEATHSIG = 1  # linux/prctl.h


def game_seed(seed: int, index: int) -> str:
    """The seed of game `index` of a run: hash-free, the same in every process."""
    return f"{seed}:{index}"


Seating = str | Lineup
"""Who plays: one bot name the engine's own `play_one` plays for every seat, or a lineup
(`pnp.play.forward.play` over the readable rules, for mixed seats and the generic bots)."""

EngineRef = Engine | str
"""An engine, or the name of the module that is one (what a worker is sent)."""


def engine_ref(engine: Engine) -> EngineRef:
    """What to send a worker: a module by name (modules do not pickle), else the object."""
    return engine.__name__ if isinstance(engine, types.ModuleType) else engine


def engine_of(ref: EngineRef) -> Engine:
    if isinstance(ref, str):
        return cast(Engine, importlib.import_module(ref))  # a game's engine module, by name
    return ref


def play_chunk(
    engine_ref: EngineRef,
    model: object,
    players: int,
    bot: Seating,
    seed: int,
    start: int,
    stop: int,
    options: dict[str, Any],
    acc: Accumulator | None = None,
    halt: ctypes.c_bool | None = None,
) -> Accumulator:
    """Play games start..stop-1 and tally them (into `acc` if given, game by game).

    An engine may offer `play_many(model, players, bot, seeds, **options)` (its
    `EngineHooks`): the records of
    the games `play_one` would play from `random.Random(seed)` for each seed text, or None
    for a model it plays only game by game; it then gets `BATCH` seeds at a time. When
    `halt` is raised the chunk ends before its next game (or batch): the tallies then hold
    the games finished so far. A tree search under way (or about to begin) is not waited
    for: KeyboardInterrupt leaves its game unfinished (`pnp.runtime.interrupt.searching`), and
    `acc` holds the games finished before it.
    """
    engine = engine_of(engine_ref)
    acc = acc if acc is not None else Accumulator(players)
    halt = halt if halt is not None else ctypes.c_bool(False)
    add = acc.add
    many = engine.HOOKS.play_many if isinstance(bot, str) else None
    while many is not None and start < stop and not halt.value:
        batch = range(start, min(stop, start + BATCH))
        records = many(model, players, bot, [game_seed(seed, i) for i in batch], **options)
        if records is None:
            break  # the engine plays this model game by game
        with interrupt.unbroken:  # a stop never cuts a tally in half
            for record in records:
                add(record)
        start = batch.stop
    rng = random.Random()
    with interrupt.playing(halt):  # a tree search cut short raises KeyboardInterrupt
        for i in range(start, stop):
            if halt.value:
                break
            rng.seed(game_seed(seed, i))
            if isinstance(bot, str):
                record = engine.play_one(model, players, bot, rng, **options)
                with interrupt.unbroken:
                    add(record)
            else:
                seats = bot.seated(i)
                record = play_lineup(engine, model, players, seats, rng, **options)
                with interrupt.unbroken:
                    add(record, seats.bots)
    return acc


def _die_with_parent(parent: int) -> None:
    """Make this worker end when its parent does, however the parent ends (kill -9 too).

    On Linux the kernel sends the worker SIGKILL when the parent dies (prctl
    PR_SET_PDEATHSIG); elsewhere, or if prctl fails, a thread looks every
    `PARENT_WATCH` s. A parent already gone (it died while this one was forking) is
    noticed at once. Workers hold nothing to clean up: their tallies live in the parent.
    """
    armed = False
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    if not armed:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:
        os._exit(1)


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(PARENT_WATCH)
        if os.getppid() != parent:
            os._exit(1)


JobData = tuple[EngineRef, object, int, Seating, int, dict[str, Any]]
"""What a worker needs of a job: (engine, model, players, bot, seed, options)."""


def load_job_data(data: bytes) -> JobData:
    """A pickled `JobData`, its engine (sent by module name) imported."""
    ref, model, players, bot, seed, options = pickle.loads(data)
    return engine_of(ref), model, players, bot, seed, options


def serve(conn: Connection, halt: ctypes.c_bool, parent: int) -> None:
    """A worker: learn each job once (``("job", i, pickled JobData)``), then play each
    chunk it is sent (``("chunk", i, k, start, stop)``) and send back its tallies, until
    told to stop (None), until the parent is gone, or after an error (sent back)."""
    interrupt.worker_signals(halt)
    _die_with_parent(parent)
    jobs: dict[int, JobData] = {}
    while True:
        while not conn.poll(1.0):
            if os.getppid() != parent:
                return
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        try:
            if task[0] == "job":
                jobs[task[1]] = load_job_data(task[2])
                continue
            _, i, k, start, stop = task
            engine, model, players, bot, seed, options = jobs[i]
            acc = Accumulator(players)
            try:
                play_chunk(engine, model, players, bot, seed, start, stop, options, acc, halt)
            except KeyboardInterrupt:  # a search given up on a stop: the games before count
                pass
            reply: tuple[Any, ...] = ("done", i, k, acc)
        except Exception as exc:
            reply = ("error", *_portable(exc))
        try:
            conn.send(reply)
        except OSError:  # the parent is gone
            return
        if reply[0] == "error":
            return


def _portable(exc: Exception) -> tuple[Exception, str]:
    """The exception and its traceback text; a RuntimeError if it would not survive pickling."""
    text = "".join(traceback.format_exception(exc))
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}"), text
    return exc, text
