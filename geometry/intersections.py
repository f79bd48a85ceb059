"""The Exploding Dice grid: dice sit on line crossings of an n x n grid.

Topology (entries, zones, start points) is given in grid indices so the rules engine and
the board drawing read the same facts; positions are millimetres for the drawing.
Row 0 is the top row, column 0 the left column.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    # shapely is imported where a shape is made: the rules read this module without it
    from shapely.geometry import LineString, Polygon

Side = Literal["N", "E", "S", "W"]
SIDES: tuple[Side, ...] = ("N", "E", "S", "W")
_CLOCKWISE: dict[Side, Side] = {"W": "N", "N": "E", "E": "S", "S": "W"}
ArrowMode = Literal["all", "pinwheel"]


@dataclass(frozen=True)
class Entry:
    """Where a die enters: from `side`, along row (W/E) or column (N/S) `index`.

    A die entering from W travels east, so the dice of that row end packed against the
    east border; the new die is the last of the packed group.
    """

    side: Side
    index: int

    @property
    def axis(self) -> Literal["row", "col"]:
        return "row" if self.side in ("W", "E") else "col"

    def cells(self, n: int) -> tuple[tuple[int, int], ...]:
        """The line's intersections from the far border back to the entry side."""
        i = self.index
        if self.side == "W":
            return tuple((i, c) for c in range(n - 1, -1, -1))
        if self.side == "E":
            return tuple((i, c) for c in range(n))
        if self.side == "N":
            return tuple((r, i) for r in range(n - 1, -1, -1))
        return tuple((r, i) for r in range(n))


def quarter_turn(entry: Entry, n: int) -> Entry:
    """Rotate an entry a quarter turn clockwise: cell (r, c) goes to (c, n-1-r)."""
    index = n - 1 - entry.index if entry.side in ("W", "E") else entry.index
    return Entry(_CLOCKWISE[entry.side], index)


def entries(n: int, mode: ArrowMode = "all") -> tuple[Entry, ...]:
    """Every legal entry point. `all`: both ends of every line (4n entries).

    `pinwheel`: each line from one end only (2n entries), chosen so a quarter turn of the
    board maps the set onto itself: the top half of the rows enter from the west, the
    bottom half from the east, the right half of the columns from the north, the left
    half from the south.
    """
    if mode == "all":
        return tuple(Entry(s, i) for s in SIDES for i in range(n))
    if mode == "pinwheel":
        h = n // 2
        out = [Entry("N", i) for i in range(n - h, n)]
        out += [Entry("E", i) for i in range(n - h, n)]
        out += [Entry("S", i) for i in range(h)]
        out += [Entry("W", i) for i in range(h)]
        return tuple(out)
    raise ValueError(f"unknown arrow mode {mode!r}")


def zone_of(n: int, r: int, c: int) -> int:
    """Zone index of a cell: 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left."""
    h = n // 2
    top, left = r < h, c < h
    if top:
        return 0 if left else 1
    return 3 if left else 2


def zone_cells(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    return tuple(
        tuple((r, c) for r in range(n) for c in range(n) if zone_of(n, r, c) == z) for z in range(4)
    )


def start_points(n: int) -> tuple[tuple[int, int], ...]:
    """Each zone's outer corner: the board's four corners, in zone order."""
    return ((0, 0), (0, n - 1), (n - 1, n - 1), (n - 1, 0))


# --- millimetre geometry -------------------------------------------------------------


@dataclass(frozen=True)
class GridLayout:
    """Millimetre layout of the board: grid lines, dice footprint and arrow band."""

    n: int
    die: float
    clearance: float
    arrow_band: float

    @property
    def pitch(self) -> float:
        return self.die + self.clearance

    @property
    def grid_span(self) -> float:
        return (self.n - 1) * self.pitch

    @property
    def dice_span(self) -> float:
        """Width covered by dice on the outer intersections."""
        return self.grid_span + self.die

    @property
    def size(self) -> float:
        return self.dice_span + 2 * self.clearance + 2 * self.arrow_band

    @property
    def origin(self) -> float:
        """x (and y) of intersection column 0 (row n-1) measured from the board edge."""
        return (self.size - self.grid_span) / 2

    def point(self, r: int, c: int) -> tuple[float, float]:
        """Centre of intersection (r, c) in board mm, y up."""
        return (self.origin + c * self.pitch, self.origin + (self.n - 1 - r) * self.pitch)


def grid_layout(n: int, die: float, clearance: float = 3.0) -> GridLayout:
    band = max(7.0, 0.6 * die)
    return GridLayout(n, die, clearance, band)


def grid_lines(g: GridLayout, overrun: float | None = None) -> list[LineString]:
    """Row and column lines, running a little past the outer intersections."""
    from shapely.geometry import LineString

    o = g.die / 2 + g.clearance / 2 if overrun is None else overrun
    lo, hi = g.origin - o, g.origin + g.grid_span + o
    lines = []
    for i in range(g.n):
        v = g.origin + i * g.pitch
        lines.append(LineString([(lo, v), (hi, v)]))
        lines.append(LineString([(v, lo), (v, hi)]))
    return lines


def zone_rect(g: GridLayout, zone: int) -> Polygon:
    """The quadrant a zone covers, from the board centre to the dice area's edge."""
    from shapely.geometry import Polygon

    mid = g.size / 2
    lo = g.origin - g.die / 2 - g.clearance / 2
    hi = g.origin + g.grid_span + g.die / 2 + g.clearance / 2
    x0, x1 = (lo, mid) if zone in (0, 3) else (mid, hi)
    y0, y1 = (mid, hi) if zone in (0, 1) else (lo, mid)
    return Polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])


def entry_anchor(g: GridLayout, e: Entry) -> tuple[float, float, float]:
    """Centre of an entry's arrow in the border band and its direction in degrees."""
    band_mid = g.arrow_band / 2
    if e.side in ("W", "E"):
        _, y = g.point(e.index, 0)
        return (band_mid, y, 0.0) if e.side == "W" else (g.size - band_mid, y, 180.0)
    x, _ = g.point(0, e.index)
    return (x, g.size - band_mid, 270.0) if e.side == "N" else (x, band_mid, 90.0)
