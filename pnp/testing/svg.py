"""SVG path data read back as points, as the SVG specification draws it: what the golden
checks compare cut lines with, and what pnp's own tests measure drawn paths by."""

from __future__ import annotations

import math
import re

NUM = r"-?\d+(?:\.\d+)?"
Arc3 = tuple[float, float, float]


def svg_subpath_points(sub: str) -> tuple[list[tuple[float, float]], list[Arc3]]:
    """One subpath's points (SVG coordinates) through M, L, A and Z commands, and the
    (cx, cy, r) of each arc."""
    pts: list[tuple[float, float]] = []
    arcs: list[Arc3] = []
    for cmd, args in re.findall(r"([MLAZ])([^MLAZ]*)", sub):
        nums = [float(v) for v in re.findall(NUM, args)]
        if cmd in "ML":
            pts.extend(zip(nums[0::2], nums[1::2], strict=True))
        elif cmd == "A":
            rx, _, _, large, sweep, x, y = nums
            centre, points = _svg_arc(pts[-1], (x, y), rx, bool(large), bool(sweep))
            pts.extend(points)
            arcs.append((*centre, rx))
    return pts, arcs


def _svg_arc(
    p: tuple[float, float], q: tuple[float, float], r: float, large: bool, sweep: bool
) -> tuple[tuple[float, float], list[tuple[float, float]]]:
    """The SVG spec's endpoint-to-centre conversion (appendix F.6.5) for a circular arc:
    its centre, and points along it from p (excluded) to q."""
    x1p, y1p = (p[0] - q[0]) / 2, (p[1] - q[1]) / 2
    d2 = x1p * x1p + y1p * y1p
    r = max(r, math.sqrt(d2))
    coef = math.sqrt(max(0.0, (r * r - d2) / d2)) * (-1 if large == sweep else 1)
    cxp, cyp = coef * y1p, -coef * x1p
    cx, cy = cxp + (p[0] + q[0]) / 2, cyp + (p[1] + q[1]) / 2
    t1 = math.atan2((y1p - cyp) / r, (x1p - cxp) / r)
    t2 = math.atan2((-y1p - cyp) / r, (-x1p - cxp) / r)
    dt = t2 - t1
    if sweep and dt < 0:
        dt += 2 * math.pi
    elif not sweep and dt > 0:
        dt -= 2 * math.pi
    n = max(4, math.ceil(abs(dt) / (2 * math.acos(1 - 1e-4 / r)))) if r > 1e-4 else 4
    points = [
        (cx + r * math.cos(t1 + dt * k / n), cy + r * math.sin(t1 + dt * k / n))
        for k in range(1, n)
    ]
    return (cx, cy), [*points, q]
