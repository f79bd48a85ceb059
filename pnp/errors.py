"""The one error type a user sees: a clear sentence, exit code 2, no traceback."""


class PnpError(Exception):
    """Bad input from the user (unknown game, impossible size, malformed config, ...)."""

    exit_code = 2
