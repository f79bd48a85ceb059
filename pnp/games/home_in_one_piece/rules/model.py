"""The play model: the printed board and dice in the plane, and the disc maths the rules use.

The real game is played with dough; the model keeps only what decides the race. Every blob
is a disc of fixed area, its dough lying flat at `play_thickness` (the thicker of the start
and home thicknesses, so the model's discs fit wherever the printed checks put dough).
Joined blobs become one disc of the summed area. Moving a blob keeps part of it on the
spot where it began the turn: its new disc must overlap the old one, and `reach` (a share
of the two radii summed, below 1) says how far. A blob may also stretch round or
bridge over the other player's dough (`bridged_reach`): the stretch of its way past one of
their blobs costs none of its reach, where its line crosses that blob no wider than
`bridge` (the kit's `bridge_span`; 0 turns both off).

All of this is plain arithmetic on tuples rather than shapely calls: a game makes
thousands of these tests and must stay fast. The tests check it against shapely.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from geometry.blobs import home_fit
from pnp.games.home_in_one_piece.params import (
    HomeInOnePieceParams,
    board_size,
    circles,
    home,
    unit_volume,
    validate,
)
from pnp.runtime.errors import PnpError

APART = 1.0
"""Dough closer than this (mm, edge to edge) counts as touching: set-down blobs keep it."""

REACH = {"overlap": 0.9, "half": 0.5}
"""Named reaches, as a share of the way to where the moved disc would stop overlapping the
old one: `overlap` goes nine tenths of that way (part of the blob clearly stays put), `half`
is a cautious player who moves a blob about its own radius."""

EPS = 1e-6  # mm: slack for points computed exactly on a circle


@dataclass(frozen=True)
class PlayModel:
    """Everything the rules need, built from the same params that print the kit."""

    width: float
    height: float
    home: tuple[float, float, float, float]  # x0, y0, x1, y1
    starts: tuple[tuple[tuple[float, float], ...], ...]  # per seat: its start circles' centres
    blobs: int  # start blobs per player
    unit_area: float  # one start blob's footprint in play, mm^2
    radii: tuple[float, ...]  # radii[u]: a blob made of u start blobs (radii[0] unused)
    dice: tuple[tuple[int, ...], ...]
    colours: tuple[str, ...]
    rally: tuple[tuple[float, float], ...]  # per seat: where its whole dough fits at home
    reach: float  # share of (old radius + new radius) a blob's centre may move in a turn
    bridge: float = 0.0  # mm: the widest stretch of the other's dough a bridge spans (0: none)


def play_thickness(p: HomeInOnePieceParams) -> float:
    """The thicker of the start and home thicknesses: a disc no wider than the blob in its
    start circle nor than the dough the home check places, so the model fits both."""
    return max(p.start_thickness, p.home_thickness)


def play_model(p: HomeInOnePieceParams, reach: str = "overlap") -> PlayModel:
    """Validate the kit and build its model; a kit the model cannot play is a PnpError."""
    p = validate(p)
    if reach not in REACH:
        raise PnpError(f"unknown reach '{reach}': choose one of {', '.join(REACH)}")
    unit_area = unit_volume(p) / play_thickness(p)
    radii = tuple(math.sqrt(u * unit_area / math.pi) for u in range(p.blobs_per_player + 1))
    row = circles(p)
    if 2 * radii[1] + APART > row.pitch:
        raise PnpError(
            f"start blobs lie less than {APART:g} mm apart, so they touch: raise circle_gap "
            "or circle_margin"
        )
    zone = home(p)
    fit = home_fit(zone, (radii[-1], radii[-1]))
    if not fit.centres:
        raise PnpError(f"nobody can win: {fit.reason} (raise home_depth or home_thickness)")
    centres = row.centres()
    width, height = board_size(p)
    return PlayModel(
        width=width,
        height=height,
        home=zone.bounds,
        starts=(centres[0::2], centres[1::2]),
        blobs=p.blobs_per_player,
        unit_area=unit_area,
        radii=radii,
        dice=p.dice,
        colours=p.dough_colours,
        rally=fit.centres,
        reach=REACH[reach],
        bridge=p.bridge_span,
    )


# --- disc maths -------------------------------------------------------------------------

Disc = tuple[float, float, float]  # x, y, radius


def clamp(model: PlayModel, x: float, y: float, r: float) -> tuple[float, float]:
    """The nearest centre that keeps a disc of radius r on the board."""
    return min(max(x, r), model.width - r), min(max(y, r), model.height - r)


def clear(x: float, y: float, r: float, others: Sequence[Disc]) -> bool:
    """True if a disc at (x, y) stays at least APART from every one of `others`."""
    for ox, oy, orad in others:
        s = r + orad + APART
        dx, dy = x - ox, y - oy
        if dx * dx + dy * dy < s * s:
            return False
    return True


def free_fraction(
    x: float, y: float, dx: float, dy: float, r: float, others: Sequence[Disc]
) -> float:
    """How far (0..1) along the move (dx, dy) a disc can be set down clear of `others`.

    The path itself does not matter (dough may bridge over dough); only where the disc is
    put down. Each other disc blocks an open stretch of the move; the answer is the end
    of the move, or else the nearest free point before it. The start must be clear.
    """
    a = dx * dx + dy * dy
    if a == 0:
        return 1.0
    blocked = []
    for ox, oy, orad in others:
        s = r + orad + APART
        fx, fy = x - ox, y - oy
        b = 2 * (fx * dx + fy * dy)
        c = fx * fx + fy * fy - s * s
        disc = b * b - 4 * a * c
        if disc <= 0:
            continue
        root = math.sqrt(disc)
        t1, t2 = (-b - root) / (2 * a), (-b + root) / (2 * a)
        if t2 > 0 and t1 < 1:
            blocked.append((max(t1, 0.0), t2))
    t = 1.0
    moved = True
    while moved:
        moved = False
        for t1, t2 in blocked:
            if t1 < t < t2:
                t, moved = t1, True
    return t


def bridged_reach(
    model: PlayModel,
    ax: float,
    ay: float,
    r: float,
    ux: float,
    uy: float,
    others: Sequence[Disc],
) -> float:
    """How far along the direction (ux, uy) from its turn-start spot (ax, ay) a blob of
    radius `r` may be set down, bridging over the other player's dough `others`.

    The rigid reach (`model.reach` of the diameter) counts the way on the board. Where the
    blob could not lie because of one of their blobs (its centre within r + their radius
    + `APART` of that blob's), the way is free if the dough can pass: its line runs beside
    that blob (the dough stretches round it, draping over its edge) or crosses it (within
    `APART`) no wider than `model.bridge` (a bridge that stands). A wider crossing does not
    stand and costs its length, as the rigid rule counts it. With no bridge allowed (0)
    this is the rigid reach. Plain products and math.sqrt in a fixed order (the kernel
    repeats it).
    """
    rho = model.reach * (r + r)
    if model.bridge <= 0:
        return rho
    spans = []
    for ox, oy, orad in others:
        fx, fy = ox - ax, oy - ay
        along = fx * ux + fy * uy
        if along <= 0:
            continue
        off = fx * fx + fy * fy - along * along
        pad = orad + APART
        s = r + pad
        if off >= s * s or (off < pad * pad and 2 * math.sqrt(pad * pad - off) > model.bridge):
            continue
        half = math.sqrt(s * s - off)
        spans.append((along - half, along + half))
    spans.sort()
    gone, left = 0.0, rho
    for start, end in spans:
        if start - gone > left:
            break
        if start > gone:
            left -= start - gone
        if end > gone:
            gone = end
    return gone + left


def inside_all(x: float, y: float, discs: Sequence[Disc]) -> bool:
    for cx, cy, rho in discs:
        dx, dy, lim = x - cx, y - cy, rho + EPS
        if dx * dx + dy * dy > lim * lim:
            return False
    return True


def circle_crossings(a: Disc, b: Disc) -> list[tuple[float, float]]:
    """Where two circles cross (none when one lies inside the other or they are apart)."""
    (x0, y0, r0), (x1, y1, r1) = a, b
    d = math.hypot(x1 - x0, y1 - y0)
    if d == 0 or d > r0 + r1 or d < abs(r0 - r1):
        return []
    along = (r0 * r0 - r1 * r1 + d * d) / (2 * d)
    h = math.sqrt(max(r0 * r0 - along * along, 0.0))
    mx, my = x0 + along * (x1 - x0) / d, y0 + along * (y1 - y0) / d
    ox, oy = h * (y1 - y0) / d, h * (x1 - x0) / d
    return [(mx + ox, my - oy), (mx - ox, my + oy)]


def nearest_in_discs(tx: float, ty: float, discs: Sequence[Disc]) -> tuple[float, float] | None:
    """The point of the discs' common part nearest (tx, ty), or None when they share none.

    The nearest point of a convex set to a point outside it lies on its edge: on one
    circle (the target projected onto it) or where two circles cross, so those candidates
    are enough.
    """
    if inside_all(tx, ty, discs):
        return tx, ty
    candidates = []
    for cx, cy, rho in discs:
        d = math.hypot(tx - cx, ty - cy)
        if d > rho:
            candidates.append((cx + (tx - cx) * rho / d, cy + (ty - cy) * rho / d))
    for i, a in enumerate(discs):
        for b in discs[i + 1 :]:
            candidates.extend(circle_crossings(a, b))
    good = [p for p in candidates if inside_all(p[0], p[1], discs)]
    if not good:
        return None
    return min(good, key=lambda p: (p[0] - tx) ** 2 + (p[1] - ty) ** 2)


APART_SLACK = 1e-7
"""mm: a spot found on a pushed-out circle lies this far past the touching distance, so
`clear` holds there."""


def _towards(cx: float, cy: float, rho: float, x: float, y: float) -> tuple[float, float]:
    """The point of the circle (cx, cy, rho) nearest (x, y) (straight up from the centre
    when (x, y) is the centre: every point is as near)."""
    d = math.hypot(x - cx, y - cy)
    ux, uy = ((x - cx) / d, (y - cy) / d) if d > 0 else (0.0, 1.0)
    return cx + ux * rho, cy + uy * rho


def _edge_crossings(
    cx: float, cy: float, rho: float, box: tuple[float, float, float, float]
) -> list[tuple[float, float]]:
    """Where the circle (cx, cy, rho) meets the lines x = lo_x, x = hi_x, y = lo_y, y = hi_y."""
    lo_x, hi_x, lo_y, hi_y = box
    out = []
    for edge in (lo_x, hi_x):
        h = rho * rho - (edge - cx) ** 2
        if h >= 0:
            out += [(edge, cy + math.sqrt(h)), (edge, cy - math.sqrt(h))]
    for edge in (lo_y, hi_y):
        h = rho * rho - (edge - cy) ** 2
        if h >= 0:
            out += [(cx + math.sqrt(h), edge), (cx - math.sqrt(h), edge)]
    return out


def nearest_clear(
    model: PlayModel,
    x: float,
    y: float,
    r: float,
    avoid: Sequence[Disc],
    anchors: Sequence[Disc],
) -> tuple[float, float] | None:
    """The nearest centre to (x, y) where a disc of radius `r` lies on the board, clear of
    every disc in `avoid` and inside every one of `anchors` (the turn-start reach: part of
    each blob's dough stays where it was); None when there is no such centre.

    The region is the anchors' common part, cut to the board and with every avoided disc
    (pushed out by `APART`) taken away. Its nearest point to (x, y) is (x, y) held to the
    board, or lies on one of its edges: nearest (x, y) on one circle, where two circles
    cross, where a circle meets a board edge, or at a corner; so those candidates find it,
    and find one whenever the region is not empty. Avoided discs that miss an anchor's
    disc cannot bound the region and add no candidates.
    """
    lo_x, hi_x, lo_y, hi_y = r, model.width - r, r, model.height - r
    rings = []
    for ox, oy, orad in avoid:
        s = r + orad + APART + APART_SLACK
        if all((ox - ax) ** 2 + (oy - ay) ** 2 < (s + rho) ** 2 for ax, ay, rho in anchors):
            rings.append((ox, oy, s))
    circles = list(anchors) + rings
    candidates = [clamp(model, x, y, r)]
    for cx, cy, rho in circles:
        candidates.append(_towards(cx, cy, rho, x, y))
        candidates += _edge_crossings(cx, cy, rho, (lo_x, hi_x, lo_y, hi_y))
    for i, a in enumerate(circles):
        for b in circles[i + 1 :]:
            candidates += circle_crossings(a, b)
    candidates += [(lo_x, lo_y), (lo_x, hi_y), (hi_x, lo_y), (hi_x, hi_y)]
    good = [
        (cx, cy)
        for cx, cy in candidates
        if lo_x - 1e-9 <= cx <= hi_x + 1e-9
        and lo_y - 1e-9 <= cy <= hi_y + 1e-9
        and inside_all(cx, cy, anchors)
        and clear(cx, cy, r, avoid)
    ]
    if not good:
        return None
    return min(good, key=lambda c: ((c[0] - x) ** 2 + (c[1] - y) ** 2, c))
