"""Octagon tiles and the octagon-square grid they are laid in.

Regular octagons with axis-aligned flat sides sit on a square grid; where four of them
meet, a small square gap (a square standing on its corner) fills the space between their
slanted sides. That is the truncated square tiling, the pattern of a tiled floor. With the
gap's side equal to the octagon's side the octagons touch; a larger gap spreads the grid so
neighbouring tiles keep a little play between their flats. Movement on such a grid is
orthogonal only: diagonal neighbours are separated by a gap square.

Rows count from the top (row 0 is the top row), columns from the left; millimetres, y up.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from shapely.geometry import Polygon

Cell = tuple[int, int]  # (row, column)

TAN_22_5 = math.sqrt(2) - 1  # side of a regular octagon per mm across flats
EPS = 1e-9


def octagon_side(across_flats: float) -> float:
    """Side of a regular octagon `across_flats` mm wide between opposite flats."""
    if across_flats <= 0:
        raise ValueError(f"an octagon needs a positive size, got {across_flats:g} mm")
    return across_flats * TAN_22_5


def octagon(cx: float, cy: float, across_flats: float) -> Polygon:
    """A regular octagon centred on (cx, cy) with flat sides facing up, down, left, right."""
    half = across_flats / 2
    s = octagon_side(across_flats) / 2
    pts = [(half, -s), (half, s), (s, half), (-s, half), (-half, s), (-half, -s), (-s, -half)]
    pts.append((s, -half))
    return Polygon([(cx + x, cy + y) for x, y in pts])


def grid_pitch(across_flats: float, gap: float) -> float:
    """Centre-to-centre distance of octagons whose square gaps have side `gap`.

    A gap square's corner-to-corner distance is gap * sqrt(2); it spans the diagonal
    between two diagonal octagons' slanted sides, so pitch * sqrt(2) = across_flats + gap.
    """
    side = octagon_side(across_flats)
    if gap < side - EPS:
        raise ValueError(
            f"a square gap of {gap:g} mm is smaller than the octagon side {side:.2f} mm: "
            "neighbouring octagons would overlap"
        )
    return (across_flats + gap) / math.sqrt(2)


def play(across_flats: float, gap: float) -> float:
    """Space between the facing flats of two neighbouring octagons (0 when they touch)."""
    return grid_pitch(across_flats, gap) - across_flats


def gap_square(cx: float, cy: float, gap: float) -> Polygon:
    """The small square of side `gap` centred on a grid corner, standing on its corner."""
    d = gap / math.sqrt(2)
    return Polygon([(cx + d, cy), (cx, cy + d), (cx - d, cy), (cx, cy - d)])


@dataclass(frozen=True)
class OctagonGrid:
    """Octagons of `across_flats` mm on a square grid of `rows` x `columns`.

    `x0, y0` is the centre of the bottom-left cell (row rows-1, column 0).
    """

    rows: int
    columns: int
    across_flats: float
    gap: float
    x0: float = 0.0
    y0: float = 0.0

    def __post_init__(self) -> None:
        if self.rows < 1 or self.columns < 1:
            raise ValueError(f"a grid needs at least one cell, got {self.rows} x {self.columns}")
        grid_pitch(self.across_flats, self.gap)  # raises for overlapping octagons

    @property
    def pitch(self) -> float:
        return grid_pitch(self.across_flats, self.gap)

    @property
    def play(self) -> float:
        return play(self.across_flats, self.gap)

    def centre(self, row: int, col: int) -> tuple[float, float]:
        return (self.x0 + col * self.pitch, self.y0 + (self.rows - 1 - row) * self.pitch)

    def cell(self, row: int, col: int) -> Polygon:
        return octagon(*self.centre(row, col), self.across_flats)

    def corner(self, row: int, col: int) -> tuple[float, float]:
        """The grid corner below-right of cell (row, col): where a gap square sits."""
        x, y = self.centre(row, col)
        return (x + self.pitch / 2, y - self.pitch / 2)

    @property
    def width(self) -> float:
        """Width over the outer flats of the first and last columns."""
        return (self.columns - 1) * self.pitch + self.across_flats

    @property
    def height(self) -> float:
        return (self.rows - 1) * self.pitch + self.across_flats


def neighbours(cell: Cell, cells: Iterable[Cell]) -> list[Cell]:
    """The cells of `cells` that share a flat side with `cell`: up, down, left, right."""
    r, c = cell
    present = set(cells)
    return [n for n in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)) if n in present]


def connected(cells: Iterable[Cell]) -> bool:
    """Can every cell be reached from every other by orthogonal steps within `cells`?"""
    todo = sorted(set(cells))
    if not todo:
        return True
    seen = {todo[0]}
    stack = [todo[0]]
    while stack:
        for n in neighbours(stack.pop(), todo):
            if n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(todo)


def gap_corners(cells: Iterable[Cell]) -> list[Cell]:
    """Grid corners that get a gap square: those with at least two of the four cells round
    them present. A corner is named by the cell above-left of it, so (r, c) lies between
    cells (r, c), (r, c+1), (r+1, c) and (r+1, c+1)."""
    present = set(cells)
    rows = [r for r, _ in present]
    cols = [c for _, c in present]
    if not present:
        return []
    out = []
    for r in range(min(rows) - 1, max(rows) + 1):
        for c in range(min(cols) - 1, max(cols) + 1):
            around = {(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)} & present
            if len(around) >= 2:
                out.append((r, c))
    return out
