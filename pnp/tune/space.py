"""The search space: the keys `--over` names, each within its declared range or a
narrower one the designer gives.

`--over dice_per_colour,n,arrows` names keys, each over its whole declared range (a whole
number or a number between the `lo` and `hi` of its `pnp.contract.params.param`, a word among its
`Literal` choices, a switch true or false); `--over "die_size=10..16"` narrows one
(`A..B:STEP` steps it), `--over arrows=all,pinwheel` lists its values. The last key of a list may
carry its values: `--over dice_per_colour,n=4..8:2`. `players` is the seat
count, from the game's fewest to its most. Only keys the rules read may be tuned
(`pnp.contract.gamedef.rule_keys`): another would play the very same games.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass
from typing import Any, Literal, get_args, get_origin

from pnp.contract.gamedef import GameDef, rule_keys
from pnp.contract.params import PrintParams, coerce, field_hints, keys_of, spec_of
from pnp.runtime.errors import PnpError
from pnp.sim.grid import PLAYERS, RANGE, parse_axis, sweep_keys
from pnp.sim.seats import engine_for

FLOAT_DIGITS = 4  # a number the optimiser picks is rounded to this many decimals


@dataclass(frozen=True)
class Dimension:
    """One key the search varies: a range of whole numbers or numbers, or a list."""

    key: str
    kind: Literal["int", "float", "choice"]
    lo: float = 0
    hi: float = 0
    step: float | None = None
    choices: tuple[Any, ...] = ()

    def as_json(self) -> dict[str, Any]:
        if self.kind == "choice":
            return {"key": self.key, "choices": list(self.choices)}
        out: dict[str, Any] = {"key": self.key, "kind": self.kind, "lo": self.lo, "hi": self.hi}
        if self.step is not None:
            out["step"] = self.step
        return out

    def size(self) -> float:
        """How many values it holds (infinite for numbers without a step)."""
        if self.kind == "choice":
            return len(self.choices)
        if self.kind == "int":
            return int((self.hi - self.lo) // (self.step or 1)) + 1
        return int((self.hi - self.lo) / self.step) + 1 if self.step else math.inf

    def values(self) -> list[Any]:
        """Every value it holds, in order (a number without a step holds too many)."""
        if self.kind == "choice":
            return list(self.choices)
        step = self.step or 1
        if self.kind == "int":
            return list(range(int(self.lo), int(self.hi) + 1, int(step)))
        if self.step is None:
            raise ValueError(f"{self.key} is a number without a step: endless values")
        count = int((self.hi - self.lo) / step + 1e-9) + 1
        return [round(self.lo + k * step, FLOAT_DIGITS) for k in range(count)]


def grid(dims: list[Dimension]) -> list[dict[str, Any]]:
    """Every setting of a finite space, the first key's values slowest."""
    return [dict(zip((d.key for d in dims), point, strict=True))
            for point in itertools.product(*(d.values() for d in dims))]  # fmt: skip


def space_size(dims: list[Dimension]) -> float:
    """How many settings the space holds (infinite with a free number in it)."""
    n: float = 1
    for d in dims:
        n *= d.size()
    return n


def default_keys(game: GameDef, players: int | None) -> list[str]:
    """What `--over` defaults to: every key a sweep may change (`sweep_keys`) with a
    declared range or choices; `players` only when `--players` does not fix it."""
    out = []
    for key in sweep_keys(game):
        if key == PLAYERS:
            if players is None:
                out.append(key)
            continue
        try:
            _declared(game, key)
        except PnpError:
            continue  # no finite range declared: it can still be named with one
        out.append(key)
    return out


def parse_over(texts: list[str], game: GameDef, players: int | None) -> list[Dimension]:
    """The dimensions of `--over` (given once or more), in the order named; the default
    keys when none is given. Each is a one-line error when it cannot be searched."""
    named: list[tuple[str, str | None]] = []
    for text in texts:
        keys, sep, rest = text.partition("=")  # `a,b,c=1,2`: a, b, and c over 1, 2
        words = keys.split(",")
        for i, word in enumerate(words):
            if not word.strip():
                raise PnpError(f"--over has an empty key in '{text}'")
            last = sep and i == len(words) - 1
            named.append((word.strip(), rest if last else None))
    if not texts:
        named = [(k, None) for k in default_keys(game, players)]
        if not named:
            raise PnpError(f"{game.title} declares no key the rules read that pnp can tune")
    dims: list[Dimension] = []
    for key, values in named:
        if any(d.key == key for d in dims):
            raise PnpError(f"--over names {key} twice: give each key once")
        dims.append(_dimension(game, key, values, players))
    return dims


def names_players(texts: list[str]) -> bool:
    """Does `--over` name the seat count among its keys?"""
    return any(PLAYERS in (k.strip() for k in t.partition("=")[0].split(",")) for t in texts)


def _known(game: GameDef, key: str) -> None:
    """A one-line error for a key the search cannot vary."""
    tunable = sweep_keys(game)
    if key in tunable:
        return
    own = keys_of(game.default_params()) | keys_of(PrintParams)  # type: ignore[arg-type]
    if key not in own:
        raise PnpError(
            f"--over {key}: {game.title} has no config key '{key}'; the rules read "
            + ", ".join(tunable)
        )
    if key in keys_of(PrintParams) or key not in rule_keys(game):
        raise PnpError(
            f"--over {key}: {game.title}'s rules do not read '{key}' (it changes the printed "
            "kit only), so every setting would play the same games; tune one of "
            + ", ".join(tunable)
        )
    raise PnpError(
        f"--over {key}: '{key}' holds a list or a table, which pnp does not tune; tune one "
        "of " + ", ".join(tunable)
    )


