"""Parameters: defaults, overridden by a TOML config, overridden by CLI options.

Keys are flat: any field of the game's parameter schema (which inherits the shared groups it
uses) or of the shared print settings. Every value is read and checked once, by the schema
(`pnp.contract.params`); a key another game owns is as unknown here as a typo, with a "did
you mean". `players`, the seat count `pnp simulate` and `pnp tune` play, may stand in any
config of a game with rules (`SEATS`), so a tuned config replays its answer whole.
"""

from __future__ import annotations

import difflib
import os
import sys
import tomllib
from pathlib import Path
from typing import Any

from pnp.contract.params import PrintParams, apply_values, keys_of, validate_params
from pnp.runtime.errors import PnpError, shown

MAX_CONFIG_BYTES = 1_000_000
KERNEL_FOLDERS = ("/proc", "/sys")  # files there look regular but may block or never end
SEATS = "players"
"""The config key of the seat count (a kit key as well where a game declares one: Building
Community's layout check solves for it)."""


class NotToml(PnpError):
    """Text that is not TOML at all (a sweep reads such a value as a bare word), unlike
    TOML nested too deeply or holding a number too long to read, which is refused."""


def read_toml(path: Path | str) -> dict[str, Any]:
    """A config file's table; anything but a small, readable TOML file is one clear error.

    Files under /proc and /sys are refused: they claim to be regular files, but some block
    on read (/proc/kmsg) or never end. Opening without blocking guards the rest."""
    p = Path(path)
    data = read_small(p)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise PnpError(f"config file {p} is not UTF-8 text") from None
    return parse_toml(text, f"config file {p}")


def read_small(p: Path) -> bytes:
    """The bytes of a small regular file (a config, a presets file), or one clear error."""
    try:
        if not p.is_file():
            what = "does not exist" if not p.exists() else "is not a regular file"
            raise PnpError(f"config file {p} {what}")
        if _in_kernel_folder(p):
            raise PnpError(f"config file {p} is a kernel file under /proc or /sys, not a config")
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with open(fd, "rb") as fh:
            data = fh.read(MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise PnpError(f"cannot read config file {p}: {exc.strerror or exc}") from None
    if data is None or len(data) > MAX_CONFIG_BYTES:
        raise PnpError(f"config file {p} is larger than {MAX_CONFIG_BYTES:,} bytes")
    return data


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """TOML text as a table; a syntax error, nesting too deep to parse or a number too long
    to read is one line."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        first = str(exc).splitlines()[0] if str(exc) else "syntax error"
        raise NotToml(f"{source} is not valid TOML: {first}") from None
    except RecursionError:
        raise PnpError(f"{source} nests lists or tables too deeply to read") from None
    except ValueError:  # the one other refusal: a decimal integer past Python's digit limit
        raise PnpError(
            f"{source} has a whole number of more than {sys.get_int_max_str_digits():,} "
            "digits: no setting takes one"
        ) from None


def _in_kernel_folder(path: Path) -> bool:
    real = os.path.realpath(path)
    return any(real == k or real.startswith(k + "/") for k in KERNEL_FOLDERS)


def _suggest(key: str, known: set[str]) -> str:
    close = difflib.get_close_matches(key, sorted(known), n=1)
    return (
        f" (did you mean '{close[0]}'?)" if close else f" (known keys: {', '.join(sorted(known))})"
    )


def _key_text(key: object) -> str:
    return repr(str(key)).replace("\\n", " ")[:60]


def read_seats(data: dict[str, Any], seats: tuple[int, int] | None, source: str) -> int | None:
    """The config's seat count (its `players` key), checked against the players the game's
    rules take (`seats`, lowest and highest); None when it has none."""
    value = data.get(SEATS)
    if value is None or seats is None:
        return None
    lo, hi = seats
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        takes = f"{lo}" if lo == hi else f"a whole number from {lo} to {hi}"
        raise PnpError(f"{source}: '{SEATS}' is the number of players, {takes}, got {shown(value)}")
    return value


def split_config(
    data: dict[str, Any],
    game_params: Any,
    source: str,
    seats: tuple[int, int] | None = None,
) -> tuple[Any, PrintParams]:
    """Split flat config keys between the game's params and the shared print params, read
    each value by its schema and check every declared range. With `seats` (the players the
    game's rules take) a `players` key is the seat count, checked and left to the caller
    (`read_seats`); without, it is a key like any other."""
    game_keys = keys_of(game_params)
    print_keys = keys_of(PrintParams)
    read_seats(data, seats, source)
    g, p = {}, {}
    for key, value in data.items():
        if key in game_keys:
            g[key] = value
        elif key in print_keys:
            p[key] = value
        elif key == SEATS and seats is not None:
            continue
        else:
            known = game_keys | print_keys | ({SEATS} if seats else set())
            raise PnpError(f"unknown key {_key_text(key)} in {source}{_suggest(str(key), known)}")
    try:
        params = validate_params(apply_values(game_params, g))
        printing = validate_params(apply_values(PrintParams(), p))
    except PnpError as exc:
        raise PnpError(f"{source}: {exc}") from None
    return params, printing
