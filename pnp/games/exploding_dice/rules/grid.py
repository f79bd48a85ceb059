"""The Exploding Dice grid as ints: lines, neighbours, zones, and a die's push along a line.

Derived once from the play model; the readable rules play on it and the fast path builds
its bit-mask tables from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pnp.games.exploding_dice.params import PlayModel


@dataclass(frozen=True)
class Board:
    """Grid facts derived once from the play model: cells as ints, lines, neighbours."""

    n: int
    lines: tuple[tuple[int, ...], ...]  # per entry: cells from the far border to the entry
    neighbours: tuple[tuple[int, ...], ...]  # per cell: orthogonal neighbours
    zones: tuple[tuple[int, ...], ...]  # per zone (= colour): its cells
    starts: tuple[int, ...]  # per colour: start cell

    @classmethod
    def of(cls, model: PlayModel) -> Board:
        n = model.n

        def cell(rc: tuple[int, int]) -> int:
            return rc[0] * n + rc[1]

        nbs = []
        for r in range(n):
            for c in range(n):
                around = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
                nbs.append(tuple(cell(p) for p in around if 0 <= p[0] < n and 0 <= p[1] < n))
        return cls(
            n=n,
            lines=tuple(tuple(cell(rc) for rc in e.cells(n)) for e in model.entries),
            neighbours=tuple(nbs),
            zones=tuple(tuple(cell(rc) for rc in z) for z in model.zones),
            starts=tuple(cell(rc) for rc in model.starts),
        )


def push(
    grid: Sequence[int | None], shown: Sequence[int], line: Sequence[int], die: int, face: int
) -> tuple[list[int | None], list[int]]:
    """Slide `die` in along `line`: the line's dice end packed against the far border in
    their old order, the new die last. Returns new grid and faces; the inputs are kept."""
    group = [(grid[c], shown[c]) for c in line if grid[c] is not None] + [(die, face)]
    new_grid, new_shown = list(grid), list(shown)
    for k, c in enumerate(line):
        new_grid[c], new_shown[c] = group[k] if k < len(group) else (None, 0)
    return new_grid, new_shown
