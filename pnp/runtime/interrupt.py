"""Ctrl-C and SIGTERM: one way to stop a command, and one way for it to end.

Every signal handler pnp installs is here: the command line's, a simulation run's, a
report's, a simulation worker's and the timers' (`alarm`).

A command stops on Ctrl-C (SIGINT) or SIGTERM alike: the first raises KeyboardInterrupt
(or, while a simulation runs, asks it to stop: `RunStop`), the clean-up runs
(a build's staging folder is removed, so ``--out`` is left as it was), and the command
ends with one line and exit code 128 + the signal's number (130 for Ctrl-C, 143 for
SIGTERM), never with a traceback and never killed by the signal itself. Later signals,
while the command is already stopping, are ignored so the clean-up is never cut short.

SIGTERM is sent on to whatever handles SIGINT at the time, so every place that handles
Ctrl-C (a run's "stop between games", a report that must not be lost) handles SIGTERM the
same way without knowing about it.

A simulation run (`RunStop`): the first stop raises the run's shared flag, which every game
loop reads between games, so the run ends once the games being played are over and the
finished ones are reported; a second stops at once. A stop never cuts a tally in half:
code that adds one up runs inside `unbroken`, where no handler here raises. A long tree
search (`searching`) is not waited for, even on the first stop. Workers leave both
signals to their parent (`worker_signals`).

Timers: `alarm` raises an exception in a block that runs past its time (the Dask
scheduler's wait, `pnp tune`'s hard stop); alarms nest, and a timer someone else set
keeps its time. `raising_on_stop` makes a run's stop end a wait that cannot poll.

`held` is for C code that calls back into Python and swallows exceptions raised there
(cairo turns a KeyboardInterrupt in its write callback into CAIRO_STATUS_WRITE_ERROR):
a signal that comes during the block is acted on once the block is over.

This module imports nothing from pnp, so any layer may use it.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

Handler = Callable[[int, types.FrameType | None], Any]


class Stopped(Exception):
    """Raised by a command that was stopped and has already said so (with what it kept)."""


class _State:
    """What the command line's handlers have seen: the first stopping signal, if any; and
    how many long searches are under way in this process (`searching`)."""

    signum: int | None = None
    searches: int = 0
    halt: Any = None  # the run's stop flag (`.value`) while this process plays its games
    unbroken: int = 0  # depth of `unbroken` blocks: no handler raises inside one


_state = _State()


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


class _Stop:
    """The command line's SIGINT handler: KeyboardInterrupt once, then nothing."""

    def __init__(self) -> None:
        self.raised = False

    def __call__(self, signum: int, frame: types.FrameType | None) -> None:
        note(signal.SIGINT)
        if not self.raised:
            self.raised = True
            raise KeyboardInterrupt


def note(signum: int) -> None:
    """Remember the signal that stopped the command (the first one counts)."""
    if _state.signum is None:
        _state.signum = signum


def _on_sigterm(signum: int, frame: types.FrameType | None) -> None:
    """SIGTERM: exactly what Ctrl-C would do now, even where Ctrl-C is ignored."""
    note(signal.SIGTERM)
    handler = signal.getsignal(signal.SIGINT)
    if not callable(handler):  # Ctrl-C ignored (a background job) or the default: stop
        handler = _fallback
    handler(signal.SIGINT, frame)


_fallback = _Stop()  # for SIGTERM when Ctrl-C is ignored; a fresh one per command


def sigterm_stops() -> bool:
    """Is SIGTERM set up (by `command_signals`) to stop the command as Ctrl-C would?"""
    return _main_thread() and signal.getsignal(signal.SIGTERM) is _on_sigterm


