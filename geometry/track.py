"""The Parcheesi cross: a 68-space track, four home strips, a central home, four nests.

One numbering serves the rules and the print, so the track space the engine calls i is
the space printed as i. Nodes: track spaces 0-67 in the direction of travel, then the
strip spaces of colour k (68 + 7k ... 68 + 7k + 6, in the order a pawn walks them), then
the home, then the nest of each colour. Colour k enters on 17k + 5 and leaves the track
into its strip after 17k; the safe spaces are 17k, 17k + 5 and 17k + 12.

Shapes are millimetres, y up, origin at the board's bottom-left corner (the scene's
convention). Arm k is the south arm turned k quarter turns counter-clockwise, so travel
runs counter-clockwise seen from above: down an arm's west column, across its end, up its
east column, then diagonally across the inner corner onto the next arm. Colour k's home
strip is the middle column of arm k and its nest the corner on the east side of arm k,
next to its entry space (on its player's right, with the entry to the nest's left).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    # shapely is imported where a shape is made: the rules read this module without it
    from shapely.geometry import Polygon

COLOURS = 4
PER_ARM = 17
TRACK_SPACES = COLOURS * PER_ARM  # 68
COLUMN = 8  # spaces in one column of an arm
STRIP_SPACES = 7
ENTRY_OFFSET = 5  # colour k enters on 17k + 5
SAFE_OFFSETS = (0, 5, 12)
HOME = TRACK_SPACES + COLOURS * STRIP_SPACES  # node 96
COLUMN_FRACTION = 0.085  # an arm column's width as a fraction of the board side

NodeKind = Literal["track", "strip", "home", "nest"]


# --- the graph --------------------------------------------------------------------------


def entry_space(colour: int) -> int:
    return PER_ARM * colour + ENTRY_OFFSET


def home_entry_space(colour: int) -> int:
    """The last track space a pawn of `colour` visits before its strip."""
    return PER_ARM * colour


def strip_node(colour: int, j: int) -> int:
    """Strip space j (0 = first after the track, 6 = last before home) of `colour`."""
    return TRACK_SPACES + STRIP_SPACES * colour + j


def nest_node(colour: int) -> int:
    return HOME + 1 + colour


NODES = HOME + 1 + COLOURS
SAFE_SPACES: tuple[int, ...] = tuple(
    sorted(PER_ARM * k + o for k in range(COLOURS) for o in SAFE_OFFSETS)
)


def kind(node: int) -> NodeKind:
    if node < TRACK_SPACES:
        return "track"
    if node < HOME:
        return "strip"
    return "home" if node == HOME else "nest"


def is_safe(node: int) -> bool:
    """Ringed track spaces; strip spaces need no ring (only their own colour walks them)."""
    return node in SAFE_SPACES


def next_node(node: int, colour: int) -> int:
    """The node a pawn of `colour` reaches from `node` with one step forward."""
    k = kind(node)
    if k == "nest":
        if node != nest_node(colour):
            raise ValueError(f"a pawn of colour {colour} is never in nest node {node}")
        return entry_space(colour)
    if k == "track":
        if node == home_entry_space(colour):
            return strip_node(colour, 0)
        return (node + 1) % TRACK_SPACES
    if k == "strip":
        owner, j = divmod(node - TRACK_SPACES, STRIP_SPACES)
        if owner != colour:
            raise ValueError(f"a pawn of colour {colour} never walks colour {owner}'s strip")
        return HOME if j == STRIP_SPACES - 1 else node + 1
    raise ValueError("a pawn at home does not move")


def path(colour: int) -> tuple[int, ...]:
    """The nodes a pawn of `colour` visits from its entry space to home, both included."""
    nodes = [entry_space(colour)]
    while nodes[-1] != HOME:
        nodes.append(next_node(nodes[-1], colour))
    return tuple(nodes)


# --- the shapes -------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """Board measures: `column` is an arm column's width (across the arm), `step` a
    space's length along its column, `arm` an arm's length (8 steps)."""

    size: float
    column: float
    step: float
    arm: float

    @property
    def centre(self) -> float:
        return self.size / 2


def layout(size: float) -> Layout:
    if size <= 0:
        raise ValueError(f"board size must be positive, got {size}")
    column = size * COLUMN_FRACTION
    arm = (size - 3 * column) / 2
    return Layout(size, column, arm / COLUMN, arm)


def space_dimensions(size: float) -> tuple[float, float]:
    """(short, long) sides of every track and strip space: along and across the column."""
    g = layout(size)
    return min(g.step, g.column), max(g.step, g.column)


def smallest_space(size: float) -> float:
    """The largest pawn base (diameter, mm) that fits inside every space."""
    return space_dimensions(size)[0]


@dataclass(frozen=True)
class Space:
    """One printed space. `colour` is the strip's owner, or on the track the colour whose
    entry space this is (None elsewhere); `angle` is the direction of travel, degrees."""

    node: int
    kind: NodeKind
    colour: int | None
    safe: bool
    polygon: Polygon
    centre: tuple[float, float]
    angle: float


@dataclass(frozen=True)
class Arrow:
    """A direction-of-travel mark: centre, pointing `angle` degrees (0 = +x)."""

    x: float
    y: float
    angle: float
    kind: Literal["end", "corner", "strip"]
    colour: int | None = None


def _polygon(points: list[tuple[float, float]]) -> Polygon:
    from shapely.geometry import Polygon

    return Polygon(points)


def _turn(g: Layout, x: float, y: float, quarter: int) -> tuple[float, float]:
    """Rotate (x, y) by `quarter` quarter turns counter-clockwise about the centre."""
    c = g.centre
    dx, dy = x - c, y - c
    for _ in range(quarter % 4):
        dx, dy = -dy, dx
    return c + dx, c + dy


def _cell(g: Layout, arm: int, col: int, row: int) -> tuple[Polygon, tuple[float, float]]:
    """Column `col` (0 west, 1 middle, 2 east, in the south arm's frame) and row `row`
    (0 next to the centre, 7 at the board's edge) of arm `arm`."""
    x0 = g.arm + col * g.column
    y1 = g.arm - row * g.step
    corners = [(x0, y1 - g.step), (x0 + g.column, y1 - g.step), (x0 + g.column, y1), (x0, y1)]
    centre = (x0 + g.column / 2, y1 - g.step / 2)
    return _polygon([_turn(g, x, y, arm) for x, y in corners]), _turn(g, *centre, arm)


def spaces(size: float) -> tuple[Space, ...]:
    """Every track and strip space, indexed by node: `spaces(s)[i].node == i`."""
    g = layout(size)
    entries = {entry_space(k): k for k in range(COLOURS)}
    found: dict[int, Space] = {}
    for k in range(COLOURS):
        south = 90.0 * k
        cells = [(home_entry_space(k), 1, COLUMN - 1, south)]  # (node, column, row, travel)
        for row in range(COLUMN):
            cells.append(((PER_ARM * k - COLUMN + row) % TRACK_SPACES, 0, row, south - 90))
            cells.append((PER_ARM * k + COLUMN - row, 2, row, south + 90))
        cells += [(strip_node(k, j), 1, COLUMN - 2 - j, south + 90) for j in range(STRIP_SPACES)]
        for node, col, row, angle in cells:
            poly, centre = _cell(g, k, col, row)
            colour = k if kind(node) == "strip" else entries.get(node)
            found[node] = Space(node, kind(node), colour, is_safe(node), poly, centre, angle % 360)
    return tuple(found[n] for n in range(HOME))


def home_area(size: float) -> Polygon:
    """The central home square."""
    g = layout(size)
    a, b = g.arm, g.arm + 3 * g.column
    return _polygon([(a, a), (b, a), (b, b), (a, b)])


def home_triangle(size: float, colour: int) -> Polygon:
    """The quarter of home that colour's strip leads into."""
    g = layout(size)
    a, b = g.arm, g.arm + 3 * g.column
    pts = [(a, a), (b, a), (g.centre, g.centre)]
    return _polygon([_turn(g, x, y, colour) for x, y in pts])


def nest(size: float, colour: int) -> Polygon:
    """The corner square of `colour`: east of its arm, beside its entry space."""
    g = layout(size)
    x0 = g.arm + 3 * g.column
    pts = [(x0, 0.0), (g.size, 0.0), (g.size, g.arm), (x0, g.arm)]
    return _polygon([_turn(g, x, y, colour) for x, y in pts])


def nest_slots(size: float, colour: int) -> tuple[tuple[float, float], ...]:
    """Four pawn places in `colour`'s nest, a 2 x 2 square around the nest's centre."""
    g = layout(size)
    cx = g.arm + 3 * g.column + g.arm / 2
    cy = g.arm / 2
    d = g.arm / 5
    pts = [(cx - d, cy + d), (cx + d, cy + d), (cx - d, cy - d), (cx + d, cy - d)]
    return tuple(_turn(g, x, y, colour) for x, y in pts)


def arrows(size: float) -> tuple[Arrow, ...]:
    """Where travel turns: across each arm's end space, over each inner corner, and from
    each end space into its colour's strip."""
    g = layout(size)
    sp = spaces(size)
    out = []
    for k in range(COLOURS):
        end = sp[home_entry_space(k)]
        out.append(Arrow(*end.centre, end.angle, "end"))
        a = sp[PER_ARM * k + COLUMN].centre
        b = sp[PER_ARM * k + COLUMN + 1].centre
        angle = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360
        out.append(Arrow((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, angle, "corner"))
        x, y = _turn(g, g.centre, g.step, k)
        out.append(Arrow(x, y, (90.0 * k + 90) % 360, "strip", k))
    return tuple(out)
