"""Parameter schemas: every parameter declares its type and range where it is defined.

A game's parameters are a frozen dataclass whose fields are made with `param(...)`; shared
groups of parameters (print, cards, tin, dice, tiles, board scale) are small dataclasses a
game's parameters inherit, as Boxes.py's settings groups are. One validator
(`validate_params`) enforces types, finite numbers, ranges, choices and lengths, naming the
parameter and the allowed range in its one-line error. Cross-parameter limits (a card that
must fit the paper) are checks, which run before anything renders.

Types a field may have: ``bool``, ``int``, ``float``, ``str``, ``Literal[...]``,
``tuple[T, ...]`` of those, ``dict[str, T]`` (a TOML table) with T any of these, nested.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, get_args, get_origin, get_type_hints

from pnp.contract.palette import INKS
from pnp.contract.paper import get_bed, paper_name
from pnp.runtime.errors import PnpError, shown

_MISSING = dataclasses.MISSING

# Physical lower bounds of sizes: below them a kit can be laid out but not held, cut or printed.
MIN_DIE = 5.0
"""mm: the smallest die a hand can hold and roll (the smallest dice made are 5 mm)."""
MIN_TILE = 10.0
"""mm: the smallest tile fingers can pick up and swap."""
MIN_SCALE = 0.1
"""The most a board may be reduced: at a tenth a 50 cm board is a 5 cm thumbnail."""


@dataclass(frozen=True)
class Spec:
    """The declared limits of one parameter (kept in the dataclass field's metadata)."""

    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False  # lo itself is not allowed (a size must be > 0)
    help: str = ""
    min_len: int | None = None
    max_len: int | None = None
    item_lo: float | None = None  # range of the numbers inside a tuple or table
    item_hi: float | None = None
    parse: Callable[[str, Any], Any] | None = None  # a field's own reading of its value
    # the value (or each item) names a palette colour (`pnp.contract.palette.INKS`)
    ink: bool = False
    file: bool = False  # the value names a file the build reads ('' for none)
    step: float | None = None  # the values allowed are lo, lo + step, ... (n even: lo 2, step 2)


def param(
    default: Any = _MISSING,
    *,
    lo: float | None = None,
    hi: float | None = None,
    lo_open: bool = False,
    help: str = "",
    min_len: int | None = None,
    max_len: int | None = None,
    item_lo: float | None = None,
    item_hi: float | None = None,
    factory: Any = _MISSING,
    parse: Callable[[str, Any], Any] | None = None,
    ink: bool = False,
    file: bool = False,
    step: float | None = None,
) -> Any:
    """A dataclass field with its limits: ``die_size: float = param(10.0, lo=0, lo_open=True)``.

    `parse(name, value)` replaces the type-driven reading for a field whose config form is
    richer than its type (Exploding Dice's faces: one list for all dice, or one per die).
    `ink=True`: a string (or each string of a list) names a palette colour, checked with
    the other values; `file=True`: a string names a file the build reads, which a web
    request may not name (the studio refuses it and takes the file's text: `file_keys`).
    `step` (with `lo`): only `lo`, `lo + step`, `lo + 2 step`... are allowed, so a search,
    a sweep or a form never offers a value the game refuses (a grid of even size)."""
    if step is not None and (lo is None or not step > 0):
        raise ValueError("param(step=...) needs a lower bound and a step above 0")
    spec = Spec(lo, hi, lo_open, help, min_len, max_len, item_lo, item_hi, parse, ink, file, step)
    if factory is not _MISSING:
        return dataclasses.field(default_factory=factory, metadata={"spec": spec})
    if isinstance(default, dict | list | set):
        value = default
        meta = {"spec": spec}
        return dataclasses.field(default_factory=lambda: type(value)(value), metadata=meta)
    return dataclasses.field(default=default, metadata={"spec": spec})


def spec_of(f: dataclasses.Field) -> Spec:
    return f.metadata.get("spec", Spec())


def _num(x: float) -> str:
    """A limit as written: 10000000, not 1e+07."""
    return str(int(x)) if x == int(x) and abs(x) < 1e15 else f"{x:g}"


def _range_text(s: Spec) -> str:
    lo = "" if s.lo is None else (f"> {_num(s.lo)}" if s.lo_open else f">= {_num(s.lo)}")
    hi = "" if s.hi is None else f"<= {_num(s.hi)}"
    by = "" if s.step is None else f" in steps of {_num(s.step)}"
    if lo and hi:
        a, b = _num(s.lo), _num(s.hi)  # type: ignore[arg-type]
        return (f"above {a}, at most {b}" if s.lo_open else f"from {a} to {b}") + by
    return (lo or hi or "any value") + by


def on_step(spec: Spec, value: float) -> bool:
    """Is `value` one of the values a stepped parameter allows (`lo + k * step`)? Any
    value is, for a parameter without a step."""
    if spec.step is None or spec.lo is None:
        return True
    k = (value - spec.lo) / spec.step
    return math.isfinite(k) and abs(k - round(k)) < 1e-9


def _kind_name(hint: Any) -> str:
    origin = get_origin(hint)
    if hint is bool:
        return "true or false"
    if hint is int:
        return "a whole number"
    if hint is float:
        return "a number"
    if hint is str:
        return "a string"
    if origin is tuple:
        item = get_args(hint)[0]
        plural = {bool: "true/false values", int: "whole numbers", float: "numbers", str: "strings"}
        return f"a list of {plural.get(item, 'values')}"
    if origin is Literal:
        return "one of " + ", ".join(toml_literal(a) for a in get_args(hint))
    if origin is dict:
        return "a table"
    return str(hint)


def coerce(name: str, hint: Any, value: Any, spec: Spec | None = None) -> Any:
    """Turn a TOML (or Python) value into the field's type and check it, or one clear error."""
    spec = spec or Spec()
    if spec.parse is not None:
        try:
            return spec.parse(name, value)
        except PnpError as exc:
            text = str(exc)
            raise PnpError(text if f"'{name}" in text else f"'{name}': {text}") from None
    origin = get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in get_args(hint) if a is not type(None)]
        if value is None:
            return None
        return coerce(name, args[0], value, spec)
    if hint is bool:
        if not isinstance(value, bool):
            raise PnpError(f"'{name}' must be true or false, got {shown(value)}")
        return value
    if hint is int or hint is float:
        return _number(name, hint, value, spec.lo, spec.hi, spec.lo_open, spec)
    if hint is str:
        if not isinstance(value, str):
            raise PnpError(f"'{name}' must be a string, got {shown(value)}")
        _printable(name, value)
        if spec.ink and value not in INKS:
            raise PnpError(
                f"unknown colour {shown(value)} in '{name}': choose from {', '.join(INKS)}"
            )
        return value
    if origin is Literal:
        choices = get_args(hint)
        if value not in choices or isinstance(value, bool) != isinstance(choices[0], bool):
            names = ", ".join(str(c) for c in choices)
            raise PnpError(f"'{name}' must be one of {names}, got {shown(value)}")
        return value
    if origin is tuple:
        item = get_args(hint)[0]
        if not isinstance(value, list | tuple):
            raise PnpError(f"'{name}' must be {_kind_name(hint)}, got {shown(value)}")
        _length(name, len(value), spec)
        inner = _items(spec)
        return tuple(coerce(f"{name}[{i}]", item, v, inner) for i, v in enumerate(value))
    if origin is dict:
        _, item = get_args(hint)
        if not isinstance(value, dict):
            raise PnpError(f"'{name}' must be a table, got {shown(value)}")
        _length(name, len(value), spec)
        inner = _items(spec)
        out = {}
        for k, v in value.items():
            _printable(name, str(k))
            out[str(k)] = coerce(f"{name}.{k}", item, v, inner)
        return out
    raise PnpError(f"'{name}' cannot be set from a config file")


