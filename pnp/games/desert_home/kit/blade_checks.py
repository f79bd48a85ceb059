"""Desert Home's blade checks: the refuges' plywood blades measured on their outlines and
holes (their pivots, the bolt's fit, the webs between figure places), as they will be sawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from shapely import affinity
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from geometry.fan import fan_overlaps
from pnp.draw.checks import Finding, check_narrowest_web
from pnp.draw.scene import Component
from pnp.games.desert_home.params import DesertHomeParams, colours_in_play, fan

TOL = 0.01  # mm: drawing tolerance for positions and sizes (every check's)
ANGLE_TOL = 0.1  # degrees
MIN_CLEARANCE = 0.3  # mm a pivot hole needs beyond its bolt: ISO 273's fine fit for M5
MAX_CLEARANCE = 1.0  # mm beyond which a blade wobbles on its bolt (past ISO 273's coarse fit)


def _blade_frame(c: Component) -> tuple[float, float, float]:
    x, y = cast(tuple[float, float], c.meta["pivot"])
    return float(x), float(y), float(cast(float, c.meta.get("axis_deg", 0.0)))


def _to_blade(c: Component, geom: BaseGeometry) -> BaseGeometry:
    """Part coordinates to blade coordinates: pivot at the origin, axis along +x."""
    x, y, axis = _blade_frame(c)
    return affinity.rotate(affinity.translate(geom, -x, -y), -axis, origin=(0, 0))


def _holes(c: Component) -> list[Polygon]:
    return [
        s.geom.buffer(s.radius, quad_segs=32)
        for s in c.shapes("inner-cut")
        if s.radius > 0 and isinstance(s.geom, Point)
    ]


def check_blades(
    blades: Sequence[Component], overlays: Sequence[Component], p: DesertHomeParams
) -> list[Finding]:
    """Every blade fits the plywood sheet, turns about its pivot hole, overlaps its
    neighbours by no more than the stated angle, and leaves its pieces' places uncovered."""
    out: list[Finding] = []
    if not blades:
        return out
    sheet = sorted(p.plywood_sheet)
    f = fan(p)
    for c in blades:
        rect = c.shape_outline.minimum_rotated_rectangle
        xs, ys = rect.exterior.coords.xy
        sides = sorted(Point(xs[i], ys[i]).distance(Point(xs[i + 1], ys[i + 1])) for i in range(2))
        if sides[0] > sheet[0] + TOL or sides[1] > sheet[1] + TOL:
            out.append(
                Finding(
                    "error",
                    c.name,
                    f"{sides[1]:.1f} x {sides[0]:.1f} mm does not fit the "
                    f"{sheet[1]:g} x {sheet[0]:g} mm plywood sheet",
                )
            )
        x, y, _ = _blade_frame(c)
        pivots = [h for h in _holes(c) if h.centroid.distance(Point(x, y)) < TOL]
        if not pivots:
            out.append(Finding("error", c.name, "no pivot hole at the blade's turning point"))
    by_colour = {str(c.meta["colour"]): c for c in blades}
    order = [by_colour[k] for k in colours_in_play(p) if k in by_colour]
    if len(order) == f.blades:
        shapes = [_to_blade(c, c.shape_outline) for c in order]
        overlaps = fan_overlaps(f, shapes)
        worst = max(overlaps)
        if worst > p.blade_overlap_deg + ANGLE_TOL:
            out.append(
                Finding(
                    "error",
                    "blades",
                    f"fanned out, neighbouring blades overlap by {worst:.1f} degrees, more "
                    f"than the stated {p.blade_overlap_deg:g}",
                )
            )
        else:
            out.append(
                Finding(
                    "info",
                    "blades",
                    f"fanned out, neighbouring blades overlap by {worst:.1f} degrees "
                    f"(stated {p.blade_overlap_deg:g})",
                )
            )
        out += _check_places(order, overlays, shapes, f.step)
    return out


def check_pivot_fit(blades: Sequence[Component], p: DesertHomeParams) -> list[Finding]:
    """The pivot hole measured on every blade that is cut, against the bolt: a stack of
    six plywood blades binds on a bolt without clearance (plywood swells and the drill
    wanders), and wobbles with too much."""
    out: list[Finding] = []
    need = p.bolt_diameter + MIN_CLEARANCE
    sizes = []
    for c in blades:
        x, y, _ = _blade_frame(c)
        for s in c.shapes("inner-cut"):
            if s.radius > 0 and isinstance(s.geom, Point) and s.geom.distance(Point(x, y)) < TOL:
                sizes.append((2 * s.radius, c.name))
    for hole in sorted({h for h, _ in sizes}):
        names = [n for h, n in sizes if h == hole]
        name = names[0] if len(names) == 1 else "blades"
        if hole < need - TOL:
            out.append(
                Finding(
                    "error",
                    name,
                    f"the {hole:g} mm pivot hole binds on the {p.bolt_diameter:g} mm bolt: give "
                    f"it at least {MIN_CLEARANCE:g} mm clearance ({need:g} mm, "
                    "'hole_clearance')",
                )
            )
        elif hole > p.bolt_diameter + MAX_CLEARANCE + TOL:
            out.append(
                Finding(
                    "warning",
                    name,
                    f"the {hole:g} mm pivot hole is {hole - p.bolt_diameter:g} mm wider than the "
                    f"{p.bolt_diameter:g} mm bolt: the blade wobbles",
                )
            )
    if sizes and not out:
        holes = sorted({h for h, _ in sizes})
        out.append(
            Finding(
                "info",
                "blades",
                f"pivot holes {', '.join(f'{h:g}' for h in holes)} mm on a "
                f"{p.bolt_diameter:g} mm bolt: {holes[0] - p.bolt_diameter:g} mm clearance "
                f"(at least {MIN_CLEARANCE:g})",
            )
        )
    return out


def _check_places(
    order: Sequence[Component],
    overlays: Sequence[Component],
    shapes: Sequence[BaseGeometry],
    step: float,
) -> list[Finding]:
    """No neighbouring blade covers a figure or tent place, whichever lies on top."""
    out = []
    by_colour = {str(c.meta["colour"]): c for c in overlays}
    n = len(order)
    for k, blade in enumerate(order):
        overlay = by_colour.get(str(blade.meta["colour"]))
        if overlay is None:
            continue
        covers = unary_union(
            [
                affinity.rotate(shapes[(k - 1) % n], -step, origin=(0, 0)),
                affinity.rotate(shapes[(k + 1) % n], step, origin=(0, 0)),
            ]
        )
        room = shapes[k].difference(covers)
        for kind, centre, radius in overlay.meta.get("places", []):  # type: ignore[attr-defined]
            spot = _to_blade(overlay, Point(centre)).buffer(radius, quad_segs=32)
            if not room.buffer(TOL).contains(spot):
                out.append(
                    Finding(
                        "error",
                        overlay.name,
                        f"a {kind} place lies under a neighbouring blade when the fan is open",
                    )
                )
    return out


def check_webs(blades: Sequence[Component], p: DesertHomeParams) -> list[Finding]:
    """No bridge of plywood narrower than the plywood is thick; each blade's narrowest."""
    out: list[Finding] = []
    for c in blades:
        out += check_narrowest_web(c, p.plywood_thickness, "plywood")
    return out
