"""Desert Home's board in play: tiles on the path, pieces on the fields, and the rules of
who may stand where (one colour group per field, plus one escorting water bearer)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.games.desert_home.rules import BEARER, BOTH, NONE, REFUGE_ENDS_DUTY, TILE, Action
from pnp.games.desert_home.rules.model import CAMP_ENTRY

if TYPE_CHECKING:
    from pnp.games.desert_home.rules.state import State

Piece = tuple[int, int, int, int]
"""(colour, figures, tents, bearers): what a move lifts off a field."""


def placed(state: State, cell: int) -> bool:
    return cell >= 0 and state.tile[cell] != NONE


def frontier(state: State) -> list[int]:
    """Empty path slots where a tile may go: next to the camp entry column or to a tile."""
    return frontier_and_tiles(state)[1]


def tile_actions(state: State) -> tuple[Action, ...]:
    """The TILE actions onto the `frontier`, in its order."""
    return frontier_and_tiles(state)[2]


def frontier_and_tiles(state: State) -> tuple[int, list[int], tuple[Action, ...]]:
    """(tiles placed, `frontier`, `tile_actions`), shared until the next tile: tiles are only
    ever added, so the count placed says whether the remembered answer still holds."""
    hit = state.memo.get("frontier")
    if hit is None or hit[0] != state.tiles_placed:
        cells = new_frontier(state)
        hit = state.memo["frontier"] = (state.tiles_placed, cells, tuple((TILE, c) for c in cells))
    return hit


def new_frontier(state: State) -> list[int]:
    m = state.model
    last, tile = m.path_columns, state.tile
    return [
        cell
        for cell in m.path_cells
        if tile[cell] == NONE
        and (cell % m.width == last or any(tile[nb] for nb in m.path_next[cell]))
    ]


def road_next(state: State) -> list[int]:
    """Where the next road tile may go."""
    if state.road_last < 0:
        return frontier(state)
    tile = state.tile
    return [nb for nb in state.model.path_next[state.road_last] if tile[nb] == NONE]


def draw(state: State) -> None:
    """Take the top tile of the deck in hand: its face is seen before its slot is chosen."""
    state.drawn = state.deck.pop()


def lay_drawn(state: State, cell: int) -> None:
    """Lay the tile in hand, face up, on `cell`."""
    state.tile[cell] = state.drawn
    state.drawn = NONE
    state.tiles_placed += 1


def mover(state: State, cell: int, part: int) -> Piece:
    """(colour, figures, tents, bearers) of the whole `part` of `cell`: its group (all its
    figures and tents), its water bearer, or both."""
    if part == BEARER:
        return state.blue, 1, 0, 0
    return state.colour[cell], state.figs[cell], state.tents[cell], 1 if part == BOTH else 0


def moved(state: State, action: Action) -> Piece:
    """What a MOVE action lifts off its field: its figures and tents of the field's colour,
    with the field's water bearer for BOTH, or the water bearer alone (BEARER)."""
    _, src, _, part, _, figs, tents = action
    if part == BEARER:
        return state.blue, 1, 0, 0
    return state.colour[src], figs, tents, 1 if part == BOTH else 0


def amounts(state: State, cell: int) -> list[tuple[int, int]]:
    """The (figures, tents) of `cell`'s group a move may take, the whole group first: any
    part of it (the seed's "a piece or a group of pieces"), or only all of it when the kit
    plays whole groups (`PlayModel.whole_groups`)."""
    figs, tents = state.figs[cell], state.tents[cell]
    if state.model.whole_groups:
        return [(figs, tents)]
    return [(f, t) for t in range(tents, -1, -1) for f in range(figs, -1, -1) if f or t]


def is_lone_bearer(piece: Piece, blue: int) -> bool:
    c, f, t, b = piece
    return c == blue and f == 1 and t == 0


def can_stand(state: State, piece: Piece, cell: int) -> bool:
    """Whether `piece` may stop on `cell` (one colour per field plus one water bearer)."""
    mc, mf, mt, mb = piece
    blue = state.blue
    tc = state.colour[cell]
    if state.model.kind[cell] == CAMP_ENTRY:
        if not is_lone_bearer(piece, blue):
            return False
        return tc == -1 or (tc != blue and state.bearer[cell] == 0)
    if tc == -1:
        return True
    if tc == mc:
        return mc == blue or state.bearer[cell] + mb <= 1
    if is_lone_bearer(piece, blue):
        return tc != blue and state.bearer[cell] == 0
    return tc == blue and state.figs[cell] == 1 and state.tents[cell] == 0 and mb == 0


def escorted(piece: Piece, blue: int) -> bool:
    """A water bearer goes with it: an escort, or blue figures themselves (not blue tents)."""
    return piece[3] == 1 or (piece[0] == blue and piece[1] > 0)


def take(state: State, cell: int, part: int) -> None:
    """Lift the whole `part` off `cell` (`mover`'s piece)."""
    take_some(state, cell, part, state.figs[cell], state.tents[cell])


def take_some(state: State, cell: int, part: int, figs: int, tents: int) -> None:
    """Lift `figs` figures and `tents` tents of `cell`'s group (with its water bearer for
    BOTH), or its water bearer alone; a water bearer left without its group stands alone."""
    if part == BEARER:
        state.bearer[cell] = 0
        return
    state.figs[cell] -= figs
    state.tents[cell] -= tents
    if part == BOTH:
        state.bearer[cell] = 0
    if state.figs[cell] + state.tents[cell] == 0:
        if state.bearer[cell]:
            state.colour[cell], state.figs[cell], state.bearer[cell] = state.blue, 1, 0
        else:
            state.colour[cell] = -1


def put(state: State, piece: Piece, cell: int) -> None:
    """Set `piece` down on `cell`, or into a refuge when `cell` is a refuge target."""
    mc, mf, mt, mb = piece
    m = state.model
    blue = m.blue
    if cell >= m.cells:
        seat = cell - m.cells
        state.refuge_figs[seat][mc] += mf
        state.refuge_tents[seat][mc] += mt
        state.refuge_figs[seat][blue] += mb
        state.arrived[seat] += mb + (mf if mc == blue else 0)
        state.may_stop = state.may_stop or REFUGE_ENDS_DUTY
        return
    tc = state.colour[cell]
    if tc == -1:
        state.colour[cell], state.figs[cell], state.tents[cell], state.bearer[cell] = piece
    elif tc == mc:
        state.figs[cell] += mf
        state.tents[cell] += mt
        state.bearer[cell] += mb
    elif mc == blue:  # a lone water bearer joins the group as its escort
        state.bearer[cell] = 1
    else:  # the group joins a lone water bearer, who escorts it
        state.colour[cell], state.figs[cell], state.tents[cell], state.bearer[cell] = (
            mc,
            mf,
            mt,
            1,
        )
