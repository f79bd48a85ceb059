"""Desert Home's goal: what a refuge holds, the scores, the win, and the deck's end (when
no refuge can be filled any more)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pnp.games.desert_home.rules import NONE, PLAYERS, End, goal_met
from pnp.games.desert_home.rules.model import CAMP_ENTRY, PATH

if TYPE_CHECKING:
    from pnp.games.desert_home.rules.state import State


def refuge_values(state: State, seat: int) -> list[int]:
    """Figures per colour in seat's refuge, a tent counting `tent_value`."""
    tv = state.model.tent_value
    tents = state.refuge_tents[seat]
    return [f + tv * tents[c] for c, f in enumerate(state.refuge_figs[seat])]


def progress(state: State, seat: int) -> int:
    """Figures in seat's refuge that count toward its goal (the goal itself is the max)."""
    m = state.model
    return counted(refuge_values(state, seat), m.blue, m.goal)


def counted(values: Sequence[int], blue: int, goal: int) -> int:
    """Figures of `values` (per colour) that count toward `goal` of every colour: each
    colour up to the goal, blue up to its own and beyond it into the other colours' gaps.
    Written out as a loop: it runs after every turn for the leader, and for every piece a
    search's cut-off weighs (`value`)."""
    short = total = 0
    for c, v in enumerate(values):
        if c != blue:
            if v < goal:
                short += goal - v
                total += v
            else:
                total += goal
    vb = values[blue]
    return total + min(vb, goal) + min(max(0, vb - goal), short)


def scores(state: State) -> list[int]:
    return [progress(state, s) for s in range(PLAYERS)]


def check_win(state: State) -> bool:
    """End the game if a refuge meets the goal (the turn counts as played)."""
    won = tuple(
        s for s in range(PLAYERS) if goal_met(refuge_values(state, s), state.blue, state.model.goal)
    )
    if not won:
        return False
    state.ended, state.winners = End.REFUGE, won
    state.turns += 1
    record_leader(state)
    return True


def record_leader(state: State) -> None:
    ss = scores(state)
    top = max(ss)
    state.leaders.append(ss.index(top) if ss.count(top) == 1 else -1)


def linked(state: State, starts: Sequence[int]) -> set[int]:
    """Placed path and refuge entry fields reachable from `starts` (occupancy ignored)."""
    m = state.model
    seen = set()
    todo = [c for c in starts if state.tile[c] != NONE and m.kind[c] != CAMP_ENTRY]
    while todo:
        cell = todo.pop()
        if cell in seen:
            continue
        seen.add(cell)
        for nb in m.step[cell]:
            if 0 <= nb < m.cells and m.kind[nb] != CAMP_ENTRY and state.tile[nb] != NONE:
                todo.append(nb)
    return seen


def linked_areas(state: State) -> list[set[int]] | None:
    """Per seat, the fields `linked` to its refuge entry; None when an entry is linked to
    a path field next to the camp. The deck-end check runs after every turn once the deck
    is empty: tiles are only ever added, so the count placed keys the remembered answer."""
    key = ("linked", state.tiles_placed)
    if key not in state.memo:
        m = state.model
        camp_side = linked(state, [c for c in m.path_cells if c % m.width == m.path_columns])
        if any(e in camp_side for e in m.refuge_entries):
            state.memo[key] = None
        else:
            state.memo[key] = [linked(state, [e]) for e in m.refuge_entries]
    return state.memo[key]


def nobody_can_win(state: State) -> bool:
    """With the deck empty the tiles are final. No seat can win when, for each seat:
    its refuge entry field is not linked by tiles to a path field next to the camp, and
    what it could still collect falls short of the goal: its refuge, every piece on the
    fields linked to its entry field, and (if those fields include a path field, where
    water bearers may be sent) every blue figure in the other refuge or linked to it."""
    m = state.model
    areas = linked_areas(state)
    if areas is None:
        return False
    tv, blue = m.tent_value, m.blue
    for seat in range(PLAYERS):
        values = refuge_values(state, seat)
        for cell in sorted(areas[seat]):
            if state.colour[cell] >= 0:
                values[state.colour[cell]] += state.figs[cell] + tv * state.tents[cell]
                values[blue] += state.bearer[cell]
        if any(m.kind[c] == PATH for c in areas[seat]):
            for other in range(PLAYERS):
                if other == seat:
                    continue
                values[blue] += state.refuge_figs[other][blue]
                for cell in sorted(areas[other]):
                    if state.colour[cell] == blue:
                        values[blue] += state.figs[cell]
                    values[blue] += state.bearer[cell]
        if goal_met(values, blue, m.goal):
            return False
    return True
