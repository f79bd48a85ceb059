"""How a pnp command ends when something goes wrong: one `error:` line, never a traceback.

`pnp.cli.main` is the one place that calls these. A user error (`PnpError`, a usage error)
is its own message; an environment pnp cannot work in (a deleted current folder, a full or
closed stdout, too few file descriptors or processes, no memory, an output encoding that
lacks a character, input nested too deeply) is a line saying which, with a hint.
"""

from __future__ import annotations

import codecs
import errno
import os
import sys
from typing import Any, NoReturn

from pnp.runtime.errors import PnpError


def fail(message: str, code: int = 2) -> NoReturn:
    """One line on stderr, however the message was built."""
    text = " ".join(message.split())
    settle_stdout()
    try:
        print(f"error: {text}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass  # stderr is gone too: the exit code is all that is left
    sys.exit(code)


def settle_stdout() -> OSError | None:
    """Flush stdout; if that fails (a full disk, a closed pipe), point it at the null
    device so the interpreter's own flush at exit adds no second message. The error, if any."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError) as exc:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass
        return exc if isinstance(exc, OSError) else None
    return None


def check_working_folder() -> None:
    """A deleted current folder breaks relative paths and some imports (reportlab's calls
    `os.getcwd()`): say so before anything else runs."""
    try:
        os.getcwd()
    except OSError as exc:
        raise PnpError(
            f"the current folder cannot be used ({exc.strerror or exc}): "
            "it was probably deleted; cd to a folder that exists"
        ) from None


_OS_HINTS = {
    errno.EMFILE: "raise the open-file limit ('ulimit -n')",
    errno.ENFILE: "the system has too many files open",
    errno.EAGAIN: "raise the process limit ('ulimit -u') or use '--jobs 1'",
    errno.ENOMEM: "free some memory or use fewer '--jobs'",
}


def environment_error(exc: BaseException) -> str | None:
    """The one line for an environment pnp cannot work in, or None for anything else."""
    if isinstance(exc, MemoryError):
        return "out of memory: free some memory, or ask for fewer games or jobs"
    if isinstance(exc, RecursionError):
        return "the input is nested too deeply to read"
    if isinstance(exc, UnicodeEncodeError) and _is_stream_encoding(exc.encoding):
        bad = exc.object[exc.start : exc.end]
        return (
            f"cannot print {bad!r} in this terminal's encoding ({exc.encoding}): "
            "set PYTHONIOENCODING=utf-8 or use a UTF-8 locale"
        )
    if isinstance(exc, OSError):
        why = exc.strerror or str(exc) or type(exc).__name__
        hint = _OS_HINTS.get(exc.errno or 0)
        why = f"{why}: {hint}" if hint else why
        if getattr(exc, "pnp_stdout", False) or settle_stdout() is not None:
            return f"cannot write to standard output: {why}"
        return f"{exc.filename}: {why}" if exc.filename else why
    return None


def _is_stream_encoding(encoding: str) -> bool:
    def name(enc: str | None) -> str:
        try:
            return codecs.lookup(enc or "utf-8").name
        except LookupError:
            return str(enc)

    return name(encoding) in {name(getattr(s, "encoding", None)) for s in (sys.stdout, sys.stderr)}


def stdout_closed(exc: BaseException) -> bool:
    """A reader that stopped reading (`pnp list | head -1`): not pnp's failure."""
    closed = getattr(exc, "pnp_stdout", False) or settle_stdout() is not None
    return isinstance(exc, BrokenPipeError) and closed


class MarkedStdout:
    """`sys.stdout` as it was, but an OSError writing it is marked as stdout's, so the
    error line can say which file failed ("cannot write to standard output: No space left
    on device") however the writer (print, rich) reached it."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:
            exc.pnp_stdout = True  # type: ignore[attr-defined]
            raise

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            exc.pnp_stdout = True  # type: ignore[attr-defined]
            raise
