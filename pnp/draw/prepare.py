"""Machine preparation: scene-to-scene passes that turn drawn parts into what a cutter follows.

Each pass is a `Component -> Component` function (vpype's pipeline idea), and `prepare`
runs a machine's passes in one fixed order before any cut file is written, so the SVG cut
sheets, their DXF twins and the per-part DXF files cannot disagree on the cut geometry:
renderers draw what they are given and know nothing of kerf or shared edges.

1. kerf: the blade removes `kerf` mm centred on its path, so `cut` outlines move outward
   and `inner-cut` holes inward by kerf/2 and the finished part keeps its drawn size.
   Score and drill marks are not cut through and stay where they are; open cut lines
   enclose nothing and stay too.
2. common lines (cut sheets, on request): two parts edge to edge share a straight cut,
   cut once. It runs after the kerf, so the shared line is the blade path both parts
   need (cut sheets nest such parts on their kerf-offset outlines, which then meet).
3. hairline: cut and inner-cut strokes drawn as the hairline a laser reads as "cut"
   (anything wider it may engrave), in the shop's colour when one is given.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np
import shapely
from shapely.geometry import LineString, MultiLineString, Polygon
from shapely.geometry.base import BaseGeometry

from geometry.shapes import kerf_offset, kerf_offset_curve
from pnp.draw.scene import CUT_STYLE, Component, Item, Shape, check_layer_colours, machine_style

Pass = Callable[[Component], Component]
"""One preparation step: a component in, a new component out (the input is left alone)."""
Segment = tuple[tuple[float, float], tuple[float, float]]

KERF_LAYERS: tuple[str, ...] = ("cut", "inner-cut")
"""Layers the blade cuts through: the ones the kerf moves and the hairline styles."""
CUT_HAIRLINE = CUT_STYLE.stroke_width
"""The stroke width (mm) a laser reads as a cut line."""
COMMON_LINE_TOL = 0.01
"""Two cut segments this close (mm) on one line are one shared edge."""


@dataclass(frozen=True)
class Machine:
    """How the cutter is set up: kerf (mm), common-line cutting (cut sheets only) and the
    colours a shop maps its machine layers to."""

    kerf: float = 0.0
    common_line: bool = False
    colours: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not (math.isfinite(self.kerf) and self.kerf >= 0):
            raise ValueError(f"kerf must not be negative, got {self.kerf}")
        check_layer_colours(dict(self.colours))

    def passes(self) -> tuple[Pass, ...]:
        """The pipeline, in the order the passes must run."""
        steps: list[Pass] = [partial(with_kerf, kerf=self.kerf)]
        if self.common_line:
            steps.append(merge_common_lines)
        steps.append(partial(hairline, colours=self.colours))
        return tuple(steps)


AS_DRAWN = Machine()
"""No kerf and no common lines: parts are cut on their drawn outlines."""


def prepare(component: Component, machine: Machine) -> Component:
    """The component as this machine cuts it: every pass of its pipeline, in order."""
    for step in machine.passes():
        component = step(component)
    return component


# --- Kerf ------------------------------------------------------------------------------


def with_kerf(component: Component, kerf: float) -> Component:
    """The component with its cut paths moved by kerf/2 (outlines out, holes in)."""
    if kerf < 0:
        raise ValueError(f"kerf must not be negative, got {kerf}")
    if kerf == 0:
        return component
    return replace(component, items=[_offset(it, kerf) for it in component.items])


def _offset(item: Item, kerf: float) -> Item:
    if not isinstance(item, Shape) or item.layer not in KERF_LAYERS:
        return item
    outward = item.layer == "cut"
    geom = item.geom
    if item.curve is not None and (_is_closed_ring(geom) or geom.geom_type == "Polygon"):
        curve = kerf_offset_curve(item.curve, kerf, outward=outward)
        if curve is not None:  # offset as a curve: arcs keep their centres
            geom = curve.polygon() if geom.geom_type == "Polygon" else curve.ring()
            return replace(item, geom=geom, curve=curve)
    if _is_closed_ring(geom):  # a card's rounded trim is a ring: offset it as the area
        geom = kerf_offset(Polygon(geom.coords), kerf, outward=outward).exterior
    elif geom.geom_type in ("Polygon", "MultiPolygon"):
        geom = kerf_offset(geom, kerf, outward=outward)
    radius = item.radius
    if radius > 0:
        radius = radius + kerf / 2 if outward else radius - kerf / 2
    return replace(item, geom=geom, radius=radius, curve=None)


def _is_closed_ring(geom: BaseGeometry) -> bool:
    kind = geom.geom_type
    return kind == "LinearRing" or (
        kind == "LineString" and geom.is_closed and len(geom.coords) > 3
    )


# --- Hairline --------------------------------------------------------------------------


def hairline(
    component: Component, width: float = CUT_HAIRLINE, colours: Mapping[str, str] | None = None
) -> Component:
    """Cut and inner-cut strokes `width` wide; machine layers in the shop's `colours`."""
    overrides = check_layer_colours(dict(colours or {}))
    items = [_styled(it, width, overrides) for it in component.items]
    if all(a is b for a, b in zip(items, component.items, strict=True)):
        return component
    return replace(component, items=items)


