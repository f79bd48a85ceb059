"""Dice geometry: pip layouts, sticker sizes and a foldable cube net with glue tabs.

Pure functions, millimetres in, shapely out. A cube net is a set of unit cells on a grid;
folding it is computed (not tabulated), so the glue-tab pairing and the opposite faces come
from the same fold that a user makes with the paper.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from shapely import affinity
from shapely.geometry import LineString, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from geometry.curves import Curve
from geometry.shapes import centred_rounded_rect, centred_rounded_rect_curve, symbol, union_of

# --- pips -----------------------------------------------------------------------------

PIP_GRID: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, 1), (1, -1)),
    3: ((-1, 1), (0, 0), (1, -1)),
    4: ((-1, 1), (1, 1), (-1, -1), (1, -1)),
    5: ((-1, 1), (1, 1), (0, 0), (-1, -1), (1, -1)),
    6: ((-1, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (1, -1)),
}
"""Standard pip places on a 3 x 3 lattice, (column, row) in -1..1, row +1 at the top."""

PIP_SPACING = 0.27  # lattice step as a fraction of the face: pips clear the rounded edges
PIP_SIZE = 0.2  # a pip's box as a fraction of the face
ONE_PIP_SCALE = 1.45  # a lone pip is drawn larger, as on most real dice
SYMBOL_PIP_SCALE = {"triangle": 1.2, "diamond": 1.15, "star": 1.25}
"""Pointed symbols fill less of their box than a circle; enlarge them so pips weigh the same."""


def pip_centres(value: int, cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    """Pip centres for `value` on a face of side `size` centred on (cx, cy)."""
    if value not in PIP_GRID:
        raise ValueError(f"pip faces show 1 to 6, got {value}")
    step = PIP_SPACING * size
    return [(cx + i * step, cy + j * step) for i, j in PIP_GRID[value]]


def pip_size(value: int, size: float, kind: str = "circle") -> float:
    """Side of the box one pip fills: a fixed share of the face, larger for a lone pip."""
    lone = ONE_PIP_SCALE if value == 1 else 1.0
    return PIP_SIZE * size * lone * SYMBOL_PIP_SCALE.get(kind, 1.0)


def pips(value: int, cx: float, cy: float, size: float, kind: str = "circle") -> list[Polygon]:
    """The pips of one face, each drawn as the colour's symbol so greyscale prints stay apart."""
    d = pip_size(value, size, kind)
    return [symbol(kind, x, y, d) for x, y in pip_centres(value, cx, cy, size)]


def sticker_size(die: float, margin: float) -> float:
    """Side of a sticker for a die of side `die`: the face less the rounded edges."""
    if die <= 0:
        raise ValueError(f"die size must be positive, got {die:g} mm")
    if margin < 0 or margin >= die / 2:
        raise ValueError(f"sticker margin must be in [0, {die / 2:g}) mm, got {margin:g} mm")
    return die - margin


def sticker_outline(cx: float, cy: float, side: float) -> Polygon:
    """A sticker's kiss-cut line: a square with small rounded corners (no peeling points)."""
    return centred_rounded_rect(cx, cy, side, side, sticker_radius(side))


def sticker_curve(cx: float, cy: float, side: float) -> Curve:
    """The sticker's kiss-cut line as its true curve (quarter arcs at the corners)."""
    return centred_rounded_rect_curve(cx, cy, side, side, sticker_radius(side))


def sticker_radius(side: float) -> float:
    return min(1.2, 0.12 * side)


# --- cube nets --------------------------------------------------------------------------

Cell = tuple[int, int]
Vec = tuple[int, int, int]
Edge3 = frozenset[Vec]

CROSS: tuple[Cell, ...] = ((1, 1), (1, 2), (0, 1), (2, 1), (1, 0), (3, 1))
"""The cross net, cells as (column, row) with row 0 at the bottom, in slot order:
front, top, left, right, bottom, back. Slot i is opposite slot 5 - i once folded, and
front, top, left run counterclockwise round their shared corner (a right-handed die)."""

CROSS_TAB_RANK: tuple[int, ...] = (1, 0, 2, 3, 0, 4)
"""Which of two edges that meet carries the glue tab: the one on the higher-ranked cell.
The lids (top, bottom) get none, so the side ring closes first and the lids glue onto it."""