@contextmanager
def command_signals() -> Iterator[None]:
    """Around a whole command (the CLI's `main`): install the handlers, put the old back.

    An ignored SIGINT (a job started in the background) stays ignored; SIGTERM stops
    the command either way. After a stopping signal the old handlers are not put back:
    the process is ending (`finish` ignores further signals), and a late Ctrl-C must not
    turn its exit into a traceback or a kill."""
    global _fallback
    if not _main_thread():
        yield
        return
    _state.signum = None
    _fallback = _Stop()
    old_int = signal.getsignal(signal.SIGINT)
    old_term = signal.getsignal(signal.SIGTERM)
    if old_int is signal.default_int_handler:
        signal.signal(signal.SIGINT, _Stop())
    if old_term in (signal.SIG_DFL, None):
        signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    finally:
        if _state.signum is None:  # else the process is ending: see above
            signal.signal(signal.SIGINT, old_int if old_int is not None else signal.SIG_DFL)
            signal.signal(signal.SIGTERM, old_term if old_term is not None else signal.SIG_DFL)


def ignore_further() -> None:
    """The command is ending: no signal may turn the exit into a traceback or a kill."""
    if _main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)


@contextmanager
def playing(halt: Any) -> Iterator[None]:
    """Around games played under a run's stop flag `halt` (a shared `ctypes` bool that a
    stopping signal raises; see `pnp.sim.runner`): a search that would begin once it is
    raised does not (`searching`)."""
    outer, _state.halt = _state.halt, halt
    try:
        yield
    finally:
        _state.halt = outer


@contextmanager
def searching() -> Iterator[None]:
    """Around a computation inside one game that may run long and may be given up on a
    stop (a tree search's decision, a million playouts). KeyboardInterrupt ends it: at
    once if the run's stop flag is already raised (`playing`), or from a handler that
    otherwise lets the game being played finish (`pnp.sim.runner`, a simulation worker)
    but does not wait for a search; the game is then left unfinished. The compiled search
    lets the handlers run every few hundred playouts (`pnp/play/_uct.h`)."""
    if _state.halt is not None and _state.halt.value:
        raise KeyboardInterrupt
    depth = _state.searches
    try:  # put back as it was, whatever a signal interrupts
        _state.searches = depth + 1
        yield
    finally:
        _state.searches = depth


def in_search() -> bool:
    """Is a `searching` block under way, so a stop may cut the current game short?"""
    return _state.searches > 0


class _Unbroken:
    """`unbroken`'s block: a counter, not a generator, as it wraps every game's tally."""

    def __enter__(self) -> None:
        _state.unbroken += 1

    def __exit__(self, *exc: object) -> None:
        _state.unbroken -= 1


unbroken = _Unbroken()
"""``with unbroken:`` around work a stop must not cut in half (adding up a game's tally):
a handler here that would raise KeyboardInterrupt inside it does not; the run's flag is
raised all the same, so the run stops right after."""


def stopping() -> bool:
    """Has a stopping signal come? Then an error that follows is most likely its echo: C
    code (numpy's import) that turns a KeyboardInterrupt into an error of its own."""
    return _state.signum is not None


def exit_code() -> int:
    """128 + the signal that stopped the command: 130 for Ctrl-C, 143 for SIGTERM."""
    return 128 + (_state.signum or signal.SIGINT)


def forget_keyboard_interrupts() -> None:
    """Clear CPython's "unhandled KeyboardInterrupt" flag before a deliberate exit.

    CPython sets it whenever a KeyboardInterrupt leaves code run by ``exec`` of a string
    (dataclasses and namedtuple make their methods so), even if it is caught later, and
    then ``python -m pnp`` ends killed by SIGINT instead of with our exit code. Every
    ``exec`` of a string that finishes clears the flag.
    """
    exec("pass", {})


def finish(said: bool = False) -> NoReturn:
    """End a stopped command: one line (unless the command `said` it), exit 128 + signal."""
    ignore_further()
    forget_keyboard_interrupts()
    if not said:
        word = "terminated" if _state.signum == signal.SIGTERM else "interrupted"
        print(word, file=sys.stderr, flush=True)
    sys.exit(exit_code())


