"""A sweep's grid: `--sweep KEY=V1,V2,...` given once per key, read into the settings to
run, the Cartesian product of the keys' values (the first key outermost).

A value list may hold ranges: `radius=2..5` (whole numbers, both ends included) and
`board_height=250..600:50` (start..stop:step, the stop included when a step lands on it).
A key declared with a step (`n`: from 2 in steps of 2) sweeps only the values it allows: a
range without `:STEP` takes the declared step, and a step or a value off it is refused.
Every setting is one full simulation on the same seeds, so the settings are compared on
common random numbers. `players` is the seat count (`--players`), not a kit key.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any, Literal, get_origin

from pnp.contract.config import NotToml, parse_toml
from pnp.contract.gamedef import GameDef, rule_keys
from pnp.contract.params import PrintParams, Spec, field_hints, keys_of, spec_of
from pnp.runtime.errors import PnpError, shown

MAX_VALUES = 50  # values of one key
MAX_SETTINGS = 200  # settings of the whole grid
PLAYERS = "players"  # the swept key that is the seat count, `--players`, for every game

_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"
RANGE = re.compile(rf"\s*({_NUMBER})\s*\.\.\s*({_NUMBER})\s*(?::\s*({_NUMBER})\s*)?")


@dataclass(frozen=True)
class Grid:
    """The swept keys and each key's values, in the order given."""

    keys: tuple[str, ...]
    values: tuple[tuple[Any, ...], ...]

    @classmethod
    def of(cls, key: str, values: list[Any]) -> Grid:
        """A one-key grid."""
        return cls((key,), (tuple(values),))

    def settings(self) -> list[dict[str, Any]]:
        """Every combination of the keys' values, the first key varying slowest."""
        return [dict(zip(self.keys, combo, strict=True)) for combo in self.points()]

    def points(self) -> list[tuple[Any, ...]]:
        return list(itertools.product(*self.values))

    def __len__(self) -> int:
        n = 1
        for values in self.values:
            n *= len(values)
        return n


def sweep_keys(game: GameDef) -> tuple[str, ...]:
    """The keys a sweep may change: `players`, then the keys the game's rules read
    (`pnp.contract.gamedef.rule_keys`) that take one value (a number, a word, a switch; a list such
    as `colours` is not swept)."""
    params = game.default_params()
    hints = field_hints(type(params))
    one = (bool, int, float, str)
    read = rule_keys(game)
    return (PLAYERS, *(k for k in read if hints[k] in one or get_origin(hints[k]) is Literal))


def check_sweep(game: GameDef, keys: tuple[str, ...]) -> None:
    """Refuse a swept key the rules never read (a print size, a margin): every setting
    would play the very same games, and the grid would only seem to say something."""
    read = rule_keys(game)
    known = keys_of(game.default_params()) | keys_of(PrintParams)
    for key in keys:
        if key != PLAYERS and key in known and key not in read:
            raise PnpError(
                f"--sweep {key}: {game.title}'s rules do not read '{key}' (it changes the "
                "printed kit only), so every setting would play the same games; sweep one of "
                + ", ".join(sweep_keys(game))
            )


def label(setting: dict[str, Any]) -> str:
    """`board_height = 300, die_size = 12`: a setting as errors and warnings name it."""
    return ", ".join(f"{k} = {_said(v)}" for k, v in setting.items())


def _brief(number: str) -> str:
    """A number as given, unless it is too long to repeat in a line."""
    return number if len(number) <= 24 else f"{number[:12]}... ({len(number):,} characters)"


def _said(value: Any) -> str:
    """A swept value in a line: a word as given, a number short (a refused one may have
    thousands of digits)."""
    return value if isinstance(value, str) else shown(value)


def declared_steps(game: GameDef | None) -> dict[str, Spec]:
    """The game's keys declared with a step (`n`: from 2 in steps of 2), by key."""
    if game is None:
        return {}
    fields = dataclasses.fields(game.default_params())
    return {f.name: spec_of(f) for f in fields if spec_of(f).step is not None}


def parse_grid(texts: list[str], game: GameDef | None = None) -> Grid:
    """The grid of several `--sweep` options (stepped as `game` declares its keys);
    one-line errors for a repeated key or a grid too big to run."""
    keys: list[str] = []
    values: list[tuple[Any, ...]] = []
    steps = declared_steps(game)
    for text in texts:
        key, vals = parse_axis(text, steps=steps)
        if key in keys:
            raise PnpError(f"--sweep {key} is given twice: give each key once, with all its values")
        keys.append(key)
        values.append(tuple(vals))
    grid = Grid(tuple(keys), tuple(values))
    if len(grid) > MAX_SETTINGS:
        sizes = " x ".join(str(len(v)) for v in values)
        raise PnpError(
            f"--sweep: {sizes} = {len(grid)} settings, at most {MAX_SETTINGS} in one run "
            "(fewer values, or a coarser step)"
        )
    return grid


