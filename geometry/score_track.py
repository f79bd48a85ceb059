"""A serpentine score track: numbered cells laid out row by row, turning at each end."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TrackCell:
    value: int
    x: float  # centre, mm
    y: float
    size: float


def serpentine(
    first: int, last: int, per_row: int, cell: float, x0: float, y_top: float, gap: float = 0.0
) -> list[TrackCell]:
    """Cells `first`..`last`, `per_row` to a row, boustrophedon so each step is to a neighbour.

    Row 0 runs left to right at the top; the next runs right to left below it, and so on.
    """
    if per_row < 1 or cell <= 0:
        raise ValueError("a track needs at least one cell per row and a positive cell size")
    cells = []
    step = cell + gap
    for k, value in enumerate(range(first, last + 1)):
        row, col = divmod(k, per_row)
        if row % 2:
            col = per_row - 1 - col
        cells.append(
            TrackCell(value, x0 + col * step + cell / 2, y_top - row * step - cell / 2, cell)
        )
    return cells
