"""Six candy pictures as vector shapes, one per die value (the Exploding Dice candy theme).

Each picture is a list of (role, geometry) parts, bottom to top, so the caller picks the
colours. Roles: `light` (sticks, wrappers, paper cups: near white), `main` (the candy's
body), `accent` (stripes, icing, cherries), `dark` (small details such as sprinkles) and
`shine` (highlights, drawn without an outline).

Pictures are drawn in a unit face centred on (0, 0) and scaled to the caller's face. They
keep clear of the top-left and bottom-right corner squares (side KEEP_OUT), where a face
puts its numeral and its colour symbol.
"""

from __future__ import annotations

import math
from functools import cache

from shapely import affinity
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

Part = tuple[str, BaseGeometry]

ROLES: tuple[str, ...] = ("light", "main", "accent", "dark", "shine")
NAMES: dict[int, str] = {
    1: "lollipop",
    2: "wrapped sweet",
    3: "gumdrop",
    4: "candy cane",
    5: "doughnut",
    6: "cupcake",
}
KEEP_OUT = 0.27  # corner squares (fraction of the face) left free for numeral and symbol
_Q = 12  # arc segments per quarter circle: smooth at sticker size, small files


def _circle(x: float, y: float, r: float) -> Polygon:
    return Point(x, y).buffer(r, quad_segs=_Q)


def _ellipse(x: float, y: float, rx: float, ry: float) -> Polygon:
    return affinity.translate(affinity.scale(_circle(0, 0, 1), rx, ry), x, y)


def _stroke(points: list[tuple[float, float]], width: float) -> Polygon:
    """A line of `width` with round caps and joins (sticks, canes, sprinkles)."""
    return LineString(points).buffer(width / 2, quad_segs=_Q)


def _stripes(angle: float, width: float, pitch: float, phase: float = 0.0) -> BaseGeometry:
    """Parallel bands across the unit face, to be clipped by a candy body."""
    bands = [
        box(-1.0, k * pitch + phase - width / 2, 1.0, k * pitch + phase + width / 2)
        for k in range(-12, 13)
    ]
    return affinity.rotate(unary_union(bands), angle, origin=(0, 0))


def lollipop() -> list[Part]:
    cx, cy, r = 0.08, 0.1, 0.27
    disc = _circle(cx, cy, r)
    stick = _stroke([(cx, cy), (-0.33, -0.35)], 0.075)
    turns, step = 2.3, 0.04
    n = int(turns * 2 * math.pi / step)
    spiral = [
        (cx + (0.86 * r * k / n) * math.cos(k * step), cy + (0.86 * r * k / n) * math.sin(k * step))
        for k in range(n + 1)
    ]
    swirl = LineString(spiral).buffer(0.032, quad_segs=_Q).intersection(disc.buffer(-0.012))
    shine = _stroke([(cx - 0.17, cy + 0.06), (cx - 0.12, cy + 0.16)], 0.035)
    return [("light", stick), ("main", disc), ("accent", swirl), ("shine", shine)]


def wrapped_sweet() -> list[Part]:
    body = _ellipse(0, 0, 0.19, 0.145)
    fan = Polygon(
        [
            (0.13, 0.035),
            (0.37, 0.17),
            (0.33, 0.085),
            (0.385, 0.0),
            (0.33, -0.085),
            (0.37, -0.17),
            (0.13, -0.035),
        ]
    )
    ends = unary_union([fan, affinity.scale(fan, -1, 1, origin=(0, 0))])
    knots = unary_union([_ellipse(0.19, 0, 0.03, 0.05), _ellipse(-0.19, 0, 0.03, 0.05)])
    stripes = _stripes(60, 0.045, 0.105).intersection(body.buffer(-0.01))
    shine = _stroke([(-0.1, 0.075), (0.02, 0.1)], 0.03)
    parts: list[Part] = [
        ("main", ends),
        ("accent", knots),
        ("main", body),
        ("accent", stripes),
        ("shine", shine),
    ]
    return [(role, affinity.rotate(g, 40, origin=(0, 0))) for role, g in parts]


def gumdrop() -> list[Part]:
    top = [
        (0.2 * math.cos(t), 0.02 + 0.27 * math.sin(t))
        for t in (math.pi * k / 32 for k in range(33))
    ]
    dome = Polygon([*top, (-0.275, -0.21), (0.275, -0.21)]).buffer(-0.025).buffer(0.025)
    base = _ellipse(0, -0.2, 0.265, 0.05)
    sugar = unary_union(
        [
            affinity.rotate(box(x - 0.018, y - 0.018, x + 0.018, y + 0.018), a, origin=(x, y))
            for x, y, a in (
                (-0.02, 0.21, 5),
                (0.1, 0.14, 50),
                (0.16, -0.03, 10),
                (0.02, 0.05, 35),
                (-0.15, -0.13, 60),
                (0.06, -0.14, 25),
                (-0.06, -0.04, 75),
                (-0.06, 0.12, 20),
            )
        ]
    ).intersection(dome.buffer(-0.03))
    shine = _stroke([(-0.165, -0.04), (-0.12, 0.13)], 0.04)
    parts: list[Part] = [("accent", base), ("main", dome), ("light", sugar), ("shine", shine)]
    return [(role, affinity.translate(g, 0, 0.025)) for role, g in parts]


