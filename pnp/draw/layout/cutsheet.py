"""Cut sheets: every cut part, with its copies, nested onto a laser or cutter bed.

A cutter takes one file per bed, so 37 tiles should be one or two sheets, not 37 files.
Parts are nested on their real outlines with no-fit polygons (the set of places where one
part would touch another), placed bottom-left first: hexagons interlock in offset rows and
discs drop into each other's hollows, yet no two outlines come closer than the gap.

A part that states a wood grain (`meta['grain']`, degrees in its own drawing) is laid
with that grain along the sheet's, which runs the bed's long way (as a plywood board's
face grain runs its length): it may be turned half a turn, never a quarter.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient

from geometry.shapes import arrow
from pnp.contract.paper import get_bed
from pnp.draw.layout.impose import expand_copies
from pnp.draw.layout.page import text_bounds
from pnp.draw.prepare import AS_DRAWN, Machine, linework, prepare, with_kerf
from pnp.draw.scene import Component, Item, Shape, Style, Text, enclosed
from pnp.runtime.errors import PnpError

BED_GAP = 2.0
"""Default air between two parts' outlines: room for the kerf and a stiff web of material."""
BED_MARGIN = 5.0
"""Default border left uncut round the bed, where the material is held or clamped."""
Rotation = int  # 0, 90, 180 or 270 degrees, counter-clockwise
ROTATIONS: tuple[Rotation, ...] = (0, 90)
"""How a part without a grain may lie: as drawn or a quarter turned."""
TURNS: tuple[Rotation, ...] = (0, 90, 180, 270)
STRATEGIES: tuple[tuple[Rotation, ...], ...] = ((0,), (90,), (0, 90))
"""Each packing run: every part as drawn, every part turned, or each part as fits lowest.
Identical parts kept the same way round nest best, so the uniform runs come first."""
EPS = 1e-6
"""Positions may sit this close (mm) to touching: keeps exact fits, e.g. parts edge to edge."""
EXACT_PIECES = 32
"""A non-convex outline is nested exactly (as triangles) up to this many; above, its hull."""
CIRCLE_SEGMENTS = 16
"""Segments per quarter circle for a round outline; drawn a little outside the true circle."""
Box = tuple[float, float, float, float]
NfpCache = dict[tuple[str, Rotation, str, Rotation], BaseGeometry]


def _resolve_bed(bed: str | tuple[float, float]) -> tuple[float, float]:
    if isinstance(bed, str):
        return get_bed(bed)
    w, h = bed
    return get_bed(f"{float(w)!r}x{float(h)!r}")


@dataclass
class _Outline:
    """A part's nesting shape: what neighbours keep `gap` away from, in both rotations.

    `region` is the cut outline (holes filled) plus anything else the part carries outside
    it (labels, guides, score lines); art is clipped instead, so bleed never sets the spacing.
    `pieces` are convex vertex arrays whose union is the nesting shape, per rotation;
    `clip` is that shape grown by half the gap, the furthest a part's art may reach.
    """

    key: str
    region: BaseGeometry
    clip: BaseGeometry
    pieces: dict[Rotation, list[np.ndarray]] = field(default_factory=dict)
    shapes: dict[Rotation, BaseGeometry] = field(default_factory=dict)


@dataclass(frozen=True)
class _Part:
    component: Component
    outline: _Outline
    order: int  # place in the copies-expanded input, for stable tie-breaks
    rotations: tuple[Rotation, ...] = ROTATIONS


@dataclass(frozen=True)
class _Placed:
    part: _Part
    rotation: Rotation
    x: float
    y: float


@dataclass
class _Bed:
    """One sheet while packing: its parts and, per (outline, rotation), where one more fits."""

    placed: list[_Placed] = field(default_factory=list)
    free: dict[tuple[str, Rotation], tuple[_Outline, BaseGeometry]] = field(default_factory=dict)


