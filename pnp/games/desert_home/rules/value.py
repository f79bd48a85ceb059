"""Desert Home's value of a position to each seat: how near its refuge is to the goal,
counting the pieces on their way there. The greedy bot reckons its moves with the same
distances; a tree search scores a playout it cuts off with the values (`cutoff_reward`,
`State.win_chances`, `pnp.play.mcts`).

Why not the refuges alone (`goal.scores`, the record's scores): a game lasts some 40
rounds, and for most of its decisions nobody brings a piece home within the few turns a
playout looks ahead, so the refuges' count stays as it was in nearly every playout and a
search learns nothing from them. A seat's value adds, for the pieces on the fields, what
each would bring its refuge (`goal.counted` of the refuge with the piece in it, less without
it), the nearest first, each worth `NEAR` to the power of its distance in steps: a piece on
the refuge's entry field counts 0.8 of its worth, one five steps away a third of it.

Why thirst is priced (`THIRST_KEEP`): a search's playout stops at the end of the turn, and
a figure left on a thirst field dies a round or two later, beyond it. Without a price the
search sees no loss in parking pieces there, nor in leaving them on a black field at its
last turn, and figures die by the dozen in games between searching players. A piece on an
unguarded thirst or black field is worth less the fewer turns its seat has left to take it
off before it dies, and nothing when only the rival's turns are left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.games.desert_home.rules import BLACK, NONE, THIRST, THIRST_GRACE
from pnp.games.desert_home.rules.goal import counted, refuge_values

if TYPE_CHECKING:
    from pnp.games.desert_home.rules.state import State

UNPLACED_STEP = 3
"""How far a step over a slot with no tile yet is reckoned."""
FAR = 10**6
"""The distance of a field with no way into the refuge."""
NEAR = 0.8
"""What a piece one step nearer its refuge is worth more, as a factor."""
SCALE = 3.0
"""The lead in value (figures) that a cut-off playout rewards with 3/4 of a win."""
THIRST_KEEP = (0.0, 0.5, 0.8, 0.9)
"""What a piece on a thirst or black field keeps of its worth to a seat, by the turns
that seat has left (its own turns, this one included when it is still to come or under
way) to take it off before it dies: none, one, two, three or more
(docs/games/desert-home.md measures the choice)."""


def distances(state: State, seat: int) -> list[int]:
    """Steps from each cell into seat's refuge over the fields (a missing tile costs more).
    Tiles are only ever added, so the count placed keys the cached answer."""
    key = ("distances", seat, state.tiles_placed)
    if key not in state.memo:
        state.memo[key] = new_distances(state, seat)
    return state.memo[key]


def new_distances(state: State, seat: int) -> list[int]:
    m = state.model
    dist = [FAR] * m.cells
    entry = m.refuge_entries[seat]
    dist[entry] = 1
    todo = [entry]
    while todo:  # a small Dijkstra by relaxation: at most rows * width cells
        nxt = []
        for cell in todo:
            for nb in m.step[cell]:
                if not 0 <= nb < m.cells:
                    continue
                cost = 1 if state.tile[nb] != NONE else UNPLACED_STEP
                if dist[cell] + cost < dist[nb]:
                    dist[nb] = dist[cell] + cost
                    nxt.append(nb)
        todo = nxt
    return dist


def value(state: State, seat: int) -> float:
    """Seat's refuge progress plus what the pieces on the fields would add to it, nearest
    first, each weighed by `NEAR` to the power of its distance and by what thirst leaves
    of it (`keep`)."""
    m = state.model
    dist = distances(state, seat)
    values = refuge_values(state, seat)
    before = counted(values, m.blue, m.goal)
    total = float(before)
    tv, blue = m.tent_value, m.blue
    for d, cell in sorted((dist[c], c) for c in range(m.cells) if state.colour[c] >= 0):
        if d >= FAR:
            break
        values[state.colour[cell]] += state.figs[cell] + tv * state.tents[cell]
        values[blue] += state.bearer[cell]
        now = counted(values, blue, m.goal)
        total += (now - before) * NEAR**d * keep(state, seat, cell)
        before = now
    return total


def keep(state: State, seat: int, cell: int) -> float:
    """`THIRST_KEEP` of the piece on cell for seat: 1 off thirst; on a black field, by the
    seat's turns up to the end of the round at its deadline; on a face-up thirst field, the
    same for the deadline it will get when it turns black at the next round's start."""
    tile = state.tile[cell]
    if tile == BLACK:
        rounds = state.deadline[cell] - state.round
    elif tile == THIRST:
        rounds = 1 + THIRST_GRACE
    else:
        return 1.0
    turns = rounds + (1 if seat >= state.seat else 0)
    return THIRST_KEEP[max(0, min(turns, len(THIRST_KEEP) - 1))]


def cutoff_reward(state: State) -> list[float]:
    """Each seat's reward for a playout cut off here: a win's 1 shared by the seats as the
    difference of their values says, 1/2 each when level, more to the one ahead, never
    all of it (a squashed difference, x / (1 + |x|), worked out in + - * / alone so that
    the compiled search, `_tree.h`, gets the very same numbers)."""
    x = (value(state, 0) - value(state, 1)) / SCALE
    r = 0.5 + 0.5 * x / (1.0 + abs(x))
    return [r, 1.0 - r]
