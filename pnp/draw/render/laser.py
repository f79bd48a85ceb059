"""Laser presets: the speed and power each machine layer runs at, per material.

The table is TOML data (`laser_presets.toml` beside this module, like vpype's device
files), so a maker tunes it to their own laser without touching code: a file of theirs
(print parameter `laser_presets`) adds presets and material entries, replacing any of the
same name. A kit's cut-sheet material group ("plywood", "tiles") picks its preset through
the `[materials]` table, "default" for a group the table does not name.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pnp.contract.config import parse_toml, read_toml
from pnp.runtime.errors import PnpError

PRESETS_FILE = Path(__file__).with_name("laser_presets.toml")
LASER_LAYERS: tuple[str, ...] = ("cut", "inner-cut", "score", "drill", "engrave")
"""The layers a preset sets: the scene's machine layers and `engrave` (art, when asked)."""
DEFAULT_MATERIAL = "default"


@dataclass(frozen=True)
class LayerSetting:
    """One machine layer's run: speed (mm/s), power (% of the tube) and passes."""

    speed: float
    power: float
    passes: int = 1


@dataclass(frozen=True)
class Preset:
    name: str
    title: str
    layers: dict[str, LayerSetting]


@dataclass(frozen=True)
class PresetTable:
    presets: dict[str, Preset]
    materials: dict[str, str]

    def for_material(self, material: str) -> Preset:
        """The preset a material group is cut with (its own entry, else "default")."""
        name = self.materials.get(material, self.materials.get(DEFAULT_MATERIAL))
        if name is None:
            raise PnpError(f"laser presets: no preset for material '{material}' and no 'default'")
        return self.presets[name]


@cache
def _builtin() -> dict[str, Any]:
    with PRESETS_FILE.open("rb") as fh:
        return tomllib.load(fh)


def load_presets(user_file: str = "") -> PresetTable:
    """The built-in table, extended by `user_file` (a path, '' for none); any fault in
    either is one line naming the file and the key."""
    extra = None
    if user_file:
        try:
            extra = read_toml(user_file)
        except PnpError as exc:
            raise PnpError(f"laser_presets: {exc}") from None
    return _table(extra, user_file)


def presets_from_text(text: str, where: str) -> PresetTable:
    """The built-in table extended by presets given as TOML text, named `where` in errors:
    the studio's upload, which is content and never a path to read."""
    return _table(parse_toml(text, where), where)


def _table(extra: dict[str, Any] | None, where: str) -> PresetTable:
    data = _builtin()
    presets = _presets(data, str(PRESETS_FILE))
    materials = _materials(data, str(PRESETS_FILE))
    if extra is not None:
        presets.update(_presets(extra, where))
        materials.update(_materials(extra, where))
        unknown = set(extra) - {"presets", "materials"}
        if unknown:
            raise PnpError(
                f"laser presets file {where}: unknown table '{sorted(unknown)[0]}' "
                "(use [materials] and [presets.<name>])"
            )
    for group, name in materials.items():
        if name not in presets:
            raise PnpError(
                f"laser presets: material '{group}' names preset '{name}', which is not defined"
            )
    return PresetTable(presets, materials)


def _materials(data: dict[str, Any], where: str) -> dict[str, str]:
    table = data.get("materials", {})
    if not isinstance(table, dict):
        raise PnpError(f"laser presets file {where}: [materials] must be a table")
    for group, name in table.items():
        if not isinstance(name, str) or not name:
            raise PnpError(f"laser presets file {where}: materials.{group} must be a preset name")
    return dict(table)


def _presets(data: dict[str, Any], where: str) -> dict[str, Preset]:
    table = data.get("presets", {})
    if not isinstance(table, dict):
        raise PnpError(f"laser presets file {where}: [presets] must be a table of presets")
    out = {}
    for name, body in table.items():
        if not isinstance(body, dict):
            raise PnpError(f"laser presets file {where}: presets.{name} must be a table")
        unknown = set(body) - {"title", *LASER_LAYERS}
        if unknown:
            raise PnpError(
                f"laser presets file {where}: presets.{name} has unknown key "
                f"'{sorted(unknown)[0]}' (layers: {', '.join(LASER_LAYERS)})"
            )
        missing = [layer for layer in LASER_LAYERS if layer not in body]
        if missing:
            raise PnpError(f"laser presets file {where}: presets.{name} needs '{missing[0]}'")
        layers = {
            layer: _setting(body[layer], f"presets.{name}.{layer}", where) for layer in LASER_LAYERS
        }
        out[name] = Preset(name, str(body.get("title", name)), layers)
    return out


def _setting(body: Any, key: str, where: str) -> LayerSetting:
    if not isinstance(body, dict) or not {"speed", "power"} <= set(body):
        raise PnpError(f"laser presets file {where}: {key} needs speed and power")
    unknown = set(body) - {"speed", "power", "passes"}
    if unknown:
        raise PnpError(f"laser presets file {where}: {key} has unknown key '{sorted(unknown)[0]}'")
    speed, power, passes = body["speed"], body["power"], body.get("passes", 1)
    if not _number(speed) or speed <= 0:
        raise PnpError(f"laser presets file {where}: {key}.speed must be a positive number")
    if not _number(power) or not 0 < power <= 100:
        raise PnpError(f"laser presets file {where}: {key}.power must be a % in (0, 100]")
    if isinstance(passes, bool) or not isinstance(passes, int) or not 1 <= passes <= 50:
        raise PnpError(f"laser presets file {where}: {key}.passes must be a whole number 1-50")
    return LayerSetting(float(speed), float(power), passes)


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def sheet_notes(
    sheet_name: str,
    meta: dict[str, Any],
    size: tuple[float, float],
    preset: Preset,
    layers: tuple[str, ...],
) -> list[str]:
    """What a cut sheet's machine files say besides the lines (the LightBurn project's
    notes, the DXF's `notes` layer): the bed, the grain to lay the board by, and the
    laser preset with each layer's speed and power."""
    w, h = size
    out = [f"pnp cut sheet {sheet_name}, bed {_mm(w)} x {_mm(h)} mm (width x height)."]
    if meta.get("grained"):
        axis = "x (left to right)" if meta.get("grain", 0) == 0 else "y (bottom to top)"
        out.append(f"Grain: lay the board with its grain along {axis}, the bed's long side.")
    else:
        out.append("Grain: no part on this sheet needs one.")
    out.append(f"Laser preset: {preset.title} ({preset.name}).")
    for layer in layers:
        s = preset.layers.get(layer)
        if s is not None:
            passes = f", {s.passes} passes" if s.passes > 1 else ""
            out.append(f"{layer}: speed {_mm(s.speed)} mm/s, power {_mm(s.power)} %{passes}.")
    out.append("Check speeds and powers on a test piece first.")
    return out


def _mm(v: float) -> str:
    return f"{round(v, 3):g}"