def candy_cane() -> list[Part]:
    arc = [
        (0.06 + 0.17 * math.cos(t), 0.1 + 0.17 * math.sin(t))
        for t in (math.pi * (1 - k / 24) for k in range(25))
    ]
    path = [(-0.11, -0.36), *arc, (0.23, -0.01)]
    cane = affinity.translate(_stroke(path, 0.13), -0.06, 0.0)
    stripes = _stripes(-35, 0.05, 0.12).intersection(cane)
    shine = affinity.translate(_stroke([(-0.145, -0.28), (-0.145, 0.06)], 0.025), -0.06, 0.0)
    parts: list[Part] = [("light", cane), ("accent", stripes), ("shine", shine)]
    return [(role, affinity.rotate(g, -12, origin=(0, 0))) for role, g in parts]


def doughnut() -> list[Part]:
    dough = _circle(0, 0, 0.3).difference(_circle(0, 0, 0.085))
    icing_ring = [
        (
            (0.245 + 0.016 * math.sin(8 * t)) * math.cos(t),
            (0.245 + 0.016 * math.sin(8 * t)) * math.sin(t),
        )
        for t in (2 * math.pi * k / 140 for k in range(140))
    ]
    icing = Polygon(icing_ring).buffer(0.008).difference(_circle(0, 0, 0.13))
    grain = _stroke([(-0.028, 0), (0.028, 0)], 0.024)
    sprinkles = unary_union(
        [
            affinity.translate(
                affinity.rotate(grain, a, origin=(0, 0)), 0.19 * math.cos(t), 0.19 * math.sin(t)
            )
            for t, a in (
                (0.3, 30),
                (1.1, 110),
                (1.9, 70),
                (2.6, 150),
                (3.4, 15),
                (4.2, 95),
                (5.0, 45),
                (5.7, 130),
            )
        ]
    )
    shine = _stroke([(-0.2, 0.1), (-0.13, 0.19)], 0.03)
    return [("main", dough), ("accent", icing), ("dark", sprinkles), ("shine", shine)]


def cupcake() -> list[Part]:
    cup = Polygon([(-0.17, -0.37), (0.17, -0.37), (0.235, -0.09), (-0.235, -0.09)])
    pleats = unary_union(
        [LineString([(0.115 * k, -0.35), (0.16 * k, -0.11)]).buffer(0.011) for k in (-1, 0, 1)]
    )
    frosting = (
        unary_union(
            [
                _ellipse(0, -0.06, 0.3, 0.085),
                _ellipse(0, 0.05, 0.235, 0.08),
                _ellipse(0, 0.145, 0.15, 0.07),
                Polygon([(-0.08, 0.17), (0.0, 0.26), (0.08, 0.17)]),
            ]
        )
        .buffer(0.01)
        .buffer(-0.01)
    )
    swirls = unary_union(
        [
            _stroke([(-0.2, -0.03), (0.1, 0.0)], 0.02),
            _stroke([(-0.12, 0.08), (0.13, 0.1)], 0.02),
        ]
    ).intersection(frosting.buffer(-0.02))
    stem = _stroke([(0.02, 0.3), (0.07, 0.39)], 0.02)
    cherry = _circle(0.0, 0.29, 0.06)
    shine = _circle(-0.02, 0.31, 0.016)
    return [
        ("light", cup),
        ("accent", pleats),
        ("main", frosting),
        ("shine", swirls),
        ("dark", stem),
        ("accent", cherry),
        ("shine", shine),
    ]


_PICTURES = {1: lollipop, 2: wrapped_sweet, 3: gumdrop, 4: candy_cane, 5: doughnut, 6: cupcake}


@cache
def _unit(value: int) -> tuple[Part, ...]:
    """A picture on the unit face, built once: a sheet repeats each candy many times."""
    if value not in _PICTURES:
        raise ValueError(f"candy faces show 1 to 6, got {value}")
    # Simplify below print resolution (0.002 of a face: 0.016 mm on an 8 mm sticker) to keep
    # sheets of 96 stickers small.
    return tuple((role, g.simplify(0.002)) for role, g in _PICTURES[value]())


@cache
def _unit_outline(value: int, pad: float) -> BaseGeometry:
    shape = unary_union([g for _, g in _unit(value)])
    return shape.buffer(pad, quad_segs=8) if pad > 0 else shape


def _place(g: BaseGeometry, cx: float, cy: float, size: float) -> BaseGeometry:
    return affinity.translate(affinity.scale(g, size, size, origin=(0, 0)), cx, cy)


def candy(value: int, cx: float, cy: float, size: float) -> list[Part]:
    """The candy picture for `value` (1-6) on a face of side `size` mm centred on (cx, cy)."""
    return [(role, _place(g, cx, cy, size)) for role, g in _unit(value)]


def silhouette(
    value: int, cx: float = 0.0, cy: float = 0.0, size: float = 1.0, pad: float = 0.0
) -> BaseGeometry:
    """A picture's parts as one shape, grown by `pad` (a fraction of the face) for halos."""
    _unit(value)  # validates the value
    return _place(_unit_outline(value, pad), cx, cy, size)