def _items(spec: Spec) -> Spec:
    """The limits of a list's or table's entries: `item_lo`..`item_hi` bound every number
    inside, however deeply the lists nest (a die's faces in a list of dice)."""
    return Spec(
        spec.item_lo,
        spec.item_hi,
        help=spec.help,
        item_lo=spec.item_lo,
        item_hi=spec.item_hi,
        ink=spec.ink,
    )


def _printable(name: str, value: str) -> None:
    if len(value) > 200 or any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise PnpError(f"'{name}' must be a short line of printable text, got {shown(value)}")


def _length(name: str, n: int, spec: Spec) -> None:
    if spec.min_len is not None and n < spec.min_len:
        raise PnpError(f"'{name}' needs at least {spec.min_len} entries, got {n}")
    if spec.max_len is not None and n > spec.max_len:
        raise PnpError(f"'{name}' takes at most {spec.max_len} entries, got {n}")


def _number(
    name: str,
    hint: Any,
    value: Any,
    lo: float | None,
    hi: float | None,
    lo_open: bool,
    spec: Spec,
) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PnpError(f"'{name}' must be {_kind_name(hint)}, got {shown(value)}")
    given = value
    if hint is int and not isinstance(value, int):
        if not (math.isfinite(value) and value == int(value)):
            raise PnpError(f"'{name}' must be a whole number, got {shown(value)}")
        value = int(value)
    if isinstance(value, float) and not math.isfinite(value):
        raise PnpError(f"'{name}' must be a finite number, got {shown(value)}")
    bad = (lo is not None and (value < lo or (lo_open and value == lo))) or (
        hi is not None and value > hi
    )
    if bad or not on_step(spec, value):
        rng = _range_text(Spec(lo, hi, lo_open, step=spec.step))
        unit = f" ({spec.help})" if spec.help else ""
        raise PnpError(f"'{name}' must be {rng}{unit}, got {_got(given)}")
    return float(value) if hint is float else value