SIDES: dict[str, tuple[Cell, Cell, Cell]] = {
    # side: (neighbour offset, first corner, second corner) in cell-local corner units
    "E": ((1, 0), (1, 0), (1, 1)),
    "N": ((0, 1), (1, 1), (0, 1)),
    "W": ((-1, 0), (0, 1), (0, 0)),
    "S": ((0, -1), (0, 0), (1, 0)),
}


def _add(a: Vec, b: Vec) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _neg(a: Vec) -> Vec:
    return (-a[0], -a[1], -a[2])


@dataclass(frozen=True)
class _Frame:
    """Where a flat cell lands on the unit cube: origin corner, column/row axes, normal."""

    o: Vec
    u: Vec
    v: Vec
    n: Vec

    def at(self, a: int, b: int) -> Vec:
        return (
            self.o[0] + a * self.u[0] + b * self.v[0],
            self.o[1] + a * self.u[1] + b * self.v[1],
            self.o[2] + a * self.u[2] + b * self.v[2],
        )

    def step(self, side: str) -> _Frame:
        """The neighbour's frame after folding it away from the printed side by 90 degrees."""
        o, u, v, n = self.o, self.u, self.v, self.n
        inward = _neg(n)
        if side == "E":
            return _Frame(_add(o, u), inward, v, u)
        if side == "W":
            return _Frame(_add(o, inward), n, v, _neg(u))
        if side == "N":
            return _Frame(_add(o, v), u, inward, v)
        return _Frame(_add(o, inward), u, n, _neg(v))


@dataclass(frozen=True)
class Fold:
    """A net folded onto the unit cube: each cell's outward normal, and which boundary
    edges (cell, side) meet once folded (the pairs that need glue)."""

    normals: tuple[Vec, ...]
    folds: tuple[tuple[int, str, int], ...]  # (cell, side, neighbour cell) in the flat net
    seams: tuple[tuple[tuple[int, str], tuple[int, str]], ...]


def fold_net(cells: Sequence[Cell]) -> Fold:
    """Fold a net of six grid cells into a cube, printed side out.

    Raises ValueError unless the cells are a connected tree of six squares that closes
    into a cube without overlaps.
    """
    index = {c: i for i, c in enumerate(cells)}
    if len(index) != 6 or len(cells) != 6:
        raise ValueError("a cube net has six different cells")
    frames: dict[int, _Frame] = {0: _Frame((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1))}
    folds: list[tuple[int, str, int]] = []
    todo = [0]
    while todo:
        i = todo.pop(0)
        c = cells[i]
        for side, (off, _, _) in SIDES.items():
            j = index.get((c[0] + off[0], c[1] + off[1]))
            if j is None:
                continue
            if j not in frames:
                frames[j] = frames[i].step(side)
                todo.append(j)
            if i < j:
                folds.append((i, side, j))
    if len(frames) != 6:
        raise ValueError("the net's cells are not connected")
    normals = tuple(frames[i].n for i in range(6))
    if len(set(normals)) != 6:
        raise ValueError("the net does not fold into a cube: two faces overlap")
    if len(folds) != 5:
        raise ValueError("a cube net folds along exactly five edges")
    edges: dict[Edge3, list[tuple[int, str]]] = {}
    for i, c in enumerate(cells):
        for side, (off, p, q) in SIDES.items():
            if (c[0] + off[0], c[1] + off[1]) in index:
                continue
            key = frozenset((frames[i].at(*p), frames[i].at(*q)))
            edges.setdefault(key, []).append((i, side))
    pairs = list(edges.values())
    if len(pairs) != 7 or any(len(s) != 2 for s in pairs):
        raise ValueError("the net's free edges do not pair up into seven cube edges")
    return Fold(normals, tuple(folds), tuple((a, b) for a, b in pairs))


def opposite_slots(cells: Sequence[Cell] = CROSS) -> list[tuple[int, int]]:
    """Pairs of cell indices that end up on opposite faces of the cube."""
    n = fold_net(cells).normals
    return [(i, j) for i in range(6) for j in range(i + 1, 6) if n[i] == _neg(n[j])]