def cut_sheets(
    components: list[Component],
    bed: str | tuple[float, float],
    *,
    gap: float = BED_GAP,
    margin: float = BED_MARGIN,
    machine: Machine = AS_DRAWN,
    name: str | None = None,
) -> list[Component]:
    """Every component with cut lines, `copies` times, nested onto as few beds as found,
    each sheet prepared for the `machine` (`pnp.draw.prepare`: kerf, common lines, hairline).

    Parts keep all their layers; a part is turned a quarter where that packs better. Three
    runs (all as drawn, all turned, each part free) are compared and the one with fewest
    sheets, then the lowest last sheet, wins. The gap grows to the parts' material thickness
    where they state one (`material_thickness`). A common-line machine (`gap` 0) nests
    parts on their kerf-offset outlines, edge to edge, and cuts each shared straight edge
    once; it is an option, never the default, because a shared cut leaves no web between
    parts.
    """
    width, height = _resolve_bed(bed)
    if not (math.isfinite(gap) and 0 <= gap <= 100):
        raise PnpError(f"gap between cut parts must be 0 to 100 mm, got {gap:g}")
    if not (math.isfinite(margin) and 0 <= margin and 2 * margin < min(width, height)):
        raise PnpError(f"bed margin {margin:g} mm leaves no room on a {width:g} x {height:g} bed")
    common_line = machine.common_line
    if common_line and gap != 0:
        raise PnpError(f"common-line cutting puts parts edge to edge: use gap 0, not {gap:g} mm")
    area = (margin, margin, width - margin, height - margin)
    cut = [c for c in components if c.has_cut_lines()]
    if not common_line:
        gap = max(gap, material_thickness(cut))
    grain = sheet_grain(width, height)
    parts = _parts(cut, gap, kerf=machine.kerf if common_line else 0.0, grain=grain)
    if not parts:
        return []
    nfps: NfpCache = {}
    for p in parts:
        if not any(_fit_box(p.outline, r, area) is not None for r in p.rotations):
            x0, y0, x1, y1 = p.outline.region.bounds
            raise PnpError(
                f"cut part '{p.component.name}' ({x1 - x0:.1f} x {y1 - y0:.1f} mm) does not fit "
                f"a {width:g} x {height:g} mm bed with a {margin:g} mm margin"
            )
    runs = [_pack(parts, area, gap, prefer, nfps) for prefer in STRATEGIES]
    label = name or "cut"

    def sheets(beds: list[_Bed]) -> list[Component]:
        return [
            prepare(
                _sheet(f"{label}-{n}", f"Cut sheet {n} of {len(beds)}", b, width, height, margin),
                machine,
            )
            for n, b in enumerate(beds, start=1)
        ]

    if not common_line:
        return sheets(min(runs, key=_run_cost))
    # edge to edge, the run that shares the most cut wins: the laser's time is its cut length
    merged = [sheets(beds) for beds in runs]
    costs = [
        (len(m), round(cut_length(m), 6), _run_cost(r)) for m, r in zip(merged, runs, strict=True)
    ]
    return merged[costs.index(min(costs))]


def sheet_grain(width: float, height: float) -> Rotation:
    """The sheet's grain (degrees): along the bed's long side, x on a landscape bed."""
    return 0 if width >= height else 90


def part_rotations(component: Component, grain: Rotation) -> tuple[Rotation, ...]:
    """How a part may lie on a sheet whose grain runs at `grain` degrees: with a grain of
    its own, the two ways (half a turn apart) that lay it along the sheet's; else as
    drawn or a quarter turned."""
    own = component.meta.get("grain")
    if not isinstance(own, int | float):
        return ROTATIONS
    return tuple(r for r in TURNS if round(own + r - grain) % 180 == 0)


def material_thickness(components: Sequence[Component]) -> float:
    """The thickest material among the parts (`meta['thickness']`, mm; 0 for paper and
    card, which say none). Nested parts stay at least this far apart: the strip of
    material left between two cuts is a web too, and one thinner than the stock snaps,
    chars under a laser or lets a scroll-saw blade wander into the next part."""
    values = [c.meta.get("thickness", 0.0) for c in components]
    return max((float(v) for v in values if isinstance(v, int | float)), default=0.0)