def _got(value: float) -> str:
    """A refused number as it was given: short (1e+300), but never rounded onto the range
    it missed (40.000000000000007 is not "40")."""
    if isinstance(value, float):
        short = f"{value:g}"
        return short if float(short) == value else repr(value)
    return shown(value)


def field_hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls, include_extras=False)


def validate_params(obj: Any) -> Any:
    """Check every field of a params dataclass against its declared type and range.

    Returns the object with values normalised (ints given for floats become floats).
    """
    hints = field_hints(type(obj))
    changes = {}
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        checked = coerce(f.name, hints[f.name], value, spec_of(f))
        if checked is not value and checked != value or type(checked) is not type(value):
            changes[f.name] = checked
    return dataclasses.replace(obj, **changes) if changes else obj


def apply_values(obj: Any, values: dict[str, Any]) -> Any:
    """A copy of `obj` with `values` (already known keys) coerced to their types."""
    hints = field_hints(type(obj))
    fields = {f.name: f for f in dataclasses.fields(obj)}
    changes = {k: coerce(k, hints[k], v, spec_of(fields[k])) for k, v in values.items()}
    return dataclasses.replace(obj, **changes)


def keys_of(cls_or_obj: Any) -> set[str]:
    return {f.name for f in dataclasses.fields(cls_or_obj)}


