"""Basic shapes in millimetres: rounded rectangles, arrows, colour symbols, kerf offsets."""

from __future__ import annotations

import math

from shapely import affinity
from shapely.geometry import MultiPolygon, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from geometry.curves import Curve, CurveError, circle_path, rounded_rect_path

ARC_RESOLUTION = 16  # segments per quarter circle: smooth at print size, small files
SEAM = 1e-6
"""mm: gaps and overlaps this thin between parts meant to meet are floating-point noise
(a thousandth of a micron; no printer or cutter sees it), closed by `polygon_of`."""
SLIVER = 1e-6
"""mm^2: pieces and holes smaller than this left by a polygon operation are noise, dropped."""


def polygon_of(geom: BaseGeometry, what: str = "shape") -> Polygon:
    """The one polygon an operation on polygons (union, difference, intersection, buffer)
    was meant to make, whatever floating-point noise did to its type.

    Two spaces that share an edge may not merge when their computed corners differ in the
    last bit, and a cut through a vertex may leave a sliver: the result is then a
    MultiPolygon (or a collection) although the shape is one piece, and code reading its
    `.exterior` fails for one size in twenty. A clean polygon comes back unchanged;
    otherwise seams thinner than `SEAM` are closed (grown and shrunk back with mitred
    corners, which keeps straight edges and corners) and pieces and holes smaller than
    `SLIVER` dropped. A shape that is still in several real pieces raises ValueError."""
    if isinstance(geom, Polygon) and not geom.is_empty and _clean(geom):
        return geom
    closed = geom.buffer(SEAM, join_style="mitre").buffer(-SEAM, join_style="mitre")
    parts = [
        Polygon(p.exterior, [h for h in p.interiors if Polygon(h).area >= SLIVER])
        for p in _polygons(closed)
        if p.area >= SLIVER
    ]
    if len(parts) != 1:
        raise ValueError(f"the {what} is {len(parts)} separate pieces, not one")
    return parts[0]


def union_of(parts: list[BaseGeometry], what: str = "shape") -> Polygon:
    """The union of polygons that together make one piece (board spaces, a die's faces)."""
    return polygon_of(unary_union(parts), what)


def _clean(poly: Polygon) -> bool:
    return all(Polygon(h).area >= SLIVER for h in poly.interiors)


def _polygons(geom: BaseGeometry) -> list[Polygon]:
    if isinstance(geom, Polygon):
        return [] if geom.is_empty else [geom]
    if isinstance(geom, MultiPolygon) or hasattr(geom, "geoms"):
        return [p for g in geom.geoms for p in _polygons(g)]
    return []


def rounded_rect(x: float, y: float, w: float, h: float, r: float) -> Polygon:
    """Axis-aligned rectangle with corner radius r (r=0 gives sharp corners), flattened
    from its true curve (`rounded_rect_curve`)."""
    if w <= 0 or h <= 0:
        raise ValueError(f"rectangle needs positive size, got {w} x {h}")
    if min(r, w / 2, h / 2) <= 0:
        return box(x, y, x + w, y + h)
    return rounded_rect_curve(x, y, w, h, r).polygon()


def rounded_rect_curve(x: float, y: float, w: float, h: float, r: float) -> Curve:
    """The rounded rectangle as lines and quarter arcs, for renderers to draw as arcs."""
    return Curve((rounded_rect_path(x, y, w, h, r),))


def centred_rounded_rect(cx: float, cy: float, w: float, h: float, r: float) -> Polygon:
    return rounded_rect(cx - w / 2, cy - h / 2, w, h, r)


def centred_rounded_rect_curve(cx: float, cy: float, w: float, h: float, r: float) -> Curve:
    return rounded_rect_curve(cx - w / 2, cy - h / 2, w, h, r)


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
    """A colour's symbol, fitting a `size` x `size` box: shapes stay distinct in greyscale.

    Always one Polygon (callers draw its `.exterior`), whatever the size."""
    return polygon_of(_symbol(kind, cx, cy, size), f"{kind} symbol")


def symbol_curve(kind: str, cx: float, cy: float, size: float) -> Curve | None:
    """The symbol's true curve where it is made of circles (a disc, a ring), else None."""
    s = size / 2
    if kind == "circle":
        return Curve((circle_path(cx, cy, s * 0.92),))
    if kind == "ring":
        return Curve((circle_path(cx, cy, s * 0.92), circle_path(cx, cy, s * 0.5)))
    return None


def _symbol(kind: str, cx: float, cy: float, size: float) -> BaseGeometry:
    s = size / 2
    if kind in ("circle", "ring"):
        curve = symbol_curve(kind, cx, cy, size)
        assert curve is not None
        return curve.polygon()
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
        return affinity.rotate(_symbol("cross", cx, cy, size * 0.95), 45, origin=(cx, cy))
    if kind == "pentagon":
        return regular_polygon(cx, cy - s * 0.05, s * 0.98, 5)
    if kind == "half-disc":
        disc = Point(cx, cy - s * 0.3).buffer(s * 0.92, quad_segs=ARC_RESOLUTION)
        return disc.intersection(box(cx - s, cy - s * 0.3, cx + s, cy + s))
    if kind == "triangle-down":
        return affinity.rotate(_symbol("triangle", cx, cy, size), 180, origin=(cx, cy))
    if kind == "crescent":
        disc = Point(cx, cy).buffer(s * 0.92, quad_segs=ARC_RESOLUTION)
        return disc.difference(Point(cx + s * 0.45, cy + s * 0.2).buffer(s * 0.75))
    raise ValueError(f"unknown symbol {kind!r}")


def kerf_offset(geom: BaseGeometry, kerf: float, outward: bool = True) -> BaseGeometry:
    """Offset a cut so the finished part keeps its size: outlines grow, holes shrink.

    The blade removes `kerf` of material centred on its path, so the path moves by kerf/2.
    This is the offset of a part drawn with straight edges (a hexagon, an octagon, a die
    net): every edge moves kerf/2 and neighbouring edges meet in a mitre, so the path has
    the part's own corners (6 for a hexagon), each kept sharp, and tiles that meet edge
    to edge still meet. A part with true curves is offset as a curve
    (`kerf_offset_curve`); this is its fallback, on the flattened outline.
    """
    if kerf <= 0:
        return geom
    d = kerf / 2 if outward else -kerf / 2
    return geom.buffer(d, join_style="mitre")


def kerf_offset_curve(curve: Curve, kerf: float, outward: bool = True) -> Curve | None:
    """The kerf offset of a true curve, as a curve: an outline's arcs grow by kerf/2
    about the same centres and a sharp corner between its lines gains an arc of radius
    kerf/2 (the blade turns round the corner, which stays sharp); a hole's arcs shrink
    by kerf/2. None when the shape needs trimming the exact offset does not do (then
    `kerf_offset` it)."""
    if kerf <= 0:
        return curve
    try:
        return curve.offset_area(kerf / 2 if outward else -kerf / 2)
    except CurveError:
        return None