@contextmanager
def held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM until the block is over.

    For short calls into C code that swallows a KeyboardInterrupt raised in its Python
    callbacks; the first signal that came is then handled as usual right after the
    block. Signals that are ignored, or left to the system, are left alone."""
    if not _main_thread():
        yield
        return
    pending: list[int] = []
    taken: dict[int, Handler] = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        previous = signal.getsignal(signum)
        if callable(previous):
            taken[signum] = previous
            signal.signal(signum, lambda signum, frame: pending.append(signum))
    try:
        yield
    finally:
        for number, previous in taken.items():
            signal.signal(number, previous)
        if pending:
            taken[pending[0]](pending[0], sys._getframe())


# --- a simulation run ------------------------------------------------------------------------


def _take_signal(handler: Handler) -> dict[int, Any]:
    """Put `handler` on Ctrl-C; what it replaced comes back from `_give_back`.

    Only the main thread can set a handler, and an ignored SIGINT stays ignored: in a
    job started in the background the handler goes on SIGTERM instead, if the command
    line made SIGTERM a stop (`command_signals`), so `kill PID` still reports the games.
    """
    if not _main_thread():
        return {}
    if signal.getsignal(signal.SIGINT) not in (signal.SIG_IGN, None):
        return {signal.SIGINT: signal.signal(signal.SIGINT, handler)}
    if sigterm_stops() or isinstance(signal.getsignal(signal.SIGTERM), _Reporting):
        return {signal.SIGTERM: signal.signal(signal.SIGTERM, handler)}
    return {}


def _give_back(taken: dict[int, Any]) -> None:
    for signum, previous in taken.items():
        signal.signal(signum, previous)


class RunStop:
    """SIGINT while a run is on: the first raises `halt`; any later one means stop now.

    A process pool's parent only counts (its loop polls `count`). While games are played
    in this process (`cut_short`), a later one raises KeyboardInterrupt to cut the game
    short, except inside `unbroken` (a tally being made): the run then ends right after
    it. So does the first one during a tree search's decision (`searching`), which may
    take minutes: that game is left unfinished. Installed only from the main thread and
    never over an ignored SIGINT; the previous handler comes back afterwards (told, if it
    is `report_after_ctrl_c`'s, that a run stopped)."""

    def __init__(self, halt: Any) -> None:
        self.halt = halt  # a shared `ctypes` bool: `.value`
        self.count = 0
        self.signalled = False  # a signal stopped it (not only its deadline: `stop_at`)
        self.cut_short = False
        self._raised = False  # once the run is being cut short, more stops change nothing
        self._taken: dict[int, Any] = {}

    def note(self) -> None:
        """A stop came (a signal, or a KeyboardInterrupt reaching the run another way)."""
        self.count += 1
        self.halt.value = True

    def handle(self, signum: int, frame: types.FrameType | None) -> None:
        note(signum)
        self.signalled = True
        self.note()
        if self._raised or _state.unbroken:
            return
        if (self.count > 1 and self.cut_short) or in_search():
            self._raised = True  # a long search is not waited for, even on the first stop
            raise KeyboardInterrupt

    def __enter__(self) -> RunStop:
        self._taken = _take_signal(self.handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for previous in self._taken.values():
            if self.signalled and isinstance(previous, _Reporting):
                previous.stopped = True
        _give_back(self._taken)


@contextmanager
def stop_at(deadline: float | None, run: RunStop) -> Iterator[None]:
    """Stop `run` at `deadline` (a `time.monotonic()` time) as a first Ctrl-C would, said
    by no one: from a timer thread, since the run's loops read the flag between games and
    a tree search checks it as it begins (`pnp tune`'s time budget)."""
    if deadline is None:
        yield
        return
    timer = threading.Timer(max(0.0, deadline - time.monotonic()), run.note)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


class _Reporting:
    """The SIGINT handler of `report_after_ctrl_c`: Ctrl-C as usual until a run stops."""

    def __init__(self) -> None:
        self.stopped = False

    def __call__(self, signum: int, frame: types.FrameType | None) -> None:
        note(signum)
        if not self.stopped:
            self.stopped = True  # one KeyboardInterrupt; the clean-up is not cut short
            raise KeyboardInterrupt


@contextmanager
def report_after_ctrl_c() -> Iterator[None]:
    """Around a command that runs a simulation and then reports it.

    Ctrl-C raises KeyboardInterrupt as usual in the block, until Ctrl-C has stopped a
    run (`RunStop`) in it: from then on until the block ends Ctrl-C is ignored, so a
    second press cannot lose the games that finished (the run itself stops at once on a
    second one)."""
    taken = _take_signal(_Reporting())
    try:
        yield
    finally:
        _give_back(taken)


@contextmanager
def ctrl_c_ignored() -> Iterator[None]:
    """Ctrl-C ignored within the block, then as it was: a helper process started in it
    (the studio's forkserver) is born ignoring it. Main thread only."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def ctrl_c_raises() -> None:
    """Ctrl-C raises KeyboardInterrupt again, in a process born ignoring it."""
    signal.signal(signal.SIGINT, signal.default_int_handler)


def worker_signals(halt: Any) -> None:
    """In a simulation worker: leave Ctrl-C and SIGTERM to the parent (sent to the whole
    group), which raises `halt`; once it has, the parent sends SIGINT here too, which ends
    a tree search under way (the signal alone, before `halt` is raised, changes nothing)."""

    def stop_search(signum: int, frame: types.FrameType | None) -> None:
        if halt.value and in_search():
            raise KeyboardInterrupt

    signal.signal(signal.SIGINT, stop_search)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


@contextmanager
def raising_on_stop(run: RunStop) -> Iterator[None]:
    """Around a wait that cannot poll the run's count (reaching a Dask scheduler): a stop,
    which `run` only counts, raises KeyboardInterrupt in the block as well (Dask's wait
    answers it by cancelling). On the signal `run` took: Ctrl-C, or SIGTERM in a background
    job whose Ctrl-C is ignored; nothing is taken off the main thread."""
    taken: dict[int, Handler] = {}
    for signum in run._taken:
        counting = signal.getsignal(signum)
        if callable(counting):
            taken[signum] = counting
            signal.signal(signum, _raising(counting))
    try:
        if run.count:  # it came before this handler did
            raise KeyboardInterrupt
        yield
    finally:
        for signum, counting in taken.items():
            signal.signal(signum, counting)


def _raising(counting: Handler) -> Handler:
    def stop(signum: int, frame: types.FrameType | None) -> None:
        counting(signum, frame)  # noted as the run's stop, so it ends as one
        raise KeyboardInterrupt

    return stop


@contextmanager
def alarm(seconds: float | None, exc: type[BaseException]) -> Iterator[None]:
    """Raise `exc` in the block once it has run `seconds` (at once if 0 or less; never if
    None): a timer signal, so it reaches Python code wherever it is. Main thread of a
    POSIX system only (elsewhere the block runs to its end).

    An alarm in an alarm rings at the earlier of the two times, with the exception of the
    one due; one set by other code (a test runner's timeout) is called at its own time
    and given back the time it had left after the block."""
    if seconds is None or not _main_thread() or not hasattr(signal, "setitimer"):
        yield
        return
    began = time.monotonic()
    due = began + seconds
    previous = signal.getsignal(signal.SIGALRM)
    left, _ = signal.setitimer(signal.ITIMER_REAL, 0)
    outer = began + left if left > 0 else None  # when the timer set before ours is due
    calls_outer = outer is not None and callable(previous) and outer < due

    def ring(signum: int, frame: types.FrameType | None) -> None:
        nonlocal calls_outer, outer
        if not calls_outer or not callable(previous):
            raise exc
        calls_outer, outer = False, None  # the outer timer's turn; then ours, if it returns
        signal.setitimer(signal.ITIMER_REAL, max(1e-3, due - time.monotonic()))
        previous(signum, frame)

    signal.signal(signal.SIGALRM, ring)
    try:
        next_due = outer if calls_outer and outer is not None else due
        signal.setitimer(signal.ITIMER_REAL, max(1e-3, next_due - time.monotonic()))
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer is not None:  # the outer timer has not rung: its time left is given back
            signal.setitimer(signal.ITIMER_REAL, max(1e-3, outer - time.monotonic()))