def _styled(item: Item, width: float, colours: dict[str, str]) -> Item:
    if not isinstance(item, Shape):
        return item
    style = machine_style(item.style, colours.get(item.layer), None)
    if item.layer in KERF_LAYERS and style.stroke is not None and style.stroke_width != width:
        style = replace(style, stroke_width=width)
    return item if style is item.style else replace(item, style=style)


# --- Common-line cutting -----------------------------------------------------------------


def merge_common_lines(sheet: Component, tol: float = COMMON_LINE_TOL) -> Component:
    """The sheet with each straight cut shared by touching parts cut once, not twice.

    Two cut segments that lie on one line (within `tol` mm) and overlap are a shared edge:
    the earlier outline keeps it, the later one loses that stretch and becomes open lines
    covering the rest of its outline. Outlines sharing nothing, and circles, stay as they
    are. `meta['common_line_saved']` records the cut length saved (mm).
    """
    cuts = [
        (i, s)
        for i, s in enumerate(sheet.items)
        if isinstance(s, Shape) and s.layer == "cut" and s.radius == 0 and not s.geom.is_empty
    ]
    segments = [(k, seg) for k, (_, s) in enumerate(cuts) for seg in _segments(s.geom)]
    lines = np.array([LineString(seg) for _, seg in segments], dtype=object)  # may be empty
    near = shapely.STRtree(lines).query(lines, predicate="dwithin", distance=tol)
    covered: dict[int, list[tuple[float, float]]] = {}
    for a, b in zip(*near, strict=True):
        if segments[b][0] < segments[a][0]:  # the later outline gives up the shared stretch
            span = _overlap(segments[a][1], segments[b][1], tol)
            if span is not None:
                covered.setdefault(int(a), []).append(span)
    if not covered:
        return replace(sheet, items=list(sheet.items), meta=dict(sheet.meta, common_line_saved=0.0))
    losing = sorted({segments[a][0] for a in covered})
    rest: dict[int, list[LineString]] = {k: [] for k in losing}
    for n, (k, seg) in enumerate(segments):
        if k in rest:
            rest[k].extend(_uncovered(seg, covered.get(n, []), tol))
    replaced = {cuts[k][0]: k for k in losing}
    items: list[Item] = []
    for i, item in enumerate(sheet.items):
        if i not in replaced:
            items.append(item)
            continue
        k = replaced[i]
        if rest[k]:  # an outline shared all round is cut by its neighbours alone
            merged = shapely.line_merge(MultiLineString(rest[k]))
            items.extend(cuts[k][1].flattened(g) for g in shapely.get_parts(merged))
    saved = sum(hi - lo for spans in covered.values() for lo, hi in _union(spans))
    return replace(sheet, items=items, meta=dict(sheet.meta, common_line_saved=saved))


def linework(geom: BaseGeometry) -> BaseGeometry:
    """The lines a blade follows: polygon boundaries, rings and lines as they are."""
    if geom.geom_type in ("Polygon", "MultiPolygon"):
        return geom.boundary
    return geom


def _segments(geom: BaseGeometry) -> list[Segment]:
    """Every straight stretch a blade follows along a shape, in drawing order."""
    out: list[Segment] = []
    for line in shapely.get_parts(linework(geom)):
        xy = [(float(x), float(y)) for x, y in shapely.get_coordinates(line)]
        out.extend((p, q) for p, q in itertools.pairwise(xy) if p != q)
    return out


def _overlap(seg: Segment, other: Segment, tol: float) -> tuple[float, float] | None:
    """The stretch of `seg` (mm from its start) that `other` runs along, if longer than tol."""
    (x0, y0), (x1, y1) = seg
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    along = []
    for qx, qy in other:
        if abs(ux * (qy - y0) - uy * (qx - x0)) > tol:  # off the line
            return None
        along.append(ux * (qx - x0) + uy * (qy - y0))
    lo, hi = max(0.0, min(along)), min(length, max(along))
    return (lo, hi) if hi - lo > tol else None


def _union(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for lo, hi in sorted(spans):
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def _uncovered(seg: Segment, spans: list[tuple[float, float]], tol: float) -> list[LineString]:
    """What is left of a segment once the shared stretches are taken out (none under tol)."""
    (x0, y0), (x1, y1) = seg
    length = math.hypot(x1 - x0, y1 - y0)
    cuts, start = [], 0.0
    for lo, hi in [*_union(spans), (length, length)]:
        if lo - start > tol:
            cuts.append((start, lo))
        start = max(start, hi)

    def at(d: float) -> tuple[float, float]:
        if d >= length:  # the true end, so pieces of one outline still join exactly
            return (x1, y1)
        return (x0 + (x1 - x0) * d / length, y0 + (y1 - y0) * d / length)

    return [LineString([at(a), at(b)]) for a, b in cuts]
