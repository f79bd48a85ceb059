"""Space names a player reads off the printed board: a column letter and a count.

The board's spaces are flat-topped, so they stack in upright columns. Columns are
lettered from the left (``a``, ``b``, ...); in each column the spaces count up from its
foot (``1`` is the lowest space). ``d4`` is the centre of a radius-3 board. The board
prints every space's name in the space and each column's letter under its foot, so a
name can be found with the tiles on; the solver's lines are written in these names.
"""

from __future__ import annotations

import re

from geometry import hexgrid
from pnp.games.building_community import rules
from pnp.games.building_community.rules.model import PlayModel

LETTERS = "abcdefghijklmnopqrstuvwxyz"
LABEL = re.compile(r"^([a-z])([1-9][0-9]*)$")


def column(cell: hexgrid.Hex, radius: int) -> int:
    """0 for the leftmost column: x grows with q + r on the flat-top board."""
    return cell[0] + cell[1] + radius


def label(cell: hexgrid.Hex, radius: int) -> str:
    """The printed name of `cell`: its column's letter and its place counted from the foot."""
    q, r = cell
    foot = max(-radius, q + r - radius)  # the lowest q in the column (y grows with q - r)
    return f"{LETTERS[column(cell, radius)]}{q - foot + 1}"


def cell_named(name: str, radius: int) -> hexgrid.Hex:
    """The cell a printed name stands for (the inverse of `label`)."""
    m = LABEL.match(name)
    if m is None:
        raise ValueError(f"not a space name: {name!r}")
    s = LETTERS.index(m.group(1)) - radius
    q = max(-radius, s - radius) + int(m.group(2)) - 1
    cell = (q, s - q)
    if not hexgrid.on_board(cell, radius) or abs(s) > radius:
        raise ValueError(f"no space {name} on a board of radius {radius}")
    return cell


def move_text(model: PlayModel, pawn: int, move: rules.Action) -> str:
    """One turn in words: ``pawn 1: swap c2 d3, to e2`` or ``pawn 2: pass``."""
    if move is rules.PASS:
        return f"pawn {pawn + 1}: pass"
    name = [label(c, model.radius) for c in model.cells]
    a, b = sorted(
        move.swap, key=lambda i: (column(model.cells[i], model.radius), model.cells[i][0])
    )
    return f"pawn {pawn + 1}: swap {name[a]} {name[b]}, to {name[move.to]}"


def label_line(model: PlayModel, line: tuple[dict, ...] | list[dict]) -> list[str]:
    """The solver's line (its JSON turns) in printed names, one turn a string."""
    return [move_text(model, t["pawn"], rules.turn_from_json(model, t)) for t in line]
