"""What the studio's terminal says while it serves: one line per cause, not per request.

uvicorn and asyncio log each malformed request, each failed `accept()` and each error in
the app with a line or a whole traceback, so a flood of bad clients fills the terminal
(thousands of tracebacks of 'Too many open files' in one test). Here every such record
becomes one `warning:` or `error:` line, said the first time its cause is seen and then at
most once a `WINDOW`, with how many more came meanwhile. `PNP_DEBUG=1` adds the tracebacks.
"""

from __future__ import annotations

import logging
import os
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

WINDOW = 60.0  # seconds: a cause is said at most once in this long
LOGGERS = ("uvicorn", "asyncio")  # the server's and its event loop's


@dataclass
class _Seen:
    said: float  # when it was last said
    more: int = 0  # records of it since, not said


class OnePerCause(logging.Handler):
    """A logging handler that says each record as one line through `say`, repeats of a
    cause (the logger, the message's template and the exception's type and error number)
    at most once a `window` seconds."""

    def __init__(
        self,
        say: Callable[[str], None],
        window: float = WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(logging.WARNING)
        self.say = say
        self.window = window
        self.clock = clock
        self.seen: dict[tuple[object, ...], _Seen] = {}

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self._emit(record)
        except Exception:
            self.handleError(record)

    def _emit(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        cause = (record.name, str(record.msg), type(exc).__name__, getattr(exc, "errno", None))
        now = self.clock()
        seen = self.seen.get(cause)
        if seen is not None and now - seen.said < self.window:
            seen.more += 1
            return
        line = one_line(record)
        if seen is not None and seen.more:
            line += f" ({seen.more:,} more since {now - seen.said:.0f} s ago)"
        self.seen[cause] = _Seen(now)
        if os.environ.get("PNP_DEBUG") and record.exc_info:
            line += "\n" + "".join(traceback.format_exception(*record.exc_info)).rstrip()
        self.say(line)


def one_line(record: logging.LogRecord) -> str:
    """A log record as `warning: …` or `error: …`, its exception's first line after it
    (an error in the app reads as the command line's internal errors do)."""
    level = "error" if record.levelno >= logging.ERROR else "warning"
    message = record.getMessage().strip().splitlines()[0] if record.getMessage().strip() else ""
    exc = record.exc_info[1] if record.exc_info else None
    if exc is None:
        return f"{level}: {message}"
    if isinstance(exc, OSError) and exc.strerror:
        return f"{level}: {message}: {exc.strerror}"
    first = (str(exc).strip().splitlines() or [""])[0][:200]
    what = f"{type(exc).__name__}: {first}" if first else type(exc).__name__
    if record.name.startswith("uvicorn"):  # an exception in the app: a bug in pnp
        return f"{level}: internal error in the studio ({what}); this is a bug in pnp"
    return f"{level}: {message} ({what})"


@contextmanager
def one_line_per_cause(say: Callable[[str], None]) -> Iterator[OnePerCause]:
    """Route the server's and the event loop's log records through one `OnePerCause`
    for the block (and nowhere else), as they were after it."""
    handler = OnePerCause(say)
    before = []
    for name in LOGGERS:
        logger = logging.getLogger(name)
        before.append((logger, logger.handlers[:], logger.propagate, logger.level))
        logger.handlers = [handler]
        logger.propagate = False
        logger.setLevel(logging.WARNING)
    try:
        yield handler
    finally:
        for logger, handlers, propagate, level in before:
            logger.handlers = handlers
            logger.propagate = propagate
            logger.setLevel(level)
