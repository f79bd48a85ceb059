"""A hexagon-shaped board of hexagonal spaces, in axial coordinates.

Topology (cells, neighbours, corners, start spaces, the start colouring) is in axial
coordinates (q, r) with s = -q - r, so the rules engine and the drawing read the same
facts; positions are millimetres with y pointing up, as the scene has them.

The conventions are pinned by the Building Community spec so two implementations can be
compared move by move: the direction order below, corner i = R * d_i, the start space of
corner i = (R - 1) * d_i, and cells listed row by row (r ascending, then q ascending).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    # shapely is imported where a shape is made: the rules read this module without it
    from shapely.geometry import Polygon

Hex = tuple[int, int]
Orientation = Literal["flat", "pointy"]

# d0 .. d5, counter-clockwise from "east" when drawn pointy-top with y up.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

# Which corners the pawns start next to, per player count (the spec's table).
START_CORNERS: dict[int, tuple[int, ...]] = {
    2: (0, 3),
    3: (0, 2, 4),
    4: (0, 1, 3, 4),
    5: (0, 1, 2, 3, 4),
    6: (0, 1, 2, 3, 4, 5),
}

SQRT3 = math.sqrt(3.0)


def length(cell: Hex) -> int:
    """Steps from the centre: max(|q|, |r|, |s|)."""
    q, r = cell
    return max(abs(q), abs(r), abs(q + r))


def distance(a: Hex, b: Hex) -> int:
    return length((a[0] - b[0], a[1] - b[1]))


def on_board(cell: Hex, radius: int) -> bool:
    return length(cell) <= radius


def board(radius: int) -> tuple[Hex, ...]:
    """Every cell of the board, row by row (r ascending), each row by q ascending.

    This order is the board's cell numbering: index i in this tuple is cell i.
    """
    if radius < 0:
        raise ValueError(f"radius must not be negative, got {radius}")
    return tuple(
        (q, r)
        for r in range(-radius, radius + 1)
        for q in range(max(-radius, -r - radius), min(radius, radius - r) + 1)
    )


def cell_count(radius: int) -> int:
    """3R(R+1) + 1 spaces."""
    return 3 * radius * (radius + 1) + 1


def step(cell: Hex, direction: int, times: int = 1) -> Hex:
    dq, dr = DIRECTIONS[direction]
    return cell[0] + dq * times, cell[1] + dr * times


def neighbours(cell: Hex, radius: int | None = None) -> tuple[Hex, ...]:
    """The six neighbours in direction order; on a board of `radius`, only those on it."""
    out = tuple(step(cell, d) for d in range(6))
    return out if radius is None else tuple(c for c in out if on_board(c, radius))


def ring(k: int) -> tuple[Hex, ...]:
    """The cells at distance k from the centre, counter-clockwise from k * d0.

    From corner k * d_i the ring walks k steps along d_(i+2) to the next corner.
    """
    if k == 0:
        return ((0, 0),)
    out = []
    for i in range(6):
        cell = step((0, 0), i, k)
        for j in range(k):
            out.append(step(cell, (i + 2) % 6, j))
    return tuple(out)


def rings(radius: int) -> tuple[tuple[Hex, ...], ...]:
    return tuple(ring(k) for k in range(radius + 1))


def corners(radius: int) -> tuple[Hex, ...]:
    """Corner i is radius * d_i."""
    return tuple(step((0, 0), i, radius) for i in range(6))


def start_spaces(radius: int, players: int) -> tuple[Hex, ...]:
    """Pawn k's start: one step in from the k-th corner of the player count's list."""
    if players not in START_CORNERS:
        raise ValueError(f"the board has start spaces for 2 to 6 players, got {players}")
    if radius < 2:
        raise ValueError(f"start spaces need a radius of at least 2, got {radius}")
    return tuple(step((0, 0), i, radius - 1) for i in START_CORNERS[players])


def start_colour(cell: Hex) -> int:
    """(q - r) mod 3: neighbours always differ, so every tile starts isolated."""
    return (cell[0] - cell[1]) % 3


def colour_counts(radius: int) -> tuple[int, int, int]:
    """How many tiles of each start colour the board takes."""
    counts = [0, 0, 0]
    for cell in board(radius):
        counts[start_colour(cell)] += 1
    return counts[0], counts[1], counts[2]


def centre(cell: Hex, pitch: float, orientation: Orientation = "pointy") -> tuple[float, float]:
    """Centre of a space in mm, y up, the board's centre at the origin.

    `pitch` is the distance between neighbouring centres (the space's size across flats).
    Pointy-top, direction d_i points at 60 * i degrees; flat-top, at 60 * i + 30 degrees.
    """
    q, r = cell
    if orientation == "pointy":
        return pitch * (q + r / 2), -pitch * SQRT3 / 2 * r
    if orientation == "flat":
        return pitch * SQRT3 / 2 * (q + r), pitch * (q - r) / 2
    raise ValueError(f"unknown orientation {orientation!r}: choose flat or pointy")


def hex_corners(
    across_flats: float,
    orientation: Orientation = "pointy",
    cx: float = 0.0,
    cy: float = 0.0,
) -> tuple[tuple[float, float], ...]:
    """The six corners of a hexagon, counter-clockwise; pointy-top has a corner at 90 deg."""
    if across_flats <= 0:
        raise ValueError(f"a hexagon needs a positive size, got {across_flats}")
    if orientation not in ("flat", "pointy"):
        raise ValueError(f"unknown orientation {orientation!r}: choose flat or pointy")
    radius = across_flats / SQRT3  # centre to corner
    first = 30.0 if orientation == "pointy" else 0.0
    return tuple(
        (
            cx + radius * math.cos(math.radians(first + 60 * k)),
            cy + radius * math.sin(math.radians(first + 60 * k)),
        )
        for k in range(6)
    )


def hexagon(
    across_flats: float,
    orientation: Orientation = "pointy",
    cx: float = 0.0,
    cy: float = 0.0,
) -> Polygon:
    from shapely.geometry import Polygon

    return Polygon(hex_corners(across_flats, orientation, cx, cy))