def file_keys(cls_or_obj: Any) -> tuple[str, ...]:
    """The keys whose value names a file a build reads (declared with `file=True`)."""
    return tuple(f.name for f in dataclasses.fields(cls_or_obj) if spec_of(f).file)


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def toml_literal(value: Any) -> str:
    """`value` as it is written in a config file: true, 6.35, "a4", [1, 3], { red = [...] }.

    `pnp params` shows defaults this way, so a default can be copied into a config as is."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = (
            f"{k if _BARE_KEY.fullmatch(str(k)) else json.dumps(str(k))} = {toml_literal(v)}"
            for k, v in value.items()
        )
        return "{ " + ", ".join(items) + " }"
    if value is None:
        return "(not set)"
    return str(value)


def describe(cls: type) -> list[tuple[str, str, str, str]]:
    """(key, kind, default, range/help) for every parameter: the `pnp params` table."""
    hints = field_hints(cls)
    rows = []
    for f in dataclasses.fields(cls):
        s = spec_of(f)
        factory = f.default_factory
        default = f.default if f.default is not _MISSING or not callable(factory) else factory()
        limits = _range_text(s) if (s.lo is not None or s.hi is not None) else ""
        rows.append(
            (
                f.name,
                _kind_name(hints[f.name]),
                toml_literal(default),
                "; ".join(x for x in (limits, s.help) if x),
            )
        )
    return rows


# --- shared groups -----------------------------------------------------------------------


def _bed(name: str, value: Any) -> str:
    get_bed(value)
    return value.strip().lower()


@dataclass(frozen=True)
class PrintParams:
    """Print settings every kit shares; a TOML config or the CLI may override them."""

    paper: str = param("a4", help="a4 or letter", parse=lambda _name, v: paper_name(v))
    margin: float = param(6.35, lo=0, hi=40, help="printer margin, mm")
    bleed: float = param(3.0, lo=0, hi=10, help="mm")
    kerf: float = param(0.0, lo=0, hi=5, help="cut files, mm")
    back_offset_x: float = param(0.0, lo=-20, hi=20, help="duplex back correction, mm")
    back_offset_y: float = param(0.0, lo=-20, hi=20, help="duplex back correction, mm")
    duplex: Literal["long", "short", "none"] = param(
        "long",
        help="long or short: the edge double-sided prints flip on; "
        "none: single-sided, backs on gutter-fold sheets",
    )
    cut_bed: str = param(
        "300x200", help="cut sheets: a4, letter, 300x200, 400x300 or WxH mm", parse=_bed
    )
    common_line: bool = param(False, help="cut sheets: merge shared straight edges")
    print_cut_lines: bool = param(
        False, help="print PDFs draw the laser cut layers too (off: they are in cut files)"
    )
    laser_presets: str = param(
        "",
        help="LightBurn projects: a TOML file of your own laser presets ('' = built in)",
        file=True,
    )
    laser_engrave: bool = param(False, help="LightBurn projects: engrave the parts' art too")
    alignment_test: bool = param(
        True,
        help="a double-sided job starts with the duplex alignment test "
        "(off: one test printed for several kits)",
    )
    sticker_sheets: bool = param(
        True,
        help="the kit prints its own sticker sheets (off: one combined sheet for several kits)",
    )
    board_on_card: bool = param(
        False,
        help="tiled board sheets print on card stock (off: plain paper, glued onto board)",
    )


@dataclass(frozen=True)
class ScaleGroup:
    """A board larger than a sheet prints at real size, tiled, or reduced on fewer sheets."""

    board_scale: float = param(
        1.0, lo=MIN_SCALE, hi=1, help="1 = real size, tiled; 0.1 the most a board shrinks"
    )


@dataclass(frozen=True)
class CardGroup:
    """Rule-card size. Poker size (63.5 x 88.9 mm) unless a game sets its own."""

    card_width: float = param(63.5, lo=20, hi=200, help="mm")
    card_height: float = param(88.9, lo=20, hi=200, help="mm")
    card_radius: float = param(3.0, lo=0, hi=50, help="mm")


@dataclass(frozen=True)
class TinGroup:
    """A mint tin the kit goes in (print-and-cut.md: inner 91.5 x 56.9 mm, r 14)."""

    tin_width: float = param(91.5, lo=20, hi=300, help="inner, mm")
    tin_height: float = param(56.9, lo=20, hi=300, help="inner, mm")
    tin_radius: float = param(14.0, lo=0, hi=100, help="inner corner, mm")


@dataclass(frozen=True)
class DiceGroup:
    """Dice and their stickers."""

    die_size: float = param(
        16.0, lo=MIN_DIE, hi=40, help="10, 12 or 16 mm; 5 mm is the smallest die to hold"
    )
    sticker_margin: float = param(2.0, lo=0, hi=10, help="sticker = die face minus this, mm")


@dataclass(frozen=True)
class TileGroup:
    """Tiles laid on board spaces."""

    tile_size: float = param(
        25.0, lo=MIN_TILE, hi=200, help="across flats, mm; 10 mm is the smallest to swap"
    )
    clearance: float = param(1.0, lo=0, hi=10, help="space minus tile, mm")
