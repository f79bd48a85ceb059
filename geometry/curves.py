"""True curves: outlines made of straight lines and circular arcs, kept as arcs.

A path is a list of vertices `(x, y, bulge)`, the form a DXF LWPOLYLINE takes: the bulge
says how the stretch from a vertex to the next one bends, `tan(sweep / 4)` (0 straight,
1 a half circle turning counter-clockwise, negative clockwise). A centre, radius and
angles follow from it exactly, so a card's rounded corner or a pivot hole reaches a DXF,
an SVG, a PDF and a LightBurn file as the arc it is, not as 16 chords per quarter.

Shapely stays the tool for every check: `Curve.polygon` and friends flatten the arcs
here and nowhere else, with chords no further than `FLAT_TOL` from the true arc (far
below any check's tolerance) and never coarser than `MIN_QUARTER_SEGMENTS` a quarter.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from shapely.geometry import LinearRing, LineString, Polygon

FLAT_TOL = 0.001
"""mm: the furthest a flattened chord strays from its arc (1 µm)."""
MIN_QUARTER_SEGMENTS = 16
"""Chords per quarter circle at least, so a tiny arc is as smooth as before curves."""
CUBIC_SPAN = math.pi / 4
"""Radians: the widest arc one cubic Bézier stands for (an eighth of a circle)."""
TANGENT_TOL = 1e-7
"""mm: two offset ends this close are one point (the path was smooth there)."""

Point2 = tuple[float, float]
Vertex = tuple[float, float, float]
Cubic = tuple[Point2, Point2, Point2, Point2]


class CurveError(ValueError):
    """A curve operation this module does not do exactly (callers fall back to shapely)."""


@dataclass(frozen=True)
class Arc:
    """One arc of a path: centre, radius, start and end angles (degrees), turning
    counter-clockwise from start to end when `ccw`."""

    cx: float
    cy: float
    r: float
    start: float
    end: float
    ccw: bool

    @property
    def sweep(self) -> float:
        """Degrees swept, positive counter-clockwise."""
        d = (self.end - self.start) % 360.0
        if d == 0.0:
            d = 360.0
        return d if self.ccw else d - 360.0


def arc_of(p: Point2, q: Point2, bulge: float) -> Arc:
    """The arc from p to q with this bulge (not 0): centre, radius and angles."""
    (x0, y0), (x1, y1) = p, q
    dx, dy = x1 - x0, y1 - y0
    chord = math.hypot(dx, dy)
    if chord == 0 or bulge == 0:
        raise CurveError("an arc needs two distinct ends and a bulge")
    r = chord * (1 + bulge * bulge) / (4 * abs(bulge))
    # the centre sits on the chord's perpendicular bisector, sagitta-distance from the arc
    h = chord * (1 - bulge * bulge) / (4 * bulge)  # signed distance, left of p->q
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    cx, cy = mx - h * dy / chord, my + h * dx / chord
    a0 = math.degrees(math.atan2(y0 - cy, x0 - cx))
    a1 = math.degrees(math.atan2(y1 - cy, x1 - cx))
    return Arc(cx, cy, r, a0, a1, bulge > 0)


def _arc_points(p: Point2, q: Point2, bulge: float, tol: float) -> list[Point2]:
    """Points along the arc from p (excluded) to q (included), chords within `tol`."""
    arc = arc_of(p, q, bulge)
    sweep = 4 * math.atan(bulge)  # radians, signed
    step = 2 * math.acos(max(-1.0, 1 - tol / arc.r)) if tol < arc.r else math.pi / 2
    step = min(step, math.pi / (2 * MIN_QUARTER_SEGMENTS))
    n = max(1, math.ceil(abs(sweep) / step - 1e-9))
    a0 = math.atan2(p[1] - arc.cy, p[0] - arc.cx)
    pts = [
        (
            arc.cx + arc.r * math.cos(a0 + sweep * k / n),
            arc.cy + arc.r * math.sin(a0 + sweep * k / n),
        )
        for k in range(1, n)
    ]
    pts.append(q)
    return pts


def cubics(p: Point2, q: Point2, bulge: float) -> list[Cubic]:
    """The arc as cubic Bézier pieces of at most `CUBIC_SPAN` each (PDF, LightBurn): each
    piece's control points sit `4/3 tan(θ/4)` radii along the tangents, the standard fit.
    Its furthest stray is 0.027 % of the radius for a quarter circle but 4 millionths
    for an eighth, under 1 µm for any radius up to 200 mm."""
    arc = arc_of(p, q, bulge)
    sweep = 4 * math.atan(bulge)
    n = max(1, math.ceil(abs(sweep) / CUBIC_SPAN - 1e-9))
    piece = sweep / n
    k = 4 / 3 * math.tan(piece / 4)
    a = math.atan2(p[1] - arc.cy, p[0] - arc.cx)
    out: list[Cubic] = []
    start = p
    for i in range(n):
        b = a + piece
        end = q if i == n - 1 else (arc.cx + arc.r * math.cos(b), arc.cy + arc.r * math.sin(b))
        c1 = (start[0] - k * arc.r * math.sin(a), start[1] + k * arc.r * math.cos(a))
        c2 = (end[0] + k * arc.r * math.sin(b), end[1] - k * arc.r * math.cos(b))
        out.append((start, c1, c2, end))
        start, a = end, b
    return out


@dataclass(frozen=True)
class Path:
    """One outline or line of lines and arcs; a closed path returns to its first vertex
    (the last vertex's bulge bends that closing stretch). An open path's last bulge is 0."""

    vertices: tuple[Vertex, ...]
    closed: bool = True

    def segments(self) -> Iterator[tuple[Point2, Point2, float]]:
        """(from, to, bulge) for every stretch, the closing one included."""
        vs = self.vertices
        n = len(vs) if self.closed else len(vs) - 1
        for i in range(n):
            x0, y0, b = vs[i]
            x1, y1, _ = vs[(i + 1) % len(vs)]
            yield (x0, y0), (x1, y1), b

    def arcs(self) -> list[Arc]:
        return [arc_of(p, q, b) for p, q, b in self.segments() if b != 0]

    def coords(self, tol: float = FLAT_TOL) -> list[Point2]:
        """The flattened path; a closed one ends on its first point again."""
        x, y, _ = self.vertices[0]
        pts: list[Point2] = [(x, y)]
        for p, q, b in self.segments():
            if b == 0:
                pts.append(q)
            else:
                pts.extend(_arc_points(p, q, b, tol))
        return pts

    def signed_area(self) -> float:
        """The enclosed area (mm², exact for arcs), positive when counter-clockwise."""
        total = 0.0
        for (x0, y0), (x1, y1), b in self.segments():
            total += (x0 * y1 - x1 * y0) / 2
            if b != 0:  # the circular segment between chord and arc
                arc = arc_of((x0, y0), (x1, y1), b)
                theta = 4 * math.atan(b)
                total += arc.r * arc.r * (theta - math.sin(theta)) / 2
        return total

    def reversed(self) -> Path:
        vs = self.vertices
        if not self.closed:
            out = [(x, y, -vs[i - 1][2] if i > 0 else 0.0) for i, (x, y, _) in enumerate(vs)]
            return Path(tuple(reversed(out)), False)
        n = len(vs)
        # walking backwards, the stretch from vertex i to i-1 bends as -bulge(i-1)
        out = [(vs[i][0], vs[i][1], -vs[(i - 1) % n][2]) for i in range(n)]
        return Path(tuple([out[0], *reversed(out[1:])]), True)

    def affine(self, m: Sequence[float]) -> Path:
        """The path under a shapely-style matrix [a, b, d, e, xoff, yoff] that keeps
        circles circles (turns, moves, mirrors, one scale); a mirror flips every bulge."""
        a, b, d, e, xo, yo = m
        if abs(a * a + d * d - (b * b + e * e)) > 1e-9 or abs(a * b + d * e) > 1e-9:
            raise CurveError("a stretch or shear turns arcs into ellipses")
        sign = 1.0 if a * e - b * d > 0 else -1.0
        vs = tuple((a * x + b * y + xo, d * x + e * y + yo, sign * w) for x, y, w in self.vertices)
        return Path(vs, self.closed)

    def offset(self, dist: float) -> Path:
        """The closed path moved `dist` mm outward (negative: inward), exactly: lines
        shift along their normals, arcs keep their centres and change radius, and a
        convex corner grows an arc of radius `dist` round it (shapely's round join).
        Raises CurveError where the offset would need trimming (a concave corner, an
        arc shrunk to nothing): callers then fall back to a flattened buffer."""
        if not self.closed:
            raise CurveError("only a closed outline has an outward side")
        ring = self if self.signed_area() > 0 else self.reversed()
        pieces: list[tuple[Point2, Point2, float]] = []
        for p, q, b in ring.segments():
            pieces.append(_offset_segment(p, q, b, dist))
        out: list[Vertex] = []
        n = len(pieces)
        for i in range(n):
            start, end, b = pieces[i]
            nxt = pieces[(i + 1) % n][0]
            out.append((start[0], start[1], b))
            if math.dist(end, nxt) > TANGENT_TOL:
                corner = ring.vertices[(i + 1) % n]
                out.append((end[0], end[1], _corner_bulge(end, nxt, (corner[0], corner[1]), dist)))
        return Path(tuple(out), True)


def _offset_segment(p: Point2, q: Point2, b: float, dist: float) -> tuple[Point2, Point2, float]:
    """A stretch of a counter-clockwise outline moved `dist` outward (to its right)."""
    if b == 0:
        dx, dy = q[0] - p[0], q[1] - p[1]
        length = math.hypot(dx, dy)
        nx, ny = dy / length, -dx / length
        return (p[0] + dist * nx, p[1] + dist * ny), (q[0] + dist * nx, q[1] + dist * ny), 0.0
    arc = arc_of(p, q, b)
    grow = dist if b > 0 else -dist  # a counter-clockwise arc bulges outward
    r = arc.r + grow
    if r <= TANGENT_TOL:
        raise CurveError("the offset shrinks an arc to nothing")

    def moved(pt: Point2) -> Point2:
        return (arc.cx + (pt[0] - arc.cx) * r / arc.r, arc.cy + (pt[1] - arc.cy) * r / arc.r)

    return moved(p), moved(q), b


def _corner_bulge(end: Point2, start: Point2, corner: Point2, dist: float) -> float:
    """The round join at a sharp corner: an arc of radius `dist` about the corner from
    one stretch's offset end to the next one's offset start (convex corners only)."""
    if dist <= 0:
        raise CurveError("an inward offset of a sharp corner needs trimming")
    a0 = math.atan2(end[1] - corner[1], end[0] - corner[0])
    a1 = math.atan2(start[1] - corner[1], start[0] - corner[0])
    sweep = (a1 - a0) % (2 * math.pi)
    if sweep > math.pi:  # turning clockwise: a concave corner
        raise CurveError("an outward offset of a concave corner needs trimming")
    return math.tan(sweep / 4)


@dataclass(frozen=True)
class Curve:
    """A shape's true outline: its paths in the order of its shapely rings (a polygon's
    exterior then its holes, or one ring, or one open line)."""

    paths: tuple[Path, ...]

    def polygon(self) -> Polygon:
        """The area inside the first path, less the others (holes), flattened."""
        rings = [p.coords() for p in self.paths]
        return Polygon(rings[0], rings[1:])

    def ring(self) -> LinearRing:
        return LinearRing(self.paths[0].coords())

    def line(self) -> LineString:
        return LineString(self.paths[0].coords())

    def arcs(self) -> list[Arc]:
        return [a for p in self.paths for a in p.arcs()]

    def affine(self, m: Sequence[float]) -> Curve:
        return Curve(tuple(p.affine(m) for p in self.paths))

    def translated(self, dx: float, dy: float) -> Curve:
        return self.affine((1.0, 0.0, 0.0, 1.0, dx, dy))

    def rotated(self, degrees: float, origin: Point2) -> Curve:
        c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
        ox, oy = origin
        return self.affine((c, -s, s, c, ox - c * ox + s * oy, oy - s * ox - c * oy))

    def offset_area(self, dist: float) -> Curve:
        """The area grown by `dist` (negative: shrunk): the outline moves out, holes in."""
        first, *holes = self.paths
        return Curve((first.offset(dist), *(h.offset(-dist) for h in holes)))

    def bounds(self) -> tuple[float, float, float, float]:
        """(minx, miny, maxx, maxy), exact: an arc's extremes where it crosses an axis."""
        xs: list[float] = []
        ys: list[float] = []
        for path in self.paths:
            for p, q, b in path.segments():
                xs += [p[0], q[0]]
                ys += [p[1], q[1]]
                if b != 0:
                    arc = arc_of(p, q, b)
                    for k in range(4):
                        if _on_arc(arc, 90.0 * k):
                            xs.append(arc.cx + arc.r * math.cos(math.pi / 2 * k))
                            ys.append(arc.cy + arc.r * math.sin(math.pi / 2 * k))
        return min(xs), min(ys), max(xs), max(ys)


def _on_arc(arc: Arc, angle: float) -> bool:
    span = arc.sweep
    d = (angle - arc.start) % 360.0
    return d <= span if span > 0 else (360.0 - d) % 360.0 <= -span


def circle_of(path: Path) -> tuple[float, float, float] | None:
    """(cx, cy, r) when the path is one full circle (two half arcs about one centre,
    turning one way), else None: renderers write it as a circle entity."""
    if not path.closed or len(path.vertices) != 2:
        return None
    (b0, b1) = (path.vertices[0][2], path.vertices[1][2])
    if b0 == 0 or b1 == 0 or (b0 > 0) != (b1 > 0):
        return None
    first, second = path.arcs()
    same = math.dist((first.cx, first.cy), (second.cx, second.cy)) < 1e-9
    if not (same and math.isclose(first.r, second.r, rel_tol=1e-12, abs_tol=1e-12)):
        return None
    return first.cx, first.cy, first.r


def circle_path(cx: float, cy: float, r: float) -> Path:
    """A full circle, counter-clockwise from its rightmost point: two half arcs."""
    return Path(((cx + r, cy, 1.0), (cx - r, cy, 1.0)), True)


def rounded_rect_path(x: float, y: float, w: float, h: float, r: float) -> Path:
    """An axis-aligned rectangle with corner radius r, counter-clockwise from the bottom
    edge; r is clamped to half the shorter side (a stadium, or a circle for a square)."""
    if w <= 0 or h <= 0:
        raise ValueError(f"rectangle needs positive size, got {w} x {h}")
    r = max(0.0, min(r, w / 2, h / 2))
    x1, y1 = x + w, y + h
    if r == 0:
        return Path(((x, y, 0.0), (x1, y, 0.0), (x1, y1, 0.0), (x, y1, 0.0)), True)
    q = math.tan(math.pi / 8)  # a quarter circle's bulge
    corners = [
        ((x + r, y), (x1 - r, y)),  # bottom edge, then the bottom-right corner
        ((x1, y + r), (x1, y1 - r)),
        ((x1 - r, y1), (x + r, y1)),
        ((x, y1 - r), (x, y + r)),
    ]
    out: list[Vertex] = []
    for start, end in corners:
        if math.dist(start, end) > 0:
            out.append((start[0], start[1], 0.0))
        out.append((end[0], end[1], q))
    return Path(tuple(out), True)
