"""A refuge: a fan of rounded-triangle blades stacked on one pivot screw.

Each blade is a triangle whose two long sides run along rays from the pivot, with its
outer corners rounded and a round hub about the pivot hole. Fanned out, blade k lies
`step` degrees after blade k-1 and, being one plywood layer higher, covers the last
`overlap` degrees of it: so a blade's apex angle is step + overlap. Six blades fanned
right round (step 60 degrees) make a closed rosette, every blade visible.

Because the long sides are rays, two neighbouring blades overlap by the same angle at
every distance from the pivot, and the pieces standing on a blade (figure circles and
a tent space) are placed in the part no neighbour covers, on either side, so any blade
may lie above or below its neighbours.

Blade coordinates: pivot at the origin, the blade's axis along +x. Millimetres, degrees.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely import affinity
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from geometry.curves import Curve, Path

ARC = 16  # segments per quarter circle: smooth for a saw, small for a file
HUB_FILLET = 4.0  # mm: rounds the inside corner where a side meets the hub (no notch to snap)
FEATURE_MARGIN = 1.0  # mm between a piece's circle and a covered part or the blade's edge


@dataclass(frozen=True)
class Fan:
    """`blades` blades `length` mm from the pivot to the farthest point of a blade."""

    blades: int
    length: float
    corner_radius: float
    overlap: float  # degrees each blade covers of the one below it
    pivot_hole: float  # diameter, mm

    def __post_init__(self) -> None:
        if self.blades < 2:
            raise ValueError(f"a fan needs at least two blades, got {self.blades}")
        if not 0 <= self.overlap < self.step:
            raise ValueError(
                f"blade overlap must be from 0 to under {self.step:g} degrees, got {self.overlap:g}"
            )
        if self.apex >= 180:
            raise ValueError(f"a blade's apex angle must stay under 180 degrees, got {self.apex:g}")
        if self.pivot_hole <= 0 or self.pivot_hole / 2 >= self.corner_radius:
            raise ValueError(
                f"the pivot hole ({self.pivot_hole:g} mm) must be positive and narrower than "
                f"the hub ({2 * self.corner_radius:g} mm across)"
            )
        if self.length <= 3 * self.corner_radius:
            raise ValueError(
                f"a {self.length:g} mm blade is too short for {self.corner_radius:g} mm "
                "rounded corners: make it longer than three corner radii"
            )

    @property
    def step(self) -> float:
        """Degrees between neighbouring blades' axes when the fan is open right round."""
        return 360.0 / self.blades

    @property
    def apex(self) -> float:
        """A blade's angle at the pivot."""
        return self.step + self.overlap

    @property
    def hub_radius(self) -> float:
        return self.corner_radius

    def angles(self) -> tuple[float, ...]:
        """The fan's swing: each blade's axis angle when open, blade 0 at 0 degrees."""
        return tuple(k * self.step for k in range(self.blades))

    def blade(self) -> Polygon:
        """The blade outline in blade coordinates."""
        return blade_outline(self.length, self.corner_radius, self.apex)

    def blade_curve(self) -> Curve:
        """The blade outline as its true curve: corner, hub and fillet arcs kept as arcs."""
        return Curve((blade_path(self.length, self.corner_radius, self.apex),))

    def placed(self, k: int, angle: float | None = None) -> Polygon:
        """Blade k turned about the pivot to `angle` (default: its open position)."""
        a = self.angles()[k] if angle is None else angle
        return affinity.rotate(self.blade(), a, origin=(0, 0))

    def pivot(self) -> Polygon:
        """The pivot hole, centred on the origin."""
        return Point(0, 0).buffer(self.pivot_hole / 2, quad_segs=ARC)

    def part(self) -> Polygon:
        """The plywood part: the outline with the pivot hole cut out."""
        return self.blade().difference(self.pivot())

    def visible(self) -> BaseGeometry:
        """The part of a blade no neighbour can cover, whichever lies on top."""
        blade = self.blade()
        covers = [affinity.rotate(blade, s, origin=(0, 0)) for s in (-self.step, self.step)]
        return blade.difference(unary_union(covers))


def blade_outline(length: float, corner_radius: float, apex: float) -> Polygon:
    """A rounded triangle with its apex on the pivot, sides along rays at +-apex/2, outer
    corners rounded to `corner_radius`, and a hub of the same radius about the pivot;
    the flattening of `blade_path`, the one true outline.

    `length` is the distance from the pivot to the blade's farthest point.
    """
    return Curve((blade_path(length, corner_radius, apex),)).polygon()


def blade_path(length: float, corner_radius: float, apex: float) -> Path:
    """The blade outline as lines and arcs, counter-clockwise from the outer edge: the
    outer edge, an outer corner arc, a side along its ray, the hub fillet (concave,
    radius HUB_FILLET), the hub arc round the back of the pivot, and the same mirrored."""
    r = corner_radius
    half = math.radians(apex / 2)
    t, k = math.tan(half), r / math.cos(half)
    reach = length - r  # pivot to the centre of an outer corner's arc
    # The arc centre lies r inside both the side (y = x tan) and the outer side:
    # y = x t - k and x^2 + y^2 = reach^2.
    a, b, c = 1 + t * t, -2 * t * k, k * k - reach * reach
    x = (-b + math.sqrt(b * b - 4 * a * c)) / (2 * a)
    y = x * t - k
    if y <= 0:
        raise ValueError(f"a {length:g} mm blade is too short for {r:g} mm rounded corners")
    sh, ch = math.sin(half), math.cos(half)
    corner = math.tan((math.pi / 2 + half) / 4)  # an outer corner turns through 90 + half
    f = HUB_FILLET
    along = math.sqrt((r + f) ** 2 - f * f)  # fillet centre: f off the ray, hub + f out
    t1 = (along * ch, along * sh)  # where the upper side meets its fillet
    centre = (along * ch - f * sh, along * sh + f * ch)
    t2 = (centre[0] * r / (r + f), centre[1] * r / (r + f))  # the fillet meets the hub
    fillet = -math.tan(math.acos(f / (r + f)) / 4)  # concave: turns clockwise
    phi = math.atan2(t2[1], t2[0])
    hub = math.tan((2 * math.pi - 2 * phi) / 4)  # round the back, from phi to -phi
    vertices = (
        (x + r, -y, 0.0),
        (x + r, y, corner),
        (x - r * sh, y + r * ch, 0.0),
        (t1[0], t1[1], fillet),
        (t2[0], t2[1], hub),
        (t2[0], -t2[1], fillet),
        (t1[0], -t1[1], 0.0),
        (x - r * sh, -(y + r * ch), corner),
    )
    return Path(vertices, True)


