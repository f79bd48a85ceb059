"""The Desert Home play model: the printed board, deck, supply and dice as int tables.

Derived from the same params that print, so the simulated game is the printed one. The
board is a grid of `rows` rows and `path_columns + 2` columns; cell ``r * width + c``:

- column 0: a refuge entry field, only in the rows of `refuge_rows` (seat s owns the
  refuge of ``refuge_rows[s]``); stepping west off it enters that refuge;
- columns 1..path_columns: path slots, empty until a tile is placed;
- column path_columns + 1: the camp entry fields, one per row.

Colours are the dice colours in the params' order, the configurable sixth colour first;
the water bearer colour is blue.
"""

from __future__ import annotations

from dataclasses import dataclass

from pnp.games.desert_home.params import WATER, DesertHomeParams, colours_in_play
from pnp.runtime.errors import PnpError

# Field kinds.
NO_FIELD, REFUGE_ENTRY, PATH, CAMP_ENTRY = -1, 0, 1, 2
# Directions: west (towards the refuges), east (towards the camp), north, south.
WEST, EAST, NORTH, SOUTH = 0, 1, 2, 3


@dataclass(frozen=True)
class PlayModel:
    """Everything a game needs: a picklable, hashable record of ints and tuples.

    `step[cell][d]` is the field one step in direction d, -1 off the board, or
    ``cells + seat`` for the refuge that the west step off a refuge entry field enters.
    """

    rows: int
    path_columns: int
    refuge_rows: tuple[int, ...]
    colours: tuple[str, ...]
    blue: int  # index of the water bearer colour
    deck_safe: int
    deck_thirst: int
    protection_cards: int
    figures: tuple[int, ...]  # per colour, in the camp at the start
    tents: tuple[int, ...]  # per colour
    goal: int  # figures of every colour a refuge needs
    tent_value: int  # figures a tent counts for
    road_optional: bool  # a road bonus may be let go (`params.road_bonus`)
    whole_groups: bool  # a move takes a colour's whole group on a field (`params.groups`)
    kind: tuple[int, ...]  # per cell: NO_FIELD, REFUGE_ENTRY, PATH or CAMP_ENTRY
    step: tuple[tuple[int, ...], ...]  # per cell: the field in each direction (see above)
    path_cells: tuple[int, ...]  # every path slot, row by row
    camp_cells: tuple[int, ...]  # the camp entry field of each row
    refuge_entries: tuple[int, ...]  # per seat: its refuge entry field
    width: int  # path_columns + 2
    cells: int  # rows * width
    # Lookup tables for the hot paths (derived from `kind` and `step`, never from play):
    reach: tuple[tuple[int, ...], ...]  # per cell: the `step`s onto path slots, refuge
    # entry fields (where groups may stand) or into refuges
    path_next: tuple[tuple[int, ...], ...]  # per cell: the path slots beside it

    @property
    def deck_size(self) -> int:
        return self.deck_safe + self.deck_thirst


def play_model(params: DesertHomeParams) -> PlayModel:
    """Build the play model; a `PnpError` with one line for a board the rules cannot use
    (the kit's own `validate` says more, and `engine.prepare` runs it first)."""
    colours = colours_in_play(params)
    if colours.count(WATER) != 1:
        raise PnpError(
            f"the colours must hold '{WATER}' (the water bearers) exactly once, "
            f"got {', '.join(colours)}"
        )
    if len(set(colours)) != len(colours):
        raise PnpError(f"the colours must all differ, got {', '.join(colours)}")
    rows, cols = params.rows, params.path_columns
    refuge_rows = tuple(params.refuge_rows)
    if rows < 1 or cols < 1:
        raise PnpError(f"the board needs at least one row and one path column, got {rows}x{cols}")
    if len(set(refuge_rows)) != len(refuge_rows) or not all(0 <= r < rows for r in refuge_rows):
        raise PnpError(
            f"refuge rows must be different rows from 0 to {rows - 1}, got {refuge_rows}"
        )
    if params.goal_per_colour < 1 or params.tent_value < 1:
        raise PnpError("the goal per colour and the tent value must be at least 1")
    width = cols + 2
    kind = []
    for r in range(rows):
        kind.append(REFUGE_ENTRY if r in refuge_rows else NO_FIELD)
        kind.extend([PATH] * cols)
        kind.append(CAMP_ENTRY)
    cells = rows * width
    steps = []
    for i in range(cells):
        r, c = divmod(i, width)
        around = []
        for dr, dc in ((0, -1), (0, 1), (-1, 0), (1, 0)):
            rr, cc = r + dr, c + dc
            if kind[i] == REFUGE_ENTRY and dc == -1:
                around.append(cells + refuge_rows.index(r))
            elif 0 <= rr < rows and 0 <= cc < width and kind[rr * width + cc] != NO_FIELD:
                around.append(rr * width + cc)
            else:
                around.append(-1)
        steps.append(tuple(around))
    ground = tuple(k in (PATH, REFUGE_ENTRY) for k in kind)
    return PlayModel(
        rows=rows,
        path_columns=cols,
        refuge_rows=refuge_rows,
        colours=colours,
        blue=colours.index(WATER),
        deck_safe=params.deck_safe,
        deck_thirst=params.deck_thirst,
        protection_cards=params.protection_cards,
        figures=(params.figures_per_colour,) * len(colours),
        tents=(params.tents_per_colour,) * len(colours),
        goal=params.goal_per_colour,
        tent_value=params.tent_value,
        road_optional=params.road_bonus == "optional",
        whole_groups=params.groups == "whole",
        kind=tuple(kind),
        step=tuple(steps),
        path_cells=tuple(i for i in range(cells) if kind[i] == PATH),
        camp_cells=tuple(r * width + cols + 1 for r in range(rows)),
        refuge_entries=tuple(r * width for r in refuge_rows),
        width=width,
        cells=cells,
        reach=tuple(tuple(t for t in row if t >= cells or (t >= 0 and ground[t])) for row in steps),
        path_next=tuple(
            tuple(t for t in row if 0 <= t < cells and kind[t] == PATH) for row in steps
        ),
    )