def _run_cost(beds: list[_Bed]) -> tuple[int, float, float]:
    """Fewest sheets, then the least used height on the last one (room left for more)."""
    tops = [max((_top(p) for p in b.placed), default=0.0) for b in beds]
    return (len(beds), round(tops[-1], 6), round(sum(tops), 6))


def cut_length(sheets: list[Component]) -> float:
    """Total length of the `cut` layer over some sheets (mm): what a laser spends its time on."""
    total = 0.0
    for sheet in sheets:
        for s in sheet.shapes("cut"):
            if s.radius > 0 and s.geom.geom_type == "Point":
                total += 2 * math.pi * s.radius
            else:
                total += linework(s.geom).length
    return total


def _top(p: _Placed) -> float:
    return p.y + p.part.outline.shapes[p.rotation].bounds[3]


# --- Parts and their nesting shapes -----------------------------------------------------


def _parts(
    components: list[Component], gap: float, kerf: float = 0.0, grain: Rotation = 0
) -> list[_Part]:
    """Copies expanded, biggest outline first (stable), so small parts fill the holes left.
    With a `kerf`, parts nest on their kerf-offset outlines: edge to edge, those meet.
    Each part may lie the ways `part_rotations` allows on a sheet of this grain."""
    outlines: dict[int, _Outline] = {}  # by component identity: copies share one outline
    by_key: dict[str, _Outline] = {}
    parts: list[_Part] = []
    for order, comp in enumerate(expand_copies(components)):
        if id(comp) not in outlines:
            region = part_region(with_kerf(comp, kerf))
            key = shapely.to_wkt(shapely.normalize(region), rounding_precision=6)
            if key not in by_key:
                by_key[key] = _outline(key, region, gap)
            outlines[id(comp)] = by_key[key]
        parts.append(_Part(comp, outlines[id(comp)], order, part_rotations(comp, grain)))
    return sorted(parts, key=lambda p: (-round(p.outline.region.area, 6), p.order))


def part_region(comp: Component) -> BaseGeometry:
    """What a part occupies on the bed: its closed cut outlines filled, plus every item
    but art (labels, open cuts, scores, guides, drill marks).

    Without a closed `cut` outline (inner cuts or open cuts only) the component's own
    outline stands in, so its art is not trimmed away.
    """
    closed = [s for s in comp.shapes("cut") if _encloses(s)]
    regions = [_area(s) for s in closed] or [comp.shape_outline]
    for item in comp.items:
        if isinstance(item, Text):
            regions.append(box(*text_bounds(item)))
        elif item.layer != "art" and not (item.layer == "cut" and _encloses(item)):
            regions.append(_area(item))
    return shapely.union_all([g for g in regions if not g.is_empty])


def _encloses(shape: Shape) -> bool:
    """A cut that goes all the way round: a circle, an area, a closed ring."""
    geom = shape.geom
    if geom.is_empty:
        return False
    if geom.geom_type == "Point":
        return shape.radius > 0
    if geom.geom_type in ("LineString", "LinearRing"):
        return bool(geom.is_closed) and len(geom.coords) > 3
    return geom.geom_type in ("Polygon", "MultiPolygon")


def _area(shape: Shape) -> BaseGeometry:
    """A shape as the area it takes up: rings filled, holes filled, lines a hair wide."""
    geom = shape.geom
    if geom.is_empty:
        return Polygon()
    kind = geom.geom_type
    if kind == "Point":
        return _disc(geom, shape.radius) if shape.radius > 0 else Polygon()
    if kind in ("LineString", "LinearRing") and not _encloses(shape):
        return geom.buffer(max(shape.style.stroke_width, 0.01) / 2, cap_style="flat")
    if kind in ("Polygon", "LineString", "LinearRing"):
        return enclosed(shape)
    parts = [shape.flattened(g) for g in geom.geoms]  # Multi* and collections
    return shapely.union_all([_area(p) for p in parts])


