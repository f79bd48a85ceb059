"""The shortest-line proof: iterative deepening (IDA*) in the compiled search `_search.c`.

Threshold by threshold from the lower bound of the start (`solver_bound`), a depth-first
search looks for a win within that many turns, cutting every position whose bound says
it cannot make it, and every position a transposition table has already shown cannot
make it with as many turns left. The first threshold that holds a win gives a shortest
line: every shorter threshold was exhausted. Children are tried fewest-bound first.

**Symmetries the table may use.** The distance to a win is the same for two positions
that one of these maps turns into the other, because the rules read nothing they change:
- the hexagon's 12 symmetries (6 rotations, each with or without a mirror): they keep
  the board, its edge and every neighbourhood, hence the pawn's ring, communities and
  isolation. They move the start spaces and do not keep the start colouring's colours in
  place, which is why the next map is needed;
- any renaming of the three colours: the rules only ask whether two colours are equal;
- which seat is to move: the pawns are listed from the pawn to move on, so the turn order
  (the cyclic order of the seats) is kept -- reversing it would not be a symmetry.
So a table key is the least, over the 12 maps, of (the colour masks as an unordered set,
the pawns in turn order from the one to move). The start position itself has fewer
symmetries (the start spaces' corners), but the table stores positions, not lines, so
it needs only the symmetries of the rules.

The kernel takes boards of up to 64 cells (R <= 4); larger boards keep the breadth-first
proof of `solver.py`. Lines come back as cell triples; the solver turns them into the
spec's JSON, and the tests replay them with the readable rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from geometry import hexgrid
from pnp.games.building_community.fast.solver_bound import near_masks, reach_masks
from pnp.games.building_community.rules.model import PlayModel

try:
    from pnp.games.building_community.fast import _search
except ImportError:  # no C compiler at install: the breadth-first proof in Python
    _search = None  # type: ignore[assignment]

MAX_CELLS = 64
MAX_THRESHOLD = 249  # the kernel's deepest line
TABLE_BITS = 22
"""Transposition-table slots (2 ** TABLE_BITS, 32 bytes each: 128 MB), replaced as it fills."""

CellStep = tuple[int, int, int] | None  # swap cells a < b, destination cell; None = a pass


def available(model: PlayModel) -> bool:
    return _search is not None and model.size <= MAX_CELLS


def symmetries(model: PlayModel) -> tuple[tuple[int, ...], ...]:
    """The hexagon's 12 symmetries as cell permutations (perm[i] = image of cell i)."""
    out = []
    for mirror in (False, True):
        for turns in range(6):
            perm = []
            for q, r in model.cells:
                if mirror:
                    q, r = r, q
                for _ in range(turns):
                    q, r = -r, q + r  # 60 degrees round the centre
                perm.append(model.index((q, r)))
            out.append(tuple(perm))
    return tuple(out)


@lru_cache(maxsize=16)
def _tables(model: PlayModel) -> dict[str, list[int]]:
    """The kernel's board tables as it names them (`_search.c`'s ``PROOF``): per cell the
    neighbour, distance-3 and reach masks, and the swap pairs a pawn there may make on an
    ordinary and on a special turn (flat, a, b, a, b, ..., with each cell's count); the
    symmetries, one cell permutation after another. Shared: not to be changed."""
    nb = [sum(1 << n for n in row) for row in model.neighbours]
    pairs = sorted((a, b) for a in range(model.size) for b in model.neighbours[a] if a < b)
    cells = model.cells

    def near(p: int) -> list[tuple[int, int]]:
        return [(a, b) for a, b in pairs if nb[p] >> a & 1 and nb[p] >> b & 1]

    def close(p: int) -> list[tuple[int, int]]:
        return [
            (a, b)
            for a, b in pairs
            if min(hexgrid.distance(cells[p], cells[a]), hexgrid.distance(cells[p], cells[b])) <= 2
        ]

    if model.scope == "near":
        ordinary = special = [near(p) for p in range(model.size)]
    else:
        ordinary = [close(p) for p in range(model.size)]
        special = [pairs] * model.size
    return {
        "nb": nb,
        "far3": list(near_masks(model)),
        "ball2": list(reach_masks(model)),
        "pairs": [x for row in ordinary for pair in row for x in pair],
        "pairs_per_cell": [len(row) for row in ordinary],
        "special_pairs": [x for row in special for pair in row for x in pair],
        "special_per_cell": [len(row) for row in special],
        "syms": [cell for perm in symmetries(model) for cell in perm],
    }


def prove(
    model: PlayModel,
    players: int,
    lo: int,
    hi: int,
    budget: int,
    progress: Callable[[int, int], None] | None = None,
    every: int = 1 << 15,
    position: tuple[Sequence[int], Sequence[int]] | None = None,
) -> tuple[list[CellStep] | None, int, int, list[int]]:
    """IDA* thresholds lo..hi from the start, or from `position` (tiles, pawns; pawn 0
    to move): (the line of the first threshold holding a win or None, nodes, the largest
    threshold exhausted without a win, nodes per threshold). Stops when the nodes reach
    `budget`."""
    assert _search is not None
    tiles, pawns = position or (model.start_colours, model.starts(players))
    fields = {
        **_tables(model),
        "colours": list(tiles),
        "pawns": list(pawns),
        "lo": lo,
        "hi": hi,
        "budget": budget,
        "table_bits": TABLE_BITS,
        "every": every,
    }
    line, nodes, proven, per = _search.search(fields, progress)
    return line, nodes, proven, per