def parse_axis(
    text: str, most: int = MAX_VALUES, steps: Mapping[str, Spec] | None = None
) -> tuple[str, list[Any]]:
    """`KEY=V1,V2,...` -> (key, values); each item a TOML scalar (numbers, strings, a bare
    word) or a range `A..B` / `A..B:STEP`. A key in `steps` (its declared spec) takes only
    values on its step, a range without `:STEP` going by it."""
    key, sep, rest = text.partition("=")
    key = key.strip()
    words = [w.strip() for w in rest.split(",") if w.strip()]
    if not sep or not key or not words:
        raise PnpError(f"--sweep takes KEY=V1,V2,... or KEY=A..B[:STEP], got '{text}'")
    out: list[Any] = []
    for word in words:
        span = RANGE.fullmatch(word)
        spec = (steps or {}).get(key)
        if span:
            by = span[3]
            if spec is not None:
                by = _on_step(key, spec, span[1], by)
            new = _span(key, span[1], span[2], by, most)
        else:
            new = [_scalar(word)]
            if spec is not None and _number(new[0]) and _steps_to(spec, new[0]) is None:
                raise PnpError(
                    f"--sweep {key}: {_said(new[0])} is not one of its values: {_steps(key, spec)}"
                )
        for value in new:
            if any(value == v and type(value) is type(v) for v in out):
                raise PnpError(f"--sweep {key}: the value {_said(value)} is given twice")
            out.append(value)
        if len(out) > most:
            raise PnpError(f"--sweep takes at most {most} values of a key, {key} has more")
    return key, out


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _steps(key: str, spec: Spec) -> str:
    """`'n' goes in steps of 2 from 2`: a stepped key's values, as an error says them."""
    return f"'{key}' goes in steps of {_text(spec.step)} from {_text(spec.lo)}"


def _text(x: float | None) -> str:
    assert x is not None
    return str(int(x)) if x == int(x) else repr(x)


def _on_step(key: str, spec: Spec, start: str, step: str | None) -> str:
    """The step of a range over a stepped key: the declared one when none is given, else
    the given one when it is a whole number of declared steps (and the start is on one)."""
    where = f"--sweep {key}: "
    if _steps_to(spec, start) is None:
        raise PnpError(
            f"{where}the range starts at {_brief(start)}, not one of its values: "
            + _steps(key, spec)
        )
    if step is None:
        return _text(spec.step)
    if not _fraction(step) / _exact(spec.step) >= 1 or _steps_to(spec, step, 0) is None:
        raise PnpError(
            f"{where}a step of {_brief(step)} lands off its values: {_steps(key, spec)} "
            f"(give a multiple of {_text(spec.step)}, or no step)"
        )
    return step


def _exact(x: float | None) -> Fraction:
    """A declared limit as the decimal it was written as (0.1, not its binary neighbour)."""
    return Fraction(repr(x))


def _fraction(value: Any) -> Fraction:
    """A number or a number's text, exactly, at any length (`str` of a whole number past
    4,300 digits, and `Fraction` of such a text, are refused by Python)."""
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(repr(value))
    return Fraction(Decimal(value))


def _steps_to(spec: Spec, value: Any, origin: float | None = None) -> int | None:
    """How many declared steps `value` lies from `origin` (the declared lower bound), when
    a whole number of them, else None; exact for numbers of any length."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    start = spec.lo if origin is None else origin
    k = (_fraction(value) - _exact(start)) / _exact(spec.step)
    return k.numerator if k.denominator == 1 else None


def _scalar(word: str) -> Any:
    try:
        return parse_toml(f"v = {word}", "--sweep")["v"]
    except NotToml:
        return word  # a bare word: a string value


def _span(key: str, start: str, stop: str, step: str | None, most: int) -> list[Any]:
    """The values of `start..stop[:step]`, exact in decimal (0.1 steps land on the stop);
    whole numbers when the start and step are."""
    try:
        a, b, d = Decimal(start), Decimal(stop), Decimal(step or "1")
    except InvalidOperation:  # pragma: no cover - the pattern only lets numbers through
        raise PnpError(f"--sweep {key}: '{start}..{stop}' is not a range") from None
    where = f"--sweep {key}={_brief(start)}..{_brief(stop)}" + (f":{_brief(step)}" if step else "")
    if d <= 0:
        raise PnpError(f"{where}: the step must be above 0")
    if b < a:
        raise PnpError(f"{where}: the range runs from {start} up to a stop below it")
    steps = (b - a) / d
    if steps >= most:  # said without writing out a number of thousands of digits
        many = f"{int(steps) + 1}" if steps < 10**15 else f"{steps + 1:.3g}"
        raise PnpError(f"{where}: {many} values, at most {most} for one key")
    count = int(steps) + 1
    whole = all("." not in t for t in (start, step or "1"))
    values = [a + i * d for i in range(count)]
    return [int(v) for v in values] if whole else [float(v) for v in values]
