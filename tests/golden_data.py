"""What a reviewer reads when a golden file changes: a component's data, the changed fields,
a tolerant XOR of its cut layers and a side-by-side picture.

The data file (`<part>.json` beside `<part>.svg`) says in a few lines what matters to a
maker: size, layers, cut length and area, holes, texts. A change to it reads as "cut
length 812.4 -> 815.1 mm", not as a thousand-line SVG diff (gdsfactory's data regression).
The XOR compares cut lines as drawn in the two SVGs, so a change of art alone, or a 1 µm
rounding, is not mistaken for a change of what the laser cuts.
"""

from __future__ import annotations

import io
import json
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cut_geometry import svg_subpath_points
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from pnp.checks import part_region
from pnp.scene import CUT_LAYERS, LAYERS, Component, enclosed

DIGITS = 2
"""Lengths and areas are recorded to 0.01 mm (mm²): finer changes are not a maker's concern."""
STROKE = 0.1
"""mm each side of a cut line: the band two cut lines are compared in."""
TOLERANCE = 0.02
"""mm: a cut line that moved less than this (rounding, float noise) is the same cut."""


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


def _flat(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _flat(item, f"{path}.{key}" if path else str(key))
    else:
        yield path, value


def data_changes(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """The fields that changed, one readable line each (texts as lines gone and added)."""
    before, after = dict(_flat(expected)), dict(_flat(actual))
    lines = []
    for key in [*before, *(k for k in after if k not in before)]:
        old, new = before.get(key, "(none)"), after.get(key, "(none)")
        if old == new:
            continue
        if isinstance(old, list) and isinstance(new, list) and key.endswith("texts"):
            gone = [t for t in old if t not in new]
            added = [t for t in new if t not in old]
            lines += [f"{key}: - {t!r}" for t in gone] + [f"{key}: + {t!r}" for t in added]
            if not gone and not added:
                lines.append(f"{key}: same lines in another order or count")
        else:
            lines.append(f"{key}: {json.dumps(old)} -> {json.dumps(new)}")
    return lines


# --- cut lines as drawn in an SVG ---------------------------------------------------------

_SVG = "{http://www.w3.org/2000/svg}"
_LABEL = "{http://www.inkscape.org/namespaces/inkscape}label"


def _subpaths(d: str) -> Iterator[tuple[list[tuple[float, float]], bool]]:
    """pnp's path data: `Mx,y Lx,y Ar,r 0 f f x,y ... [Z]` runs, as (points, closed), arcs
    followed as SVG draws them."""
    for run in re.split(r"(?=M)", d.strip()):
        pts = svg_subpath_points(run)[0] if run else []
        if pts:
            yield pts, run.rstrip().endswith("Z")


def cut_bands(svg: str) -> dict[str, BaseGeometry]:
    """Per machine layer of an SVG written by pnp.render.svg, its lines widened by STROKE
    each side: the ink a cutter would follow."""
    root = ET.fromstring(svg.encode("utf-8"))
    out: dict[str, BaseGeometry] = {}
    for group in root.iter(f"{_SVG}g"):
        layer = group.get(_LABEL, "")
        if layer not in CUT_LAYERS:
            continue
        bands: list[BaseGeometry] = []
        for el in group:
            if el.tag == f"{_SVG}circle":
                centre = Point(float(el.get("cx", 0)), float(el.get("cy", 0)))
                bands.append(centre.buffer(float(el.get("r", 0))).exterior.buffer(STROKE))
            elif el.tag == f"{_SVG}path":
                for pts, closed in _subpaths(el.get("d", "")):
                    ends = pts + pts[:1] if closed or len(pts) == 1 else pts
                    bands.append(LineString(ends).buffer(STROKE))
        out[layer] = unary_union(bands)
    return out


def cut_xor(before_svg: str, after_svg: str) -> dict[str, float]:
    """Per machine layer, the area (mm²) where the cut lines of the two SVGs differ by more
    than TOLERANCE: their symmetric difference with every sliver thinner than it removed."""
    before, after = cut_bands(before_svg), cut_bands(after_svg)
    out = {}
    for layer in CUT_LAYERS:
        if layer not in before and layer not in after:
            continue
        empty = Polygon()
        xor = before.get(layer, empty).symmetric_difference(after.get(layer, empty))
        out[layer] = _round(xor.buffer(-TOLERANCE / 2).area)
    return out


# --- the picture -------------------------------------------------------------------------

PANEL = 600
"""px: the longer side of each panel of the side-by-side picture."""


def _raster(svg: str):  # -> PIL.Image.Image
    import cairosvg
    from PIL import Image

    match = re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"', svg)
    w, h = (float(match.group(1)), float(match.group(2))) if match else (1.0, 1.0)
    size = {"output_width": PANEL} if w >= h else {"output_height": PANEL}
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), background_color="white", **size)
    return Image.open(io.BytesIO(png)).convert("RGB")


def side_by_side(before_svg: str | None, after_svg: str | None, path: Path) -> Path:
    """Golden | now | where they differ (red over a faded now), as one PNG at `path`."""
    from PIL import Image, ImageChops, ImageDraw, ImageOps

    blank = Image.new("RGB", (PANEL, PANEL), "white")
    before = _raster(before_svg) if before_svg else blank
    after = _raster(after_svg) if after_svg else blank
    w, h = max(before.width, after.width), max(before.height, after.height)
    before, after = (ImageOps.pad(i, (w, h), color="white") for i in (before, after))
    mask = ImageChops.difference(before, after).convert("L").point(lambda v: 255 if v > 16 else 0)
    changed = Image.blend(after, Image.new("RGB", (w, h), "white"), 0.75)
    changed.paste(Image.new("RGB", (w, h), "#d00000"), mask=mask)
    label = 24
    sheet = Image.new("RGB", (3 * w + 20, h + label), "white")
    draw = ImageDraw.Draw(sheet)
    for i, (title, image) in enumerate((("golden", before), ("now", after), ("changed", changed))):
        x = i * (w + 10)
        sheet.paste(image, (x, label))
        draw.text((x + 4, 4), title, fill="black")
    path.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(path)
    return path
