"""What the studio's terminal says while it serves: a log record as one line, each cause
said once a window however often it comes (`pnp.studio.terminal`)."""

from __future__ import annotations

import errno
import logging

from pnp.studio.terminal import OnePerCause, one_line, one_line_per_cause


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def record(name: str, level: int, msg: str, exc: BaseException | None = None) -> logging.LogRecord:
    info = (type(exc), exc, None) if exc is not None else None
    return logging.LogRecord(name, level, __file__, 1, msg, None, info)


def test_a_cause_repeated_a_thousand_times_is_one_line_then_one_with_the_count():
    said: list[str] = []
    clock = Clock()
    handler = OnePerCause(said.append, window=60.0, clock=clock)
    full = OSError(errno.EMFILE, "Too many open files")
    for i in range(1000):
        clock.now = i * 0.01
        handler.emit(
            record("asyncio", logging.ERROR, "socket.accept() out of system resource", full)
        )
        handler.emit(record("uvicorn.error", logging.WARNING, "Invalid HTTP request received."))
    assert said == [
        "error: socket.accept() out of system resource: Too many open files",
        "warning: Invalid HTTP request received.",
    ]
    clock.now = 70.0
    handler.emit(record("uvicorn.error", logging.WARNING, "Invalid HTTP request received."))
    assert said[-1] == "warning: Invalid HTTP request received. (999 more since 70 s ago)"


def test_an_error_in_the_app_is_one_line_that_says_it_is_a_bug():
    line = one_line(
        record("uvicorn.error", logging.ERROR, "Exception in ASGI application\n", KeyError("x"))
    )
    assert line == "error: internal error in the studio (KeyError: 'x'); this is a bug in pnp"


def test_the_loggers_are_routed_for_the_block_only():
    said: list[str] = []
    loggers = [logging.getLogger(name) for name in ("uvicorn", "asyncio")]
    before = [(lg.handlers[:], lg.propagate, lg.level) for lg in loggers]
    with one_line_per_cause(said.append):
        for _ in range(5):
            logging.getLogger("uvicorn.error").warning("Invalid HTTP request received.")
        logging.getLogger("asyncio").error("a loop error")
    assert said == ["warning: Invalid HTTP request received.", "error: a loop error"]
    assert [(lg.handlers, lg.propagate, lg.level) for lg in loggers] == before
