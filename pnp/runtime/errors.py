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
    except ValueError:  # a whole number longer than Python writes out (4,300 digits)
        return _too_long(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _too_long(value: object) -> str:
    """A value holding a whole number too long to write in decimal, said without writing it
    (a hex or octal number in TOML may have any length)."""
    if isinstance(value, int):
        return f"a whole number of about {int(abs(value).bit_length() * 0.30103) + 1:,} digits"
    return "a value holding a whole number too long to show"
