"""Desert Home's legal actions: what the seat to move may do in each phase of a turn, in
the fixed order every implementation lists them (the compiled kernel draws from the same
lists)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.games.desert_home.rules import (
    BEARER,
    BLACK,
    BOTH,
    DRAW_ACTION,
    ENTER,
    GROUP,
    INFLUX,
    INFLUX_COLOUR,
    INFLUX_PUSH,
    MOVE,
    NONE,
    NUMBER,
    P_INFLUX,
    P_INFLUX_COLOUR,
    P_NUMBER,
    P_PLACE,
    P_REROLL,
    P_ROAD,
    P_ROAD_TILE,
    P_ROLL,
    P_SPEND,
    P_SWAP,
    PROTECT,
    PROTECT_COST,
    REROLLS,
    ROAD,
    ROAD_DECLINE,
    ROAD_TILES,
    SEND,
    STOP_ACTION,
    SWAP,
    THIRST,
    TILE,
    Action,
)
from pnp.games.desert_home.rules.fields import (
    amounts,
    can_stand,
    escorted,
    frontier,
    is_lone_bearer,
    moved,
    mover,
    placed,
    road_next,
    tile_actions,
)
from pnp.games.desert_home.rules.model import CAMP_ENTRY, PATH, WEST

if TYPE_CHECKING:
    from pnp.games.desert_home.rules.state import State


def legal_actions(state: State) -> list[Action]:
    """What the chooser may do now; empty at a chance node, at the end, or when the phase
    has nothing left (`turn.skip` then)."""
    if state.ended is not None or state.phase == P_ROLL:
        return []
    phase = state.phase
    if phase == P_SPEND:
        return spend_actions(state)
    if phase == P_REROLL:
        return REROLLS
    if phase == P_INFLUX_COLOUR:
        return [(INFLUX_COLOUR, c) for c in influx_choices(state)]
    if phase == P_INFLUX:
        return [(INFLUX, cell) for cell in influx_fields(state, state.pending)]
    if phase == P_NUMBER:
        return [(NUMBER, n) for n in sorted(set(state.dice))]
    if phase == P_ROAD:
        return road_actions(state)
    if phase == P_ROAD_TILE:
        return [(TILE, cell) for cell in road_next(state)] if state.drawn else []
    if phase == P_PLACE:
        return list(tile_actions(state))
    if phase == P_SWAP:
        return [
            (SWAP, c)
            for c in range(len(state.camp_figs))
            if c != state.blue and state.camp_figs[c] > 0
        ]
    raise AssertionError(f"unknown phase {phase}")


def influx_choices(state: State) -> list[int]:
    """The colours a player may pick when three or more lowest dice include blue: the
    other lowest colours whose figure can come in (in the camp, with an entry field)."""
    low = min(state.dice)
    return [
        c
        for c, v in enumerate(state.dice)
        if v == low and c != state.blue and state.camp_figs[c] and influx_cells(state, c)
    ]


def influx_cells(state: State, colour: int) -> list[int]:
    """Camp entry fields an influx figure of `colour` may go to: free, or a push."""
    out = []
    for cell in state.model.camp_cells:
        c = state.colour[cell]
        if c == -1:
            out.append(cell)
        elif INFLUX_PUSH and c == colour and state.figs[cell] + state.tents[cell] == 1:
            west = state.model.step[cell][WEST]
            if placed(state, west) and can_stand(state, mover(state, cell, GROUP), west):
                out.append(cell)
    return out


def influx_fields(state: State, pending: list[int]) -> list[int]:
    """Where the first of the `pending` influx figures may go: `influx_cells`, but a free
    field only while enough stay free for the later ones that cannot push (so every figure
    due is placed when some way of placing them allows it). A push never takes a field or a
    tile another colour could use, so pushing first is always safe, and the colours' order
    does not matter."""
    cells = influx_cells(state, pending[0])
    pushes = [cell for cell in cells if state.colour[cell] >= 0]
    if not pushes:
        return cells
    free = len(cells) - len(pushes)
    need = sum(
        1
        for c in pending[1:]
        if state.camp_figs[c] and all(state.colour[cell] < 0 for cell in influx_cells(state, c))
    )
    return cells if free > need else pushes


def road_actions(state: State) -> list[Action]:
    """Road tiles (when a tile can be laid), a boost of each full row with pieces, and,
    when the road is optional and one of those is there, letting it go."""
    out: list[Action] = []
    if state.deck and frontier(state):
        out.append((ROAD, ROAD_TILES))
    m = state.model
    for r in range(m.rows):
        row = range(r * m.width, (r + 1) * m.width)
        if all(state.tile[c] != NONE for c in row if m.kind[c] == PATH) and any(
            state.colour[c] >= 0 for c in row
        ):
            out.append((ROAD, r))
    if out and state.model.road_optional:
        out.append((ROAD, ROAD_DECLINE))
    return out


def spend_actions(state: State) -> list[Action]:
    """Every use of the remaining points, in a fixed order: tiles, camp figures, moves (by
    cell, then part, then the part's amount (`fields.amounts`), then direction), water
    bearers sent, protection cards, stop. The hot path of the readable rules' games (a
    simulation's run in the kernel): plain one-field moves are worked out inline, over the
    model's `reach` table."""
    pts = state.points
    if pts <= 0:
        return []
    m = state.model
    out: list[Action] = [DRAW_ACTION] if state.deck and frontier(state) else []
    colour, usable = state.colour, state.usable
    free = [cell for cell in m.camp_cells if colour[cell] < 0]
    if free:
        for c, ok in enumerate(usable):
            if ok:
                if state.camp_figs[c]:
                    out += [(ENTER, c, cell, 0) for cell in free]
                if state.camp_tents[c] and pts >= 3:
                    out += [(ENTER, c, cell, 1) for cell in free]
    blue = state.blue
    blue_ok = usable[blue]
    bearer, figs, tents, tile = state.bearer, state.figs, state.tents, state.tile
    cells, reach = m.cells, m.reach
    for cell, c in enumerate(colour):
        if c < 0:
            continue
        if usable[c]:
            if c == blue and figs[cell]:  # blue figures: water bearers, who may pass
                for f, t in amounts(state, cell):
                    out += escorted_moves(state, cell, GROUP, pts, f, t)
            else:  # `can_stand` for a group without a water bearer, inlined
                targets = []
                for t in reach[cell]:
                    if t >= cells:
                        targets.append(t)
                    elif tile[t]:
                        tc = colour[t]
                        if tc < 0 or tc == c or (tc == blue and figs[t] == 1 and not tents[t]):
                            targets.append(t)
                parts = amounts(state, cell)
                out += [(MOVE, cell, t, GROUP, 1, f, n) for f, n in parts for t in targets]
        if bearer[cell]:
            if blue_ok:
                out += escorted_moves(state, cell, BEARER, pts, 0, 0)
            if usable[c] or blue_ok:
                for f, t in amounts(state, cell):
                    out += escorted_moves(state, cell, BOTH, pts, f, t)
    if blue_ok:
        own = state.chooser
        if sendable(state, own) > 0:  # a lone water bearer stands anywhere but by another
            out += [(SEND, cell) for cell in m.path_cells if tile[cell] and not bearer[cell]]
        if pts >= PROTECT_COST and state.cards > 0 and state.refuge_figs[own][blue] > 0:
            out += [(PROTECT, cell) for cell in m.path_cells if tile[cell] in (THIRST, BLACK)]
    if state.may_stop:
        out.append(STOP_ACTION)
    return out


def escorted_moves(
    state: State, cell: int, part: int, budget: int, figs: int, tents: int
) -> list[Action]:
    """Moves of `figs` figures and `tents` tents of `cell`'s `part`, one per direction at
    most: the first field on the straight line it can stand on, passing fields it cannot
    stand on only with a water bearer, never a gap, and a camp entry field only as a lone
    water bearer; each field costs a point."""
    m = state.model
    cells, step, tile, kind = m.cells, m.step, state.tile, m.kind
    piece = moved(state, (MOVE, cell, -1, part, 0, figs, tents))
    can_pass = escorted(piece, state.blue)
    lone = is_lone_bearer(piece, state.blue)
    out: list[Action] = []
    for d in range(4):
        target, cost = step[cell][d], 1
        while cost <= budget:
            if target < 0 or (target < cells and tile[target] == NONE):
                break
            if target >= cells or can_stand(state, piece, target):
                out.append((MOVE, cell, target, part, cost, figs, tents))
                break
            if not can_pass or (kind[target] == CAMP_ENTRY and not lone):
                break
            target, cost = step[target][d], cost + 1
    return out


def sendable(state: State, seat: int) -> int:
    """Blue figures in seat's refuge that have not arrived or been sent this round."""
    return max(0, state.refuge_figs[seat][state.blue] - state.arrived[seat])