def _disc(centre: Point, radius: float) -> Polygon:
    """A polygon round a circle, its edges just outside it, so nesting never cuts into it."""
    grow = 1 / math.cos(math.pi / (4 * CIRCLE_SEGMENTS))
    return centre.buffer(radius * grow, quad_segs=CIRCLE_SEGMENTS)


def _outline(key: str, region: BaseGeometry, gap: float) -> _Outline:
    """One piece nests on its own shape; several pieces (a sticker block) on their hull."""
    shape = region if isinstance(region, Polygon) else region.convex_hull
    clip = shape.buffer(gap / 2, quad_segs=CIRCLE_SEGMENTS) if gap > 0 else shape
    out = _Outline(key, region, clip)
    for rot in TURNS:
        turned = _turn(shape, rot)
        out.shapes[rot] = turned
        out.pieces[rot] = _convex_pieces(turned)
    return out


def _convex_pieces(shape: BaseGeometry) -> list[np.ndarray]:
    """Convex parts covering the shape: itself if convex, its triangles if few, else its hull."""
    hull = shape.convex_hull
    if shape.area >= hull.area * (1 - 1e-9):
        return [_ring(hull)]
    triangles = shapely.constrained_delaunay_triangles(shape)
    if len(triangles.geoms) > EXACT_PIECES:
        return [_ring(hull)]
    return [_ring(t) for t in triangles.geoms]


def _ring(poly: BaseGeometry) -> np.ndarray:
    """A convex polygon's corners, counter-clockwise, first corner not repeated."""
    return np.asarray(orient(poly).exterior.coords)[:-1]


def _convex_sum(p: np.ndarray, q: np.ndarray) -> Polygon:
    """Minkowski sum of two convex counter-clockwise polygons: their edges merged by angle,
    walked from the sum of their lowest corners (linear time, no point clouds)."""
    p0, pe = _edges(p)
    q0, qe = _edges(q)
    steps = np.concatenate([pe, qe])
    turn = np.arctan2(steps[:, 1], steps[:, 0]) % (2 * math.pi)
    walk = (p0 + q0) + np.cumsum(steps[np.argsort(turn, kind="stable")], axis=0)
    return Polygon(np.vstack([p0 + q0, walk[:-1]]))


