"""The one error type a user sees: a clear sentence, exit code 2, no traceback."""


class PnpError(Exception):
    """Bad input from the user (unknown game, impossible size, malformed config, ...)."""

    exit_code = 2


class OutOfMemory(PnpError):
    """The machine's memory ran out (a search asked for more than it has): one line, exit 1,
    as for a kit that fails its checks, since the input was within its declared range."""

    exit_code = 1
