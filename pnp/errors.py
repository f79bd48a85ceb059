"""The one error type a user sees: a clear sentence, exit code 2, no traceback."""


class PnpError(Exception):
    """Bad input from the user (unknown game, impossible size, malformed config, ...)."""

    exit_code = 2


class OutOfMemory(PnpError):
    """The machine's memory ran out (a search asked for more than it has): one line, exit 1,
    as for a kit that fails its checks, since the input was within its declared range."""

    exit_code = 1


def shown(value: object) -> str:
    """A value for an error line: short, on one line, and safe for a value nested thousands
    deep (a hostile TOML file), whose repr would exceed the recursion limit."""
    try:
        text = repr(value).replace("\n", "\\n")
    except RecursionError:
        return "a value nested too deeply"
    return text if len(text) <= 40 else text[:37] + "..."