def arrange_faces(values: Sequence[int]) -> tuple[int, ...]:
    """Order six face values for the net's slots: the k-th smallest opposite the k-th
    largest, so a standard die gets opposite faces summing to 7 (and 1-2-3 counterclockwise)."""
    if len(values) != 6:
        raise ValueError(f"a cube has six faces, got {len(values)} values")
    return tuple(sorted(values))


@dataclass(frozen=True)
class CubeNet:
    """A cut-out paper die. `faces` are in slot order (slot i opposite slot 5 - i for the
    cross); `outline` is faces + tabs as one closed polygon; folds are dashed score lines."""

    size: float
    tab: float
    faces: tuple[Polygon, ...]
    tabs: tuple[Polygon, ...]
    outline: Polygon
    face_folds: tuple[LineString, ...]
    tab_folds: tuple[LineString, ...]
    width: float
    height: float


def default_tab(size: float) -> float:
    """Glue-tab depth: wide enough to hold glue, never more than a third of the face."""
    return min(max(0.3 * size, 3.0), 6.0, size / 3)


def glue_tab(p: tuple[float, float], q: tuple[float, float], depth: float) -> Polygon:
    """A trapezoid on edge p->q, on its right-hand side (outside a counterclockwise cell),
    with 45-degree ends so tabs on neighbouring edges never overlap."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = (dx * dx + dy * dy) ** 0.5
    if not 0 < depth < length / 2:
        raise ValueError(f"glue tab depth must be in (0, {length / 2:g}) mm, got {depth:g} mm")
    ux, uy = dx / length, dy / length
    nx, ny = uy, -ux  # right-hand normal
    a = (p[0] + depth * (ux + nx), p[1] + depth * (uy + ny))
    b = (q[0] + depth * (-ux + nx), q[1] + depth * (-uy + ny))
    return Polygon([p, q, b, a])


def cube_net(
    size: float,
    tab: float | None = None,
    cells: Sequence[Cell] = CROSS,
    tab_rank: Sequence[int] = CROSS_TAB_RANK,
) -> CubeNet:
    """A cube net of `size` mm faces with one glue tab on each of the seven seams.

    The bounding box of faces and tabs starts at (0, 0). Raises ValueError when the
    tabs would overlap a face or each other.
    """
    if size <= 0:
        raise ValueError(f"die size must be positive, got {size:g} mm")
    depth = default_tab(size) if tab is None else tab
    fold = fold_net(cells)
    sq = [box(c * size, r * size, (c + 1) * size, (r + 1) * size) for c, r in cells]

    def edge(i: int, side: str) -> tuple[tuple[float, float], tuple[float, float]]:
        (_, p, q), (c, r) = SIDES[side], cells[i]
        return ((c + p[0]) * size, (r + p[1]) * size), ((c + q[0]) * size, (r + q[1]) * size)

    tabs: list[Polygon] = []
    tab_lines: list[LineString] = []
    for a, b in fold.seams:
        i, side = a if tab_rank[a[0]] >= tab_rank[b[0]] else b
        p, q = edge(i, side)
        tabs.append(glue_tab(p, q, depth))
        tab_lines.append(LineString([p, q]))
    body = unary_union(sq)
    for k, t in enumerate(tabs):
        others: BaseGeometry = unary_union([body, *tabs[:k], *tabs[k + 1 :]])
        if t.intersection(others).area > 1e-9:
            raise ValueError("glue tabs overlap the net: choose a smaller tab")
    outline = union_of([body, *tabs], "die net")
    if list(outline.interiors):
        raise ValueError("the net's outline is not one simple polygon")
    minx, miny, maxx, maxy = outline.bounds
    face_lines = [LineString(edge(i, side)) for i, side, _ in fold.folds]

    def shift(g: BaseGeometry) -> BaseGeometry:
        return affinity.translate(g, -minx, -miny)

    return CubeNet(
        size=size,
        tab=depth,
        faces=tuple(shift(s) for s in sq),
        tabs=tuple(shift(t) for t in tabs),
        outline=shift(outline.simplify(0)),
        face_folds=tuple(shift(s) for s in face_lines),
        tab_folds=tuple(shift(s) for s in tab_lines),
        width=maxx - minx,
        height=maxy - miny,
    )