@dataclass(frozen=True)
class BladeLayout:
    """Where pieces stand on a blade, in blade coordinates."""

    figures: tuple[tuple[float, float], ...]
    tent: tuple[float, float]
    figure_radius: float
    tent_radius: float

    def circles(self) -> list[Polygon]:
        out = [Point(x, y).buffer(self.figure_radius, quad_segs=ARC) for x, y in self.figures]
        out.append(Point(*self.tent).buffer(self.tent_radius, quad_segs=ARC))
        return out


def blade_layout(fan: Fan, figure_radius: float, tent_radius: float) -> BladeLayout:
    """Two figure circles in the blade's outer corners, as far from the pivot as they go,
    and the tent space on the axis, centred in the room left between them and the pivot.

    Raises ValueError when the uncovered part of the blade cannot hold them.
    """
    m = FEATURE_MARGIN
    room = fan.visible()
    far = fan.length + figure_radius
    upper = Polygon(
        [(0, figure_radius + m / 2), (far, figure_radius + m / 2), (far, far), (0, far)]
    )
    fig_room = room.buffer(-(figure_radius + m), quad_segs=ARC).intersection(upper)
    if fig_room.is_empty:
        raise ValueError(
            f"a {fan.length:g} mm blade has no room for two {2 * figure_radius:g} mm figure "
            "circles: make the blades longer or the figures smaller"
        )
    fx, fy = max(_vertices(fig_room), key=lambda p: math.hypot(*p))
    figures = ((fx, fy), (fx, -fy))
    keep_out = unary_union(
        [Point(x, y).buffer(figure_radius + tent_radius + m, quad_segs=ARC) for x, y in figures]
    )
    tent_room = room.buffer(-(tent_radius + m), quad_segs=ARC).difference(keep_out)
    on_axis = tent_room.intersection(LineString([(0, 0), (fan.length, 0)]))
    if on_axis.is_empty or on_axis.length == 0:
        raise ValueError(
            f"a {fan.length:g} mm blade has no room for a {2 * tent_radius:g} mm tent space "
            "beside its figure circles: make the blades longer or the pieces smaller"
        )
    longest = max(getattr(on_axis, "geoms", [on_axis]), key=lambda g: g.length)
    mid = longest.interpolate(0.5, normalized=True)
    return BladeLayout(figures, (mid.x, 0.0), figure_radius, tent_radius)


def _vertices(geom: BaseGeometry) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for part in getattr(geom, "geoms", [geom]):
        if part.geom_type == "Polygon":
            out.extend(part.exterior.coords)
    return out


def overlap_deg(a: BaseGeometry, b: BaseGeometry, beyond: float) -> float:
    """The angle, seen from the pivot (the origin), over which blades `a` and `b` overlap
    farther than `beyond` mm from the pivot (the shared hub is left out)."""
    shared = a.intersection(b).difference(Point(0, 0).buffer(beyond, quad_segs=ARC))
    if shared.is_empty or shared.area < 1e-9:
        return 0.0
    c = shared.representative_point()
    ref = math.atan2(c.y, c.x)
    angles = []
    for x, y in _vertices(shared):
        d = math.atan2(y, x) - ref
        angles.append(math.degrees((d + math.pi) % (2 * math.pi) - math.pi))
    return max(angles) - min(angles)


def fan_overlaps(fan: Fan, blades: list[Polygon] | None = None) -> list[float]:
    """Measured overlap in degrees between each blade and the next, fanned open.

    `blades` are the outlines to measure in blade coordinates (default: the fan's own),
    so a kit can measure the parts it will actually cut.
    """
    shapes = blades if blades is not None else [fan.blade()] * fan.blades
    placed = [
        affinity.rotate(s, a, origin=(0, 0)) for s, a in zip(shapes, fan.angles(), strict=True)
    ]
    beyond = fan.hub_radius + 2 * HUB_FILLET
    pairs = [(k, (k + 1) % fan.blades) for k in range(fan.blades)]
    return [overlap_deg(placed[i], placed[j], beyond) for i, j in pairs]


def feature_clearance(fan: Fan, layout: BladeLayout) -> float:
    """The smallest gap in mm between a piece's circle and a neighbouring blade (or the
    blade's own edge) when the fan is open; negative when a neighbour covers a piece."""
    room = fan.visible()
    out = math.inf
    for x, y, r in [(x, y, layout.figure_radius) for x, y in layout.figures] + [
        (*layout.tent, layout.tent_radius)
    ]:
        p = Point(x, y)
        d = room.boundary.distance(p) if room.contains(p) else -room.distance(p)
        out = min(out, d - r)
    return out
