"""A game's parameters as the studio's form sees them: JSON fields from the declarations
`pnp params` lists, and the one reading of the values a form sends back.

The schema is derived, never written twice: type, default, range, choices and help come
from each field's `pnp.contract.params.param(...)`. A form's values are read by the same
`pnp.contract.config.split_config` a `--config` file goes through, key by key, so a bad value is
refused beside its field with the message the command line prints for it.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any, Literal, get_args, get_origin

from pnp.contract.config import parse_toml, split_config
from pnp.contract.gamedef import GameDef
from pnp.contract.palette import INKS
from pnp.contract.params import PrintParams, Spec, field_hints, file_keys, spec_of, toml_literal
from pnp.runtime.errors import PnpError
from pnp.sim.command import as_json
from pnp.sim.grid import PLAYERS, sweep_keys

SYMBOLS = {
    "circle": "\u25cf",
    "triangle": "\u25b2",
    "square": "\u25a0",
    "diamond": "\u25c6",
    "star": "\u2605",
    "hexagon": "\u2b22",
    "cross": "\u271a",
    "saltire": "\u2716",
    "ring": "\u25cb",
    "pentagon": "\u2b1f",
    "half-disc": "\u25d0",
    "triangle-down": "\u25bc",
    "crescent": "\u263e",
}
"""A character for each ink's symbol, for the colour swatches beside a field."""

PRINT_KEYS = {f.name for f in dataclasses.fields(PrintParams)}


class FieldError(PnpError):
    """A value the form sent that its field refuses: the message and the field's key."""

    def __init__(
        self, message: str, key: str | None = None, fields: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.key = key
        self.fields = fields or ({key: message} if key else {})


def _kind(hint: Any, spec: Spec) -> dict[str, Any]:
    """The input a type needs: number, integer, boolean, choice, text, list or table (a
    colour is a choice of inks; a list of colours has swatches)."""
    origin = get_origin(hint)
    if hint is str and spec.ink:
        return {"type": "choice", "choices": list(INKS)}
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        return {"type": "integer"}
    if hint is float:
        return {"type": "number"}
    if hint is str:
        return {"type": "text"}
    if origin is Literal:
        return {"type": "choice", "choices": list(get_args(hint))}
    if origin is tuple:
        item = get_args(hint)[0]
        if item is str and spec.ink:
            return {"type": "colours", "item": "colour"}
        inner = _kind(item, Spec())
        return {"type": "list", "item": inner["type"] if inner["type"] != "list" else "list"}
    if origin is dict:
        return {"type": "table"}
    return {"type": "text"}


def _unit(help_text: str, kind: str) -> str:
    return "mm" if kind in ("number", "integer") and re.search(r"\bmm\b", help_text) else ""


def _step(kind: str, lo: float | None, hi: float | None) -> float | None:
    if kind == "integer":
        return 1
    if kind != "number":
        return None
    span = (hi - lo) if lo is not None and hi is not None else 100.0
    return 0.01 if span <= 20 else 0.1


def _default(f: dataclasses.Field[Any]) -> Any:
    """A field's default value (made afresh by its factory if it has one)."""
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    raise TypeError(f"parameter {f.name} has no default")


def fields(cls: type, group: str, sweep: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """One JSON field per parameter of `cls` (a params dataclass); `sweep` are the keys a
    simulation may sweep (those the rules read)."""
    hints = field_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        spec = spec_of(f)
        default = _default(f)
        kind = _kind(hints[f.name], spec)
        unit = _unit(spec.help, kind["type"])
        help_text = re.sub(r"(^|,\s*)mm$", "", spec.help).strip() if unit else spec.help
        field: dict[str, Any] = {
            "key": f.name,
            "group": group,
            **kind,
            "default": as_json(default),
            "default_text": toml_literal(default),
            "help": help_text,
            "unit": unit,
            "sweep": f.name in sweep,
        }
        if f.name == "paper":
            field.update(type="choice", choices=["a4", "letter"])
        limits = {
            "min": spec.lo,
            "max": spec.hi,
            "min_exclusive": spec.lo_open or None,
            "step": spec.step or _step(kind["type"], spec.lo, spec.hi),  # declared: n even
            "min_len": spec.min_len,
            "max_len": spec.max_len,
            "item_min": spec.item_lo,
            "item_max": spec.item_hi,
        }
        field.update({k: v for k, v in limits.items() if v is not None})
        out.append(field)
    return out


def schema(game: GameDef) -> dict[str, Any]:
    """The game's form: its own parameters, then the print settings every kit shares."""
    return {
        "game": game.slug,
        "title": game.title,
        "fields": fields(type(game.default_params()), "game", _swept(game))
        + fields(PrintParams, "print"),
        "colours": {
            name: {"hex": ink.hex, "symbol": ink.symbol, "char": SYMBOLS.get(ink.symbol, "")}
            for name, ink in INKS.items()
        },
        "variants": {name: dict(values) for name, values in game.variants.items()},
    }


def _swept(game: GameDef) -> tuple[str, ...]:
    """The parameters a sweep may change (`players`, the seat count, is not one: the
    form sets it beside the bot)."""
    return tuple(k for k in sweep_keys(game) if k != PLAYERS)


def read_values(game: GameDef, values: Any) -> dict[str, Any]:
    """The form's values, each read by its field's schema: the effective parameters (every
    key, defaults included, as JSON has them), or a `FieldError` naming the first bad key
    with the message `pnp build --config` prints for it (without the file's name)."""
    if not isinstance(values, dict):
        raise FieldError("'params' must be an object of parameter keys and values")
    defaults = game.default_params()
    bad: dict[str, str] = {}
    for key, value in values.items():
        try:
            split_config({key: value}, defaults, "the form")
        except PnpError as exc:
            bad[str(key)] = str(exc).removeprefix("the form: ")
    if bad:
        first = next(iter(bad))
        raise FieldError(bad[first], first, bad)
    try:
        params, printing = split_config(values, defaults, "the form")
    except PnpError as exc:
        raise FieldError(str(exc).removeprefix("the form: ")) from None
    return {**as_json(dataclasses.asdict(params)), **as_json(dataclasses.asdict(printing))}


def path_keys(game: GameDef) -> tuple[str, ...]:
    """The game's and the print settings' keys whose value names a file a build reads."""
    return (*file_keys(game.default_params()), *file_keys(PrintParams))


def changed(game: GameDef, effective: dict[str, Any]) -> dict[str, Any]:
    """Only the keys that differ from the defaults: what a config file needs to say."""
    base = read_values(game, {})
    return {k: v for k, v in effective.items() if base.get(k) != v}


def to_toml(game: GameDef, effective: dict[str, Any]) -> str:
    """A config file `pnp build --config` reads back to the same kit."""
    lines = [f"# {game.title}: kit parameters from pnp studio (pnp build {game.slug} --config)"]
    for key, value in changed(game, effective).items():
        lines.append(f"{key} = {toml_literal(value)}")
    return "\n".join(lines) + "\n"


def from_toml(game: GameDef, text: str) -> dict[str, Any]:
    """A config file's values for the form (checked as a build would check them)."""
    data = parse_toml(text, "the config file")
    read_values(game, data)
    # TOML dates and the like are refused above
    plain: dict[str, Any] = json.loads(json.dumps(data))
    return plain
