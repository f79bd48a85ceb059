"""Basic shapes in millimetres: rounded rectangles, arrows, colour symbols, kerf offsets."""

from __future__ import annotations

import math

from shapely import affinity
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry

ARC_RESOLUTION = 16  # segments per quarter circle: smooth at print size, small files


def rounded_rect(x: float, y: float, w: float, h: float, r: float) -> Polygon:
    """Axis-aligned rectangle with corner radius r (r=0 gives sharp corners)."""
    if w <= 0 or h <= 0:
        raise ValueError(f"rectangle needs positive size, got {w} x {h}")
    r = max(0.0, min(r, w / 2, h / 2))
    if r == 0:
        return box(x, y, x + w, y + h)
    inner = box(x + r, y + r, x + w - r, y + h - r)
    if inner.area == 0:  # a stadium: buffer of a line
        return inner.buffer(r, quad_segs=ARC_RESOLUTION)
    return inner.buffer(r, quad_segs=ARC_RESOLUTION)


def centred_rounded_rect(cx: float, cy: float, w: float, h: float, r: float) -> Polygon:
    return rounded_rect(cx - w / 2, cy - h / 2, w, h, r)


def regular_polygon(
    cx: float, cy: float, radius: float, sides: int, rotation: float = 90.0
) -> Polygon:
    """Regular polygon with circumradius `radius`; first vertex at `rotation` degrees."""
    pts = [
        (
            cx + radius * math.cos(math.radians(rotation + 360 * k / sides)),
            cy + radius * math.sin(math.radians(rotation + 360 * k / sides)),
        )
        for k in range(sides)
    ]
    return Polygon(pts)


def star(cx: float, cy: float, outer: float, inner: float, points: int = 5) -> Polygon:
    pts = []
    for k in range(2 * points):
        r = outer if k % 2 == 0 else inner
        a = math.radians(90 + 180 * k / points)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return Polygon(pts)


def arrow(cx: float, cy: float, length: float, width: float, angle: float) -> Polygon:
    """A block arrow centred on (cx, cy) pointing at `angle` degrees (0 = +x)."""
    head = min(length * 0.55, width * 1.1)
    shaft_w = width * 0.42
    x0 = -length / 2
    xh = length / 2 - head
    pts = [
        (x0, -shaft_w / 2),
        (xh, -shaft_w / 2),
        (xh, -width / 2),
        (length / 2, 0),
        (xh, width / 2),
        (xh, shaft_w / 2),
        (x0, shaft_w / 2),
    ]
    poly = Polygon(pts)
    poly = affinity.rotate(poly, angle, origin=(0, 0))
    return affinity.translate(poly, cx, cy)


SYMBOLS: tuple[str, ...] = (
    "circle",
    "triangle",
    "square",
    "diamond",
    "star",
    "hexagon",
    "cross",
    "saltire",
    "ring",
    "pentagon",
    "half-disc",
    "triangle-down",
    "crescent",
)


def symbol(kind: str, cx: float, cy: float, size: float) -> Polygon:
    """A colour's symbol, fitting a `size` x `size` box: shapes stay distinct in greyscale."""
    s = size / 2
    if kind == "circle":
        return Point(cx, cy).buffer(s * 0.92, quad_segs=ARC_RESOLUTION)
    if kind == "triangle":
        tri = regular_polygon(cx, cy, s * 1.1, 3)
        return affinity.translate(tri, 0, -s * 0.22)
    if kind == "square":
        return box(cx - s * 0.8, cy - s * 0.8, cx + s * 0.8, cy + s * 0.8)
    if kind == "diamond":
        return Polygon([(cx, cy + s), (cx + s * 0.8, cy), (cx, cy - s), (cx - s * 0.8, cy)])
    if kind == "star":
        return star(cx, cy, s, s * 0.45)
    if kind == "hexagon":
        return regular_polygon(cx, cy, s, 6, rotation=0)
    if kind == "cross":
        t = s * 0.36
        return box(cx - s, cy - t, cx + s, cy + t).union(box(cx - t, cy - s, cx + t, cy + s))
    if kind == "saltire":
        return affinity.rotate(symbol("cross", cx, cy, size * 0.95), 45, origin=(cx, cy))
    if kind == "ring":
        disc = Point(cx, cy).buffer(s * 0.92, quad_segs=ARC_RESOLUTION)
        return disc.difference(Point(cx, cy).buffer(s * 0.5, quad_segs=ARC_RESOLUTION))
    if kind == "pentagon":
        return regular_polygon(cx, cy - s * 0.05, s * 0.98, 5)
    if kind == "half-disc":
        disc = Point(cx, cy - s * 0.3).buffer(s * 0.92, quad_segs=ARC_RESOLUTION)
        return disc.intersection(box(cx - s, cy - s * 0.3, cx + s, cy + s))
    if kind == "triangle-down":
        return affinity.rotate(symbol("triangle", cx, cy, size), 180, origin=(cx, cy))
    if kind == "crescent":
        disc = Point(cx, cy).buffer(s * 0.92, quad_segs=ARC_RESOLUTION)
        return disc.difference(Point(cx + s * 0.45, cy + s * 0.2).buffer(s * 0.75))
    raise ValueError(f"unknown symbol {kind!r}")


def kerf_offset(geom: BaseGeometry, kerf: float, outward: bool = True) -> BaseGeometry:
    """Offset a cut so the finished part keeps its size: outlines grow, holes shrink.

    The blade removes `kerf` of material centred on its path, so the path moves by kerf/2.
    """
    if kerf <= 0:
        return geom
    d = kerf / 2 if outward else -kerf / 2
    return geom.buffer(
        d, quad_segs=ARC_RESOLUTION, join_style="mitre" if _is_boxy(geom) else "round"
    )


def _is_boxy(geom: BaseGeometry) -> bool:
    return geom.geom_type == "Polygon" and len(geom.exterior.coords) == 5