def _declared(game: GameDef, key: str, closed: bool = True) -> Dimension:
    """The key's whole declared range or choices (`closed`: a range with both ends, else
    an error saying to give one; otherwise only what kind of key it is)."""
    engine = engine_for(game)
    if key == PLAYERS:
        return Dimension(key, "int", engine.MIN_PLAYERS, engine.MAX_PLAYERS)
    params = game.default_params()
    hint = field_hints(type(params))[key]
    if hint is bool:
        return Dimension(key, "choice", choices=(False, True))
    if get_origin(hint) is Literal:
        return Dimension(key, "choice", choices=get_args(hint))
    spec = spec_of(next(f for f in dataclasses.fields(params) if f.name == key))  # type: ignore[arg-type]
    if hint is str:
        raise PnpError(
            f"--over {key}: '{key}' is a word with no declared choices: list them, "
            f"--over '{key}=A,B'"
        )
    kind: Literal["int", "float"] = "int" if hint is int else "float"
    lo = spec.lo
    if lo is not None and spec.lo_open and kind == "int" and lo == int(lo):
        lo += 1  # "above 0" for a whole number: from 1
    elif spec.lo_open:
        lo = None
    step = None if spec.step is None or lo != spec.lo else spec.step
    if not closed:
        return Dimension(key, kind, lo or 0, spec.hi or 0, step)
    if lo is None or spec.hi is None:
        raise PnpError(
            f"--over {key}: '{key}' declares no closed range to search: give one, "
            f"--over '{key}=A..B'"
        )
    hi = spec.hi if step is None else lo + (spec.hi - lo) // step * step
    return Dimension(key, kind, lo, hi, step)


def _dimension(game: GameDef, key: str, values: str | None, players: int | None) -> Dimension:
    if key == PLAYERS and players is not None:
        raise PnpError("--over players varies the seat count: not with --players as well")
    _known(game, key)
    if values is None:
        return _declared(game, key)
    span = RANGE.fullmatch(values)
    if span:
        return _narrowed(game, key, span[1], span[2], span[3])
    _, listed = parse_axis(f"{key}={values}")
    checked = tuple(_check_value(game, key, v) for v in listed)
    return Dimension(key, "choice", choices=checked)


def _narrowed(game: GameDef, key: str, a: str, b: str, step: str | None) -> Dimension:
    """`A..B[:STEP]` inside the declared range (both ends checked as a config value is)."""
    whole = key == PLAYERS or field_hints(type(game.default_params())).get(key) is int
    where = f"--over {key}={a}..{b}" + (f":{step}" if step else "")
    try:
        lo, hi = (int(a), int(b)) if whole else (float(a), float(b))
        by = None if step is None else (int(step) if whole else float(step))
    except ValueError:
        raise PnpError(f"{where}: '{key}' takes whole numbers") from None
    if hi < lo:
        raise PnpError(f"{where}: the range is empty (its end is below its start)")
    if by is not None and by <= 0:
        raise PnpError(f"{where}: the step must be above 0")
    declared = _declared(game, key, closed=False)
    if declared.kind == "choice":
        raise PnpError(f"{where}: '{key}' takes one of {', '.join(map(str, declared.choices))}")
    for value in (lo, hi):
        _check_value(game, key, value)
    if declared.step is not None:  # only values the game allows: steps of the declared one
        by = by or declared.step
        if not float(by / declared.step).is_integer():
            raise PnpError(f"{where}: '{key}' goes in steps of {declared.step:g}")
    return Dimension(key, "int" if whole else "float", lo, hi, by)


def _check_value(game: GameDef, key: str, value: Any) -> Any:
    """One value of `--over`, read as a config file's would be: outside the declared
    range is the config's own one-line error."""
    if key == PLAYERS:
        d = _declared(game, key)
        if not isinstance(value, int) or isinstance(value, bool) or not d.lo <= value <= d.hi:
            raise PnpError(
                f"--over players: {game.title} takes {d.lo:g} to {d.hi:g} players, got {value}"
            )
        return value
    params = game.default_params()
    field = next(f for f in dataclasses.fields(params) if f.name == key)  # type: ignore[arg-type]
    try:
        return coerce(key, field_hints(type(params))[key], value, spec_of(field))
    except PnpError as exc:
        raise PnpError(f"--over {key}: {exc}") from None


def suggest(trial: Any, dims: list[Dimension]) -> dict[str, Any]:
    """A setting from an Optuna trial (its `suggest_*` for each dimension)."""
    out: dict[str, Any] = {}
    for d in dims:
        if d.kind == "choice":
            out[d.key] = trial.suggest_categorical(d.key, list(d.choices))
        elif d.kind == "int":
            out[d.key] = trial.suggest_int(d.key, int(d.lo), int(d.hi), step=int(d.step or 1))
        else:
            value = trial.suggest_float(d.key, d.lo, d.hi, step=d.step)
            out[d.key] = round(value, FLOAT_DIGITS)
    return out


def distribution(d: Dimension) -> Any:
    """The Optuna distribution of a dimension (for telling a known setting back)."""
    import optuna

    if d.kind == "choice":
        return optuna.distributions.CategoricalDistribution(list(d.choices))
    if d.kind == "int":
        return optuna.distributions.IntDistribution(int(d.lo), int(d.hi), step=int(d.step or 1))
    return optuna.distributions.FloatDistribution(d.lo, d.hi, step=d.step)
