"""The play model: the board the rules engines and the solver read, as int tables.

Derived from the same params that print, so the simulated board is the printed one.
Cells are ints in `geometry.hexgrid.board` order (row by row, r then q ascending); the
model does not depend on the player count (every corner's start space is kept).
"""

from __future__ import annotations

from dataclasses import dataclass

from geometry import hexgrid
from pnp.contract.params import validate_params
from pnp.games.building_community.params import BuildingCommunityParams, validate
from pnp.runtime.errors import PnpError

MIN_PLAYERS = 2
MAX_PLAYERS = 6


@dataclass(frozen=True)
class PlayModel:
    """Everything a game needs: a picklable, hashable record of int tables."""

    radius: int
    cells: tuple[hexgrid.Hex, ...]  # cell i is cells[i]
    neighbours: tuple[tuple[int, ...], ...]  # per cell: on-board neighbours, direction order
    around: tuple[tuple[int, ...], ...]  # per cell: the six neighbours in order, -1 off board
    start_colours: tuple[int, ...]  # per cell: colour index, (q - r) mod 3
    corner_starts: tuple[int, ...]  # per corner 0..5: the start cell one step in
    scope: str  # "near" or "anywhere"
    colours: tuple[str, ...]  # tile colour names
    pawn_colours: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.cells)

    def index(self, cell: hexgrid.Hex) -> int:
        return self.cells.index(cell)

    def starts(self, players: int) -> tuple[int, ...]:
        """Pawn k's start cell for a game of `players`."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise PnpError(f"Building Community takes 2 to 6 players, got {players}")
        return tuple(self.corner_starts[c] for c in hexgrid.START_CORNERS[players])


def play_model(p: BuildingCommunityParams) -> PlayModel:
    p = validate_params(p)
    validate(p)
    cells = hexgrid.board(p.radius)
    index = {c: i for i, c in enumerate(cells)}
    around = tuple(tuple(index.get(n, -1) for n in hexgrid.neighbours(c)) for c in cells)
    corner_starts = tuple(index[hexgrid.step((0, 0), i, p.radius - 1)] for i in range(6))
    return PlayModel(
        radius=p.radius,
        cells=cells,
        neighbours=tuple(tuple(n for n in row if n >= 0) for row in around),
        around=around,
        start_colours=tuple(hexgrid.start_colour(c) for c in cells),
        corner_starts=corner_starts,
        scope=p.scope,
        colours=p.colours,
        pawn_colours=p.pawn_colours,
    )
