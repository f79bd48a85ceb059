"""Parameters: defaults, overridden by a TOML config, overridden by CLI options.

Validated once, here, with one clear error per problem. Keys are flat: any field of the
game's params or of PrintParams. A `[faces]` table (or any table) maps onto a dict field.
"""

from __future__ import annotations

import dataclasses
import difflib
import tomllib
from pathlib import Path
from typing import Any, get_type_hints

from pnp.errors import PnpError
from pnp.kit import PrintParams


def read_toml(path: Path | str) -> dict[str, Any]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PnpError(f"config file {p} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PnpError(f"cannot read config file {p}: {exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PnpError(f"config file {p} is not valid TOML: {exc}") from None


def _suggest(key: str, known: set[str]) -> str:
    close = difflib.get_close_matches(key, sorted(known), n=1)
    return (
        f" (did you mean '{close[0]}'?)" if close else f" (known keys: {', '.join(sorted(known))})"
    )


def _coerce(name: str, hint: Any, value: Any) -> Any:
    """Turn a TOML value into the field's type, or say which key is wrong."""
    text = str(hint)
    if hint is bool or text == "bool":
        if not isinstance(value, bool):
            raise PnpError(f"config key '{name}' must be true or false, got {value!r}")
        return value
    if hint is int or text == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise PnpError(f"config key '{name}' must be a whole number, got {value!r}")
        return value
    if hint is float or text == "float":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise PnpError(f"config key '{name}' must be a number, got {value!r}")
        return float(value)
    if hint is str or text == "str":
        if not isinstance(value, str):
            raise PnpError(f"config key '{name}' must be a string, got {value!r}")
        return value
    if text.startswith("tuple[str"):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise PnpError(f"config key '{name}' must be a list of strings, got {value!r}")
        return tuple(value)
    if text.startswith("dict[str, tuple[tuple[int"):
        return _faces(name, value)
    raise PnpError(f"config key '{name}' cannot be set from a config file")


def _faces(name: str, value: Any) -> dict[str, tuple[tuple[int, ...], ...]]:
    """`{colour: [6 ints]}` (all dice of that colour) or `{colour: [[6 ints], ...]}` (per die)."""
    if not isinstance(value, dict):
        raise PnpError(f"config key '{name}' must be a table of colour = face list")
    out: dict[str, tuple[tuple[int, ...], ...]] = {}
    for colour, faces in value.items():
        if isinstance(faces, list) and faces and all(isinstance(f, list) for f in faces):
            sets = faces
        elif isinstance(faces, list):
            sets = [faces]
        else:
            raise PnpError(f"config key '{name}.{colour}' must be a list of six numbers")
        for fs in sets:
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in fs):
                raise PnpError(f"config key '{name}.{colour}' must hold whole numbers, got {fs!r}")
        out[colour] = tuple(tuple(fs) for fs in sets)
    return out


def apply_overrides(obj: Any, values: dict[str, Any], source: str) -> Any:
    """A copy of dataclass `obj` with `values` set; unknown keys are an error."""
    hints = get_type_hints(type(obj))
    names = {f.name for f in dataclasses.fields(obj)}
    changes = {}
    for key, value in values.items():
        if key not in names:
            raise PnpError(f"unknown key '{key}' in {source}{_suggest(key, names)}")
        changes[key] = _coerce(key, hints[key], value)
    return dataclasses.replace(obj, **changes)


def split_config(data: dict[str, Any], game_params: Any, source: str) -> tuple[Any, PrintParams]:
    """Split flat config keys between the game's params and the shared print params."""
    game_keys = {f.name for f in dataclasses.fields(game_params)}
    print_keys = {f.name for f in dataclasses.fields(PrintParams)}
    g, p = {}, {}
    for key, value in data.items():
        if key in game_keys:
            g[key] = value
        elif key in print_keys:
            p[key] = value
        else:
            raise PnpError(
                f"unknown key '{key}' in {source}{_suggest(key, game_keys | print_keys)}"
            )
    return apply_overrides(game_params, g, source), apply_overrides(PrintParams(), p, source)
