"""Golden files: a game's printed parts as they are on record, to review a change against.

Per part, `<folder>/<game>/<part>.svg` is its drawing byte for byte and `<part>.json` its
data in a few lines a maker reads (size, layers, cut length and area, holes, texts), so a
change reads as "cut length 812.4 -> 815.1 mm", not as a thousand-line SVG diff
(gdsfactory's data regression). A game's named variants (`GameDef.variants`) keep, under
`<game>/<variant>/`, the parts that differ from its default kit.

`write_golden` writes them: `make golden` (through `pnp.testing`) after a deliberate
change, and `pnp new` for a new game. `pnp.testing.golden` compares them.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from pnp.build import all_components, make_kit
from pnp.contract.gamedef import GameDef
from pnp.draw.checks import part_region
from pnp.draw.render.svg import component_svg
from pnp.draw.scene import CUT_LAYERS, LAYERS, Component, enclosed
from pnp.games import get_game

DIGITS = 2
"""Lengths and areas are recorded to 0.01 mm (mm²): finer changes are not a maker's concern."""
SUFFIXES = (".svg", ".json")


def _round(value: float) -> float:
    return round(value, DIGITS) + 0.0  # never -0.0


def _length(shape_geom: BaseGeometry, radius: float) -> float:
    if shape_geom.geom_type == "Point":
        return 2 * math.pi * radius
    if shape_geom.geom_type in ("Polygon", "MultiPolygon"):
        return float(shape_geom.boundary.length)
    return float(shape_geom.length)


def _layer_data(component: Component, layer: str) -> dict[str, Any]:
    shapes = component.shapes(layer)
    texts = [t for t in component.texts() if t.layer == layer]
    data: dict[str, Any] = {"shapes": len(shapes)}
    if texts:
        data["texts"] = len(texts)
    if layer in CUT_LAYERS and shapes:
        data["length_mm"] = _round(sum(_length(s.geom, s.radius) for s in shapes))
        data["area_mm2"] = _round(unary_union([enclosed(s) for s in shapes]).area)
    return data


def _holes(region: BaseGeometry) -> int:
    polys = getattr(region, "geoms", [region])
    return sum(len(p.interiors) for p in polys if isinstance(p, Polygon))


def component_data(component: Component) -> dict[str, Any]:
    """The fields a reviewer checks on a printed part, rounded so they change only when
    the part does."""
    region = part_region(component)
    data: dict[str, Any] = {
        "name": component.name,
        "title": component.title,
        "size_mm": [_round(component.width), _round(component.height)],
        "bleed_mm": _round(component.bleed),
        "imposition": component.imposition,
        "copies": component.copies,
        "back": component.back.name if component.back is not None else None,
        "layers": {
            layer: _layer_data(component, layer)
            for layer in LAYERS
            if any(i.layer == layer for i in component.items)
        },
        "cut_area_mm2": _round(region.area),
        "holes": _holes(region),
        "drill_marks": len(component.shapes("drill")),
        "texts": [t.text for t in component.texts()],
    }
    return data


_NUMBERS = re.compile(r"\[\s*((?:-?[\d.]+,?\s*)+)\]")


def data_text(data: dict[str, Any]) -> str:
    """The data file's text: one field a line (a size on one), so `git diff` reads well."""
    text = json.dumps(data, indent=1, ensure_ascii=False)
    return _NUMBERS.sub(lambda m: "[" + " ".join(m.group(1).split()) + "]", text) + "\n"


@dataclass(frozen=True)
class Part:
    """A printed part and its drawing."""

    component: Component
    svg: str


def places(game: GameDef) -> list[str]:
    """Where a game's golden files live under the folder: "<game>", "<game>/<variant>"..."""
    return [game.slug, *(f"{game.slug}/{v}" for v in game.variants)]


class KitParts:
    """The parts each place prints ("<game>" or "<game>/<variant>"), each kit built once,
    when first asked for: for A4, as the golden files are."""

    def __init__(self) -> None:
        self.parts = cache(self._parts)

    def _parts(self, where: str) -> dict[str, Part]:
        slug, _, variant = where.partition("/")
        values = dict(get_game(slug).variants[variant]) if variant else None
        kit = make_kit(slug, paper="a4", values=values)[1]
        own = {c.name: Part(c, component_svg(c)) for c in all_components(kit)}
        if not variant:
            return own
        default = self.parts(slug)
        return {n: p for n, p in own.items() if n not in default or default[n].svg != p.svg}


def on_record(folder: Path, where: str) -> set[str]:
    """The golden file names of one place (`board.svg`, `board.json`...)."""
    return {p.name for suffix in SUFFIXES for p in (folder / where).glob(f"*{suffix}")}


def write_part(folder: Path, where: str, name: str, part: Part) -> None:
    """One part's two golden files."""
    place = folder / where
    place.mkdir(parents=True, exist_ok=True)
    (place / f"{name}.svg").write_text(part.svg, encoding="utf-8")
    (place / f"{name}.json").write_text(data_text(component_data(part.component)), "utf-8")


def write_place(folder: Path, where: str, parts: dict[str, Part]) -> None:
    """A place's golden files, every part's written and those of parts gone removed."""
    wanted = {f"{n}{suffix}" for n in parts for suffix in SUFFIXES}
    for name, part in parts.items():
        write_part(folder, where, name, part)
    for stale in on_record(folder, where) - wanted:
        (folder / where / stale).unlink()


def write_golden(folder: Path, slug: str) -> Path:
    """Every golden file of a registered game, its variants' too: `<folder>/<slug>`."""
    kits = KitParts()
    for where in places(get_game(slug)):
        write_place(folder, where, kits.parts(where))
    return folder / slug
