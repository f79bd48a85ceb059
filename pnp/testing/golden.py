"""The golden checks (`pnp.reference.golden` keeps the files): every part of a game's kit renders to
the SVG on record and reads as the data on record, and its cut lines are where they were.

A change shows as the data fields that changed, whether the cut lines moved beyond a
tolerance (a tolerant XOR of the machine layers, so a change of art alone or a 1 µm
rounding is not taken for a change of what the laser cuts), and a side-by-side picture.
With `--update-golden` the checks write the files instead: review the diff in git.
"""

from __future__ import annotations

import difflib
import io
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageOps
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from pnp.draw.scene import CUT_LAYERS
from pnp.reference.golden import (
    SUFFIXES,
    KitParts,
    Part,
    component_data,
    on_record,
    write_part,
    write_place,
)
from pnp.testing.svg import svg_subpath_points

STROKE = 0.1
"""mm each side of a cut line: the band two cut lines are compared in."""
TOLERANCE = 0.02
"""mm: a cut line that moved less than this (rounding, float noise) is the same cut."""
UPDATE = "`pytest --update-golden` rewrites them (`make golden GAME=slug` in pnp's checkout)"


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
    """Per machine layer of an SVG written by pnp.draw.render.svg, its lines widened by STROKE
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
        out[layer] = round(xor.buffer(-TOLERANCE / 2).area, 2) + 0.0
    return out


# --- the picture -------------------------------------------------------------------------

PANEL = 600
"""px: the longer side of each panel of the side-by-side picture."""


def _raster(svg: str) -> Image.Image:
    import cairosvg

    match = re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"', svg)
    w, h = (float(match.group(1)), float(match.group(2))) if match else (1.0, 1.0)
    size = {"output_width": PANEL} if w >= h else {"output_height": PANEL}
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), background_color="white", **size)
    return Image.open(io.BytesIO(png)).convert("RGB")


def side_by_side(before_svg: str | None, after_svg: str | None, path: Path) -> Path:
    """Golden | now | where they differ (red over a faded now), as one PNG at `path`."""
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


# --- the checks, one a test ------------------------------------------------------------------


def golden_keys(folder: Path, slugs: Iterable[str]) -> list[str]:
    """The parts on record of these games, "<game>[/<variant>]/<part>", sorted."""
    return sorted(
        p.relative_to(folder).with_suffix("").as_posix()
        for slug in slugs
        for p in (folder / slug).rglob("*.svg")
    )


def check_place(folder: Path, where: str, kits: KitParts, update: bool) -> None:
    """A part with no file on record is unguarded; a file whose part is gone, a silent
    loss. Updating writes the first and removes the second."""
    parts = kits.parts(where)
    if "/" in where:
        assert parts, f"variant {where} prints the same kit as the default: it guards nothing"
    on_file = on_record(folder, where)
    wanted = {f"{n}{suffix}" for n in parts for suffix in SUFFIXES}
    if update:
        write_place(folder, where, parts)
        return
    assert sorted(wanted - on_file) == [], f"parts with no golden file: {UPDATE}"
    assert sorted(on_file - wanted) == [], f"golden files of no part: {UPDATE}"


def _part(folder: Path, key: str, kits: KitParts, update: bool) -> Part:
    where, _, name = key.rpartition("/")
    parts = kits.parts(where)
    if name not in parts:
        if update:
            pytest.skip(f"{key} is no part any more: its golden files are removed")
        pytest.fail(f"{key} is no part of the kit any more: {UPDATE}")
    if update:
        write_part(folder, where, name, parts[name])
    return parts[name]


def _picture(folder: Path, key: str, svg: str, pictures: Path) -> str:
    """The side-by-side PNG of the golden SVG and the current one: its path, to name."""
    path = pictures / f"{key}.png"
    side_by_side((folder / f"{key}.svg").read_text(encoding="utf-8"), svg, path)
    return f"side by side (golden | now | changed): {path}"


def check_svg(folder: Path, key: str, kits: KitParts, update: bool, pictures: Path) -> None:
    """The part renders byte for byte to its golden SVG."""
    part = _part(folder, key, kits, update)
    expected = (folder / f"{key}.svg").read_text(encoding="utf-8")
    if part.svg == expected:
        return
    diff = difflib.unified_diff(
        expected.splitlines(keepends=True),
        part.svg.splitlines(keepends=True),
        fromfile=f"golden/{key}.svg",
        tofile="now",
        n=1,
    )
    pytest.fail(
        f"{key} differs from its golden SVG ({UPDATE} after review)\n"
        f"{_picture(folder, key, part.svg, pictures)}\n{''.join(list(diff)[:60])}"
    )


def check_data(folder: Path, key: str, kits: KitParts, update: bool, pictures: Path) -> None:
    """Data regression: the fields a maker cares about, each change on a line."""
    part = _part(folder, key, kits, update)
    path = folder / f"{key}.json"
    assert path.exists(), f"no golden data {path}: {UPDATE}"
    changes = data_changes(json.loads(path.read_text("utf-8")), component_data(part.component))
    if changes:
        pytest.fail(
            f"{key}: {len(changes)} change(s) in its data ({UPDATE} after review)\n"
            f"{_picture(folder, key, part.svg, pictures)}\n" + "\n".join(changes)
        )


def check_cuts(folder: Path, key: str, kits: KitParts, update: bool, pictures: Path) -> None:
    """What the laser cuts: the machine layers' lines, compared as geometry so that art or
    rounding changes alone do not count."""
    part = _part(folder, key, kits, update)
    expected = (folder / f"{key}.svg").read_text(encoding="utf-8")
    if part.svg == expected:
        return
    moved = {layer: area for layer, area in cut_xor(expected, part.svg).items() if area > 0}
    if moved:
        areas = ", ".join(f"{layer} {area:g} mm²" for layer, area in moved.items())
        pytest.fail(
            f"{key}: cut lines differ from the golden SVG beyond tolerance ({areas})\n"
            f"{_picture(folder, key, part.svg, pictures)}"
        )