def _edges(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The lowest (then leftmost) corner and the edge vectors going round from it."""
    k = int(np.lexsort((v[:, 0], v[:, 1]))[0])
    v = np.roll(v, -k, axis=0)
    return v[0], np.roll(v, -1, axis=0) - v


_TURN_MATRIX: dict[Rotation, tuple[int, int, int, int]] = {
    0: (1, 0, 0, 1),
    90: (0, -1, 1, 0),
    180: (-1, 0, 0, -1),
    270: (0, 1, -1, 0),
}
"""Shapely's [a, b, d, e] for each turn counter-clockwise: exact, no cos 90 rounding."""


def _turn(geom: BaseGeometry, rot: Rotation) -> BaseGeometry:
    """Turned `rot` degrees counter-clockwise about the origin."""
    return geom if rot == 0 else affinity.affine_transform(geom, [*_TURN_MATRIX[rot], 0, 0])


# --- Packing -------------------------------------------------------------------------------


def _pack(
    parts: list[_Part], area: Box, gap: float, prefer: tuple[Rotation, ...], nfps: NfpCache
) -> list[_Bed]:
    """Bottom-left first fit: each part goes on the first sheet with room, as low as it can,
    then as far left; a new sheet opens only when no sheet has room."""
    beds: list[_Bed] = []
    for part in parts:
        fits = [r for r in part.rotations if _fit_box(part.outline, r, area) is not None]
        rotations = [r for r in prefer if r in fits] or fits
        for target in beds:
            spot = _lowest(target, part.outline, rotations, area, gap, nfps)
            if spot is not None:
                break
        else:
            target = _Bed()
            beds.append(target)
            spot = _lowest(target, part.outline, rotations, area, gap, nfps)
            assert spot is not None  # every part fits an empty bed: checked before packing
        placed = _Placed(part, *spot)
        for (key, rot), (other, free) in target.free.items():
            nfp = _nfp(part.outline, placed.rotation, other, rot, gap, nfps)
            moved = affinity.translate(nfp, placed.x, placed.y)
            target.free[(key, rot)] = (other, free.difference(moved))
        target.placed.append(placed)
    return beds


def _fit_box(outline: _Outline, rot: Rotation, area: Box) -> Box | None:
    """Where the part's origin may go so the part stays inside the area, or None."""
    x0, y0, x1, y1 = outline.shapes[rot].bounds
    lo_x, hi_x = area[0] - x0, area[2] - x1
    lo_y, hi_y = area[1] - y0, area[3] - y1
    if hi_x < lo_x - EPS or hi_y < lo_y - EPS:
        return None
    return (lo_x, lo_y, max(lo_x, hi_x), max(lo_y, hi_y))


def _lowest(
    b: _Bed,
    outline: _Outline,
    rotations: Sequence[Rotation],
    area: Box,
    gap: float,
    nfps: NfpCache,
) -> tuple[Rotation, float, float] | None:
    """The free spot whose part top is lowest, then leftmost, over the allowed rotations."""
    best: tuple[float, float, int] | None = None
    spot: tuple[Rotation, float, float] | None = None
    for rot in rotations:
        fit = _fit_box(outline, rot, area)
        if fit is None:
            continue
        free = _free(b, outline, rot, fit, gap, nfps)
        if free.is_empty:
            continue
        x, y = _bottom_left(free)
        # the EPS slack round the fit box must never push a part into the margin
        x, y = min(max(x, fit[0]), fit[2]), min(max(y, fit[1]), fit[3])
        rank = (round(y + outline.shapes[rot].bounds[3], 9), round(x, 9), rot)
        if best is None or rank < best:
            best, spot = rank, (rot, x, y)
    return spot


def _free(
    b: _Bed, outline: _Outline, rot: Rotation, fit: Box, gap: float, nfps: NfpCache
) -> BaseGeometry:
    """Where this outline's origin may go on the bed without coming near a placed part."""
    key = (outline.key, rot)
    if key not in b.free:
        x0, y0, x1, y1 = fit
        region = box(x0 - EPS, y0 - EPS, x1 + EPS, y1 + EPS)
        blocked = [
            affinity.translate(_nfp(p.part.outline, p.rotation, outline, rot, gap, nfps), p.x, p.y)
            for p in b.placed
        ]
        if blocked:
            region = region.difference(shapely.union_all(blocked))
        b.free[key] = (outline, region)
    return b.free[key][1]


def _bottom_left(region: BaseGeometry) -> tuple[float, float]:
    """The lowest corner of a region, the leftmost of equally low ones."""
    xy = shapely.get_coordinates(region)
    k = np.lexsort((xy[:, 0], np.round(xy[:, 1], 9)))[0]
    return float(xy[k, 0]), float(xy[k, 1])


def _nfp(
    a: _Outline, ra: Rotation, b: _Outline, rb: Rotation, gap: float, nfps: NfpCache
) -> BaseGeometry:
    """No-fit polygon: the origins of `b` that bring it closer than `gap` to `a` at (0, 0).

    It is a's shape swept by b's reflected shape (a Minkowski sum: the union of the sums of
    each pair of convex pieces), grown by the gap; the rounded corners of that growth are
    drawn just outside the true radius, so parts are never closer than the gap.
    """
    key = (a.key, ra, b.key, rb)
    if key not in nfps and ra == rb != 0:  # both turned alike: the unturned pair's, turned
        nfps[key] = _turn(_nfp(a, 0, b, 0, gap, nfps), ra)
    if key not in nfps:
        swept = shapely.union_all(
            [_convex_sum(pa, -pb) for pa in a.pieces[ra] for pb in b.pieces[rb]]
        )
        if gap > 0:
            # GEOS rounds a corner into whole steps of up to 1.5 quarter-circle quanta
            grow = (gap - EPS) / math.cos(3 * math.pi / (8 * CIRCLE_SEGMENTS))
            nfps[key] = swept.buffer(grow, quad_segs=CIRCLE_SEGMENTS)
        else:
            nfps[key] = swept.buffer(-EPS, join_style="mitre")
    return nfps[key]


# --- Sheets --------------------------------------------------------------------------------


def _sheet(
    name: str, title: str, b: _Bed, width: float, height: float, margin: float = BED_MARGIN
) -> Component:
    """The bed as one component: every placed part's items moved (and turned) into place,
    and, when a part lies along the grain, the sheet's grain arrow in its margin."""
    sheet = Component(name, title, width, height, imposition="cutout")
    for p in b.placed:
        sheet.add(*_placed_items(p))
    grain = sheet_grain(width, height)
    grained = any(isinstance(p.part.component.meta.get("grain"), int | float) for p in b.placed)
    if grained:
        sheet.add(*grain_mark(grain, margin))
    used = sum(p.part.outline.region.area for p in b.placed)
    sheet.meta.update(
        kind="cut-sheet",
        bed=(width, height),
        parts=[
            {"name": p.part.component.name, "x": p.x, "y": p.y, "rotation": p.rotation}
            for p in b.placed
        ],
        fill=used / (width * height),
        grain=grain,
        grained=grained,
    )
    return sheet


GRAIN_STYLE = Style(stroke="#555555", stroke_width=0.15, dash=(1.0, 1.0))
GRAIN_ARROW = 30.0  # mm


def grain_mark(grain: Rotation, margin: float) -> list[Item]:
    """The sheet's grain: a dashed arrow and the word in its margin (the guide layer, never
    cut), along the grain every part with one is laid by: set the board's grain this way."""
    mid, start, end = margin / 2, margin + GRAIN_ARROW / 2, margin + GRAIN_ARROW + 2.0
    x, y = (start, mid) if grain == 0 else (mid, start)
    shaft = arrow(x, y, GRAIN_ARROW, min(3.2, 0.8 * margin), grain)
    tx, ty = (end, mid - 0.6) if grain == 0 else (mid + 0.6, end)
    word = Text(tx, ty, "grain", 5, False, "start", GRAIN_STYLE.stroke or "", grain, "guide")
    return [Shape(shaft.exterior, "guide", GRAIN_STYLE), word]


def _placed_items(p: _Placed) -> list[Item]:
    """A part's items on the sheet; art past the part's spacing outline is trimmed off."""
    out: list[Item] = []
    for item in p.part.component.items:
        if isinstance(item, Shape) and item.layer == "art":
            clipped = _clipped(item, p.part.outline.clip)
            if clipped is None:
                continue
            item = clipped
        out.append(_moved(item, p.rotation, p.x, p.y))
    return out


def _clipped(shape: Shape, clip: BaseGeometry) -> Shape | None:
    geom = shape.geom
    if shape.radius > 0 and geom.geom_type == "Point":
        disc = geom.buffer(shape.radius, quad_segs=CIRCLE_SEGMENTS)
        if clip.contains(disc):
            return shape
        geom, shape = disc, replace(shape, radius=0.0)
    elif geom.is_empty or clip.contains(geom):
        return shape
    cut = geom.intersection(clip)
    if geom.geom_type in ("Polygon", "MultiPolygon"):
        cut = _polygons(cut)
    return None if cut.is_empty else shape.flattened(cut)


def _polygons(geom: BaseGeometry) -> BaseGeometry:
    """The areas of an overlay result (it may add stray lines and points where edges touch)."""
    parts = shapely.get_parts(geom)
    return shapely.union_all([g for g in parts if g.geom_type in ("Polygon", "MultiPolygon")])


def _moved(item: Item, rot: Rotation, x: float, y: float) -> Item:
    if rot == 0:
        return item.moved(x, y)
    a, b, d, e = _TURN_MATRIX[rot]
    if isinstance(item, Text):
        tx, ty = a * item.x + b * item.y + x, d * item.x + e * item.y + y
        return replace(item, x=tx, y=ty, rotate=(item.rotate + rot) % 360)
    return item.transformed([a, b, d, e, x, y])
