"""Desert Home – Immigration rules: the readable reference engine.

A game is a `State` and a sequence of atomic actions: `legal_actions(state)` lists what the
deciding player may do now (`state.chooser`), `apply(state, action, rng)` does it, and
`skip(state, rng)` moves on when the list is empty (points with no use left are lost, a
road with no room is lost). Chance (dice, the deck order) goes through the
`random.Random` passed in, in a fixed order, so a seed fixes the game.

Actions are int tuples, the first item their kind: (REROLL, dice mask) with mask 0 = keep;
(INFLUX_COLOUR, colour); (INFLUX, entry cell); (NUMBER, n); (ROAD, ROAD_TILES, the boosted
row or ROAD_DECLINE); (DRAW,) to draw a tile for a point; (TILE, cell) to lay the tile in
hand, its face seen; (ENTER, colour, entry cell, 1 for a tent); (MOVE, from, to, part,
cost) with `to` = model.cells + seat into seat's refuge; (SEND, cell); (PROTECT, cell);
(STOP,); (SWAP, colour).

A field holds one colour group (figures and tents of one colour) and, when that colour is
not blue, at most one water bearer (a blue figure) escorting it. A lone blue figure is a
blue group of one; it becomes the escort of a group it joins.

Every choice the spec leaves open is decided in `DECISIONS` (name -> the rule in plain
words, for the rule card and the README); the ones the code branches on are also named
constants below.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from pnp.chance import below
from pnp.games.desert_home.model import CAMP_ENTRY, PATH, REFUGE_ENTRY, WEST, PlayModel

PLAYERS = 2
MAX_ROUNDS = 300
"""Rounds after which a simulated game stops as a ``timeout``: a limit of the simulation,
not a rule (the spec sets none), so that no game can run for ever, e.g. on a kit whose
supply nobody can fill (`supply.supply_verdict`) and whose deck never runs out. On the
default kit greedy games end in 38 rounds on average (50 at p95 of 1,000 games); random
play dawdles, 292 rounds on average and up to 1,443 in 20,000 games without the limit, so
this limit stops two random games in five (their records end in ``timeout``)."""
END_REASONS = ("refuge", "deck", "timeout")

THIRST_GRACE = 1
"""Rounds a black field gives after the round it turned black in, before its pieces die."""
SMALL_ROAD, BIG_ROAD = 3, 5
"""Bonus of five consecutive numbers, and of 1 to 6."""
PROTECT_COST = 3
"""Blue points for a protection card."""
INFLUX_PUSH = True
"""An influx figure may push a single piece of its own colour off its entry field."""
ROAD_TILES_CHAIN = True
"""Each road tile goes next to the previous one (the road may turn)."""
REFUGE_ENDS_DUTY = True
"""After a move into a refuge the player may leave the rest of the points unspent."""

DECISIONS: dict[str, str] = {
    "reroll": "After a throw in which three or more of the dice just thrown match, you may "
    "throw again any of the six dice; only the dice thrown last count for the next triple.",
    "influx": "Influx brings single figures, never tents; a colour with no figure left in "
    "the camp brings none. With three or more lowest dice including blue, pick one of "
    "their other colours whose figure can come in (one left in the camp, and a camp entry "
    "field it may take); when none can, none comes.",
    "influx_push": "The entering figure takes a free camp entry field of your choice, or "
    "one holding a single piece of its own colour, which it pushes onto the path tile west "
    "of it (only if that tile is placed and can take it). Otherwise it stays in the camp.",
    "colour_choice": "Choosing a colour means choosing the number its die shows: every "
    "colour whose die shows that number may be moved with the points.",
    "road_bonus": "A road is a bonus you may take or let go (kit parameter `road_bonus`, "
    'default optional); with `road_bonus = "compulsory"` you must take it when you can.',
    "road_tiles": "Road tiles are free: the first goes where any tile may go, each next "
    "one beside the previous road tile; draw and lay them one by one while there is room "
    "and tiles remain.",
    "draw_first": "Laying a tile: pay the point and draw the top tile, look at its face, "
    "then choose the slot for it.",
    "boost": "A boost works on one row whose path slots all hold tiles: every piece "
    "on that row moves west up to 3 (or 5) fields, the piece nearest the refuge first; a "
    "piece stops early when the next field cannot take it or when it joins a group; west "
    "of a refuge entry field is into that refuge.",
    "whole_groups": "A move takes the whole group of one colour on a field (figures and "
    "tents together); its water bearer may go along or stay behind, or go alone.",
    "passing": "A group with a water bearer (or a group of blue figures) may pass over "
    "fields it cannot stop on, in a straight line, paying 1 point per field, and lands on "
    "the first field that can take it; nobody passes a gap in the path.",
    "camp_entry": "A camp entry field holds one figure or tent (and perhaps a water "
    "bearer). Only a lone water bearer steps onto or passes a camp entry field; other "
    "pieces come onto it only from the camp.",
    "water_bearers": "Every blue figure is a water bearer; blue tents escort nobody and "
    "are never sent. You send water bearers only from your own refuge, onto a placed path "
    "field, for 1 blue point each.",
    "missions": "One mission per round: a blue figure that came into a refuge this round "
    "cannot be sent out again before the next round.",
    "protection": "Protection cards are one shared pool; a card goes on any unprotected "
    "thirst tile, face up or black (a black one turns face up and its countdown stops).",
    "thirst": "At the start of a round every unprotected face-up thirst field with any "
    "piece on it turns black. At the end of the next round everything still on it dies "
    "(figures, tents and water bearers go back to the camp) and the field turns face up.",
    "spending_duty": "Spend every point while any use is possible; once you have moved "
    "pieces into a refuge (either one) this turn you may stop.",
    "shortage": "When you take the last blue figure out of the camp, whoever has the most "
    "blue figures in their refuge (both, on a tie; at least 2) gives half of them back to "
    "the camp (rounded down) and takes as many figures of other colours of their choice "
    "from the camp into the refuge.",
    "win": "You win the moment your refuge holds at least 5 of every colour: a tent "
    "counts 3, blue needs its own 5 first, and further blue figures fill other colours' "
    "gaps. A move into the other refuge can make your opponent win.",
    "deck_end": "When the path deck is empty and no refuge can still be filled (its entry "
    "field is not linked to the camp by tiles, and what is in it or linked to it, with the "
    "blue figures that could be sent over, falls short), the game ends with no winner.",
    "seats": "The first player owns the refuge of the first refuge row (row 1 of the "
    "default board) and starts; the second owns the other.",
}

# Tile states of a cell (entry fields are SAFE from the start).
NONE, SAFE, THIRST, BLACK, GUARDED = 0, 1, 2, 3, 4

# Phases of a turn: what the next decision is about.
P_REROLL, P_INFLUX_COLOUR, P_INFLUX, P_NUMBER, P_ROAD, P_ROAD_TILE, P_SPEND, P_SWAP = range(8)
P_PLACE = 8  # a tile drawn with a point waits for its slot

# Action kinds.
REROLL, INFLUX_COLOUR, INFLUX, NUMBER, ROAD, TILE, ENTER, MOVE, SEND, PROTECT, STOP, SWAP = range(
    12
)
DRAW = 12  # a spending action (kinds from ENTER on are spent)

# The second item of a ROAD action that is no row: take road tiles, or let the road go.
ROAD_TILES, ROAD_DECLINE = -1, -2

# What part of a field a MOVE takes.
GROUP, BEARER, BOTH = 0, 1, 2

Action = tuple[int, ...]
REROLLS: list[Action] = [(REROLL, mask) for mask in range(64)]  # shared: never mutate
STOP_ACTION: Action = (STOP,)
DRAW_ACTION: Action = (DRAW,)


def action_points(n: int, k: int) -> int:
    """Points for a chosen number n shown by k dice: n, n+1, n+2, 2n, 2n+1, 3n."""
    return (n, n + 1, n + 2, 2 * n, 2 * n + 1, 3 * n)[k - 1]


def road_bonus(dice: Sequence[int]) -> int:
    """BIG_ROAD for 1-6, SMALL_ROAD for five consecutive numbers, else 0."""
    shown = set(dice)
    if len(shown) == 6:
        return BIG_ROAD
    if {1, 2, 3, 4, 5} <= shown or {2, 3, 4, 5, 6} <= shown:
        return SMALL_ROAD
    return 0


def has_triple(dice: Sequence[int], thrown: int) -> bool:
    """True if three or more of the dice in the `thrown` mask show one number."""
    counts = [0] * 7
    for i, v in enumerate(dice):
        if thrown >> i & 1:
            counts[v] += 1
    return max(counts) >= 3


class Bot(Protocol):
    def choose(self, state: State, actions: list[Action], rng: random.Random) -> Action: ...


@dataclass(repr=False, slots=True)
class State:
    """One game in progress. Per-cell lists are indexed by model cell."""

    model: PlayModel
    tile: list[int]
    deadline: list[int]  # per cell: the round at whose end a black field kills
    colour: list[int]  # per cell: the group's colour, -1 empty
    figs: list[int]
    tents: list[int]
    bearer: list[int]  # per cell: 1 when a water bearer escorts the (non-blue) group
    camp_figs: list[int]  # per colour
    camp_tents: list[int]
    refuge_figs: list[list[int]]  # per seat, per colour
    refuge_tents: list[list[int]]
    deck: list[int]  # THIRST or SAFE faces, the top last
    cards: int  # protection cards left
    blue: int  # the water bearer colour (the model's, kept here for speed)
    max_rounds: int = MAX_ROUNDS
    arrived: list[int] = field(default_factory=lambda: [0] * PLAYERS)  # blue, this round
    dice: list[int] = field(default_factory=lambda: [0] * 6)
    seat: int = 0
    round: int = 0
    turns: int = 0
    phase: int = P_REROLL
    thrown: int = 0  # mask of the dice thrown last
    pending: list[int] = field(default_factory=list)  # influx colours still to place
    usable: list[bool] = field(default_factory=lambda: [False] * 6)  # per colour
    points: int = 0
    road_left: int = 0
    road_last: int = -1
    drawn: int = NONE  # the face of the tile in hand, drawn and not yet laid
    may_stop: bool = False
    swaps: list[list[int]] = field(default_factory=list)  # [seat, figures still to swap]
    back_phase: int = P_SPEND
    ended: str | None = None
    winners: tuple[int, ...] = ()
    leaders: list[int] = field(default_factory=list)
    deaths: int = 0
    tiles_placed: int = 0
    water_missions: int = 0
    decisions: int = 0
    legal_moves: int = 0
    memo: dict = field(default_factory=dict)  # derived data, keyed by what it depends on

    @property
    def chooser(self) -> int:
        """The seat that takes the next decision."""
        return self.swaps[0][0] if self.phase == P_SWAP else self.seat


def new_game(model: PlayModel, rng: random.Random, max_rounds: int = MAX_ROUNDS) -> State:
    """`setup`, then seat 0's first turn begins (its roll)."""
    state = setup(model, rng, max_rounds)
    start_turn(state, rng)
    return state


def setup(model: PlayModel, rng: random.Random, max_rounds: int = MAX_ROUNDS) -> State:
    """Empty path, entry fields ready, every piece in the camp, a shuffled deck."""
    n = model.cells
    tile = [SAFE if k in (REFUGE_ENTRY, CAMP_ENTRY) else NONE for k in model.kind]
    deck = [SAFE] * model.deck_safe + [THIRST] * model.deck_thirst
    for i in range(len(deck) - 1, 0, -1):  # Fisher-Yates with `below`
        j = below(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    k = len(model.colours)
    return State(
        model=model,
        tile=tile,
        deadline=[0] * n,
        colour=[-1] * n,
        figs=[0] * n,
        tents=[0] * n,
        bearer=[0] * n,
        camp_figs=list(model.figures),
        camp_tents=list(model.tents),
        refuge_figs=[[0] * k for _ in range(PLAYERS)],
        refuge_tents=[[0] * k for _ in range(PLAYERS)],
        deck=deck,
        cards=model.protection_cards,
        blue=model.blue,
        max_rounds=max_rounds,
    )


# --- goal ------------------------------------------------------------------------------


def refuge_values(state: State, seat: int) -> list[int]:
    """Figures per colour in seat's refuge, a tent counting `tent_value`."""
    tv = state.model.tent_value
    tents = state.refuge_tents[seat]
    return [f + tv * tents[c] for c, f in enumerate(state.refuge_figs[seat])]


def goal_met(values: Sequence[int], blue: int, goal: int) -> bool:
    """At least `goal` of every colour, blue beyond its own goal filling the gaps."""
    short = sum(max(0, goal - v) for c, v in enumerate(values) if c != blue)
    return values[blue] >= goal + short


def progress(state: State, seat: int) -> int:
    """Figures in seat's refuge that count toward its goal (the goal itself is the max).
    Written out as a loop: it runs after every turn for the leader."""
    m = state.model
    goal, blue, tv = m.goal, m.blue, m.tent_value
    figs, tents = state.refuge_figs[seat], state.refuge_tents[seat]
    short = counted = 0
    for c in range(len(figs)):
        if c != blue:
            v = figs[c] + tv * tents[c]
            if v < goal:
                short += goal - v
                counted += v
            else:
                counted += goal
    vb = figs[blue] + tv * tents[blue]
    return counted + min(vb, goal) + min(max(0, vb - goal), short)


def scores(state: State) -> list[int]:
    return [progress(state, s) for s in range(PLAYERS)]


def check_win(state: State) -> bool:
    """End the game if a refuge meets the goal (the turn counts as played)."""
    won = tuple(
        s for s in range(PLAYERS) if goal_met(refuge_values(state, s), state.blue, state.model.goal)
    )
    if not won:
        return False
    state.ended, state.winners = "refuge", won
    state.turns += 1
    record_leader(state)
    return True


def record_leader(state: State) -> None:
    ss = scores(state)
    top = max(ss)
    state.leaders.append(ss.index(top) if ss.count(top) == 1 else -1)


# --- the board ---------------------------------------------------------------------------


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


def mover(state: State, cell: int, part: int) -> tuple[int, int, int, int]:
    """(colour, figures, tents, bearers) of what a MOVE of `part` takes from `cell`."""
    if part == BEARER:
        return state.blue, 1, 0, 0
    return state.colour[cell], state.figs[cell], state.tents[cell], 1 if part == BOTH else 0


def is_lone_bearer(piece: tuple[int, int, int, int], blue: int) -> bool:
    c, f, t, b = piece
    return c == blue and f == 1 and t == 0


def can_stand(state: State, piece: tuple[int, int, int, int], cell: int) -> bool:
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


def escorted(piece: tuple[int, int, int, int], blue: int) -> bool:
    """A water bearer goes with it: an escort, or blue figures themselves (not blue tents)."""
    return piece[3] == 1 or (piece[0] == blue and piece[1] > 0)


def take(state: State, cell: int, part: int) -> None:
    """Lift `part` off `cell`."""
    if part == BEARER:
        state.bearer[cell] = 0
    elif part == GROUP and state.bearer[cell]:
        state.colour[cell], state.figs[cell], state.tents[cell] = state.blue, 1, 0
        state.bearer[cell] = 0
    else:
        state.colour[cell], state.figs[cell], state.tents[cell], state.bearer[cell] = -1, 0, 0, 0


def put(state: State, piece: tuple[int, int, int, int], cell: int) -> None:
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


# --- legal actions ---------------------------------------------------------------------


def legal_actions(state: State) -> list[Action]:
    """What the chooser may do now; empty when the phase has nothing left (`skip` then)."""
    if state.ended:
        return []
    phase = state.phase
    if phase == P_SPEND:
        return spend_actions(state)
    if phase == P_REROLL:
        return REROLLS
    if phase == P_INFLUX_COLOUR:
        return [(INFLUX_COLOUR, c) for c in influx_choices(state)]
    if phase == P_INFLUX:
        return [(INFLUX, cell) for cell in influx_cells(state, state.pending[0])]
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
    cell, then part, then direction), water bearers sent, protection cards, stop.
    The hot path of greedy simulations (random ones run `fastplay.play_random`): plain
    one-field moves are worked out inline, over the model's `reach` table."""
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
    append = out.append
    for cell, c in enumerate(colour):
        if c < 0:
            continue
        if usable[c]:
            if c == blue and figs[cell]:  # blue figures: water bearers, who may pass
                out += escorted_moves(state, cell, GROUP, pts)
            else:  # `can_stand` for a group without a water bearer, inlined
                for t in reach[cell]:
                    if t >= cells:
                        append((MOVE, cell, t, GROUP, 1))
                    elif tile[t]:
                        tc = colour[t]
                        if tc < 0 or tc == c or (tc == blue and figs[t] == 1 and not tents[t]):
                            append((MOVE, cell, t, GROUP, 1))
        if bearer[cell]:
            if blue_ok:
                out += escorted_moves(state, cell, BEARER, pts)
            if usable[c] or blue_ok:
                out += escorted_moves(state, cell, BOTH, pts)
    if blue_ok:
        own = state.chooser
        if sendable(state, own) > 0:  # a lone water bearer stands anywhere but by another
            out += [(SEND, cell) for cell in m.path_cells if tile[cell] and not bearer[cell]]
        if pts >= PROTECT_COST and state.cards > 0 and state.refuge_figs[own][blue] > 0:
            out += [(PROTECT, cell) for cell in m.path_cells if tile[cell] in (THIRST, BLACK)]
    if state.may_stop:
        append(STOP_ACTION)
    return out


def escorted_moves(state: State, cell: int, part: int, budget: int) -> list[Action]:
    """Moves of `part` of `cell`, one per direction at most: the first field on the straight
    line it can stand on, passing fields it cannot stand on only with a water bearer, never
    a gap, and a camp entry field only as a lone water bearer; each field costs a point."""
    m = state.model
    cells, step, tile, kind = m.cells, m.step, state.tile, m.kind
    piece = mover(state, cell, part)
    can_pass = escorted(piece, state.blue)
    lone = is_lone_bearer(piece, state.blue)
    out = []
    for d in range(4):
        target, cost = step[cell][d], 1
        while cost <= budget:
            if target < 0 or (target < cells and tile[target] == NONE):
                break
            if target >= cells or can_stand(state, piece, target):
                out.append((MOVE, cell, target, part, cost))
                break
            if not can_pass or (kind[target] == CAMP_ENTRY and not lone):
                break
            target, cost = step[target][d], cost + 1
    return out


def sendable(state: State, seat: int) -> int:
    """Blue figures in seat's refuge that have not arrived or been sent this round."""
    return max(0, state.refuge_figs[seat][state.blue] - state.arrived[seat])


# --- applying actions ------------------------------------------------------------------


def apply(state: State, action: Action, rng: random.Random) -> None:
    """Do one legal action, then run what follows until the next decision."""
    kind = action[0]
    if kind >= ENTER:  # spending: most actions
        spend(state, action, rng)
        return
    if kind == TILE:
        lay_drawn(state, action[1])
        if state.phase == P_ROAD_TILE:
            state.road_left -= 1
            state.road_last = action[1] if ROAD_TILES_CHAIN else -1
            next_road_tile(state)
        else:
            state.phase = P_SPEND
    elif kind == REROLL:
        reroll(state, action[1], rng)
    elif kind == INFLUX_COLOUR:
        state.pending = [action[1]]
        next_influx(state)
    elif kind == INFLUX:
        influx(state, state.pending.pop(0), action[1])
        next_influx(state)
    elif kind == NUMBER:
        choose_number(state, action[1])
    elif kind == ROAD:
        if action[1] == ROAD_DECLINE:
            state.phase = P_SPEND
        elif action[1] == ROAD_TILES:
            state.road_left, state.road_last, state.phase = road_bonus(state.dice), -1, P_ROAD_TILE
            next_road_tile(state)
        else:
            boost(state, action[1], road_bonus(state.dice))
            state.phase = P_SPEND
            if check_win(state):
                return
    after_action(state, rng)


def after_action(state: State, rng: random.Random) -> None:
    """Close the turn when a spending phase has run out of points."""
    if state.phase == P_SPEND and state.points <= 0 and not state.ended:
        end_turn(state, rng)


def next_road_tile(state: State) -> None:
    """Draw the next road tile while one is due, the deck holds one and it has room;
    else the road is done (what is left of it is lost)."""
    if state.road_left > 0 and state.deck and road_next(state):
        draw(state)
    else:
        state.phase = P_SPEND


def spend(state: State, action: Action, rng: random.Random) -> None:
    """Step 5 (and step 7, the shortage swaps): one use of the points."""
    kind = action[0]
    if kind == MOVE:
        _, src, dst, part, cost = action
        piece = mover(state, src, part)
        take(state, src, part)
        put(state, piece, dst)
        state.points -= cost
        if dst >= state.model.cells and check_win(state):
            return
    elif kind == ENTER:
        _, c, cell, tent = action
        if tent:
            state.camp_tents[c] -= 1
            state.points -= 3
        else:
            state.camp_figs[c] -= 1
            state.points -= 1
        state.colour[cell], state.figs[cell], state.tents[cell] = c, 1 - tent, tent
        if c == state.blue and not tent and state.camp_figs[c] == 0:
            start_shortage(state)
    elif kind == SEND:
        seat = state.chooser
        state.refuge_figs[seat][state.blue] -= 1
        put(state, (state.blue, 1, 0, 0), action[1])
        state.water_missions += 1
        state.points -= 1
    elif kind == PROTECT:
        state.tile[action[1]] = GUARDED
        state.cards -= 1
        state.points -= PROTECT_COST
    elif kind == STOP:
        state.points = 0
    elif kind == DRAW:
        draw(state)
        state.points -= 1
        state.phase = P_PLACE
        return
    elif kind == SWAP:
        swap(state, action[1])
        return
    after_action(state, rng)


def skip(state: State, rng: random.Random) -> None:
    """The current phase has no legal action: move on (leftover points or road are lost)."""
    if state.phase in (P_ROAD, P_ROAD_TILE):
        state.phase = P_SPEND
        after_action(state, rng)
    elif state.phase == P_SWAP:
        state.swaps.clear()
        state.phase = state.back_phase
        after_action(state, rng)
    elif state.phase == P_SPEND:
        end_turn(state, rng)
    else:
        raise AssertionError(f"phase {state.phase} always has an action")


# --- turn steps --------------------------------------------------------------------------


def start_turn(state: State, rng: random.Random) -> None:
    """Step 1: a new round begins with seat 0; roll all six dice."""
    if state.seat == 0:
        start_round(state)
    state.may_stop = False
    state.points = 0
    state.dice = [1 + below(rng, 6) for _ in state.dice]
    state.thrown = (1 << len(state.dice)) - 1
    if has_triple(state.dice, state.thrown):
        state.phase = P_REROLL
    else:
        begin_influx(state)


def start_round(state: State) -> None:
    """Thirst: occupied, unprotected face-up thirst fields turn black."""
    state.round += 1
    state.arrived = [0] * PLAYERS
    for cell in state.model.path_cells:
        if state.tile[cell] == THIRST and state.colour[cell] >= 0:
            state.tile[cell] = BLACK
            state.deadline[cell] = state.round + THIRST_GRACE


def end_round(state: State) -> None:
    """Thirst: black fields whose time is up kill what stands on them and turn face up."""
    tv = state.model.tent_value
    for cell in state.model.path_cells:
        if state.tile[cell] == BLACK and state.deadline[cell] <= state.round:
            c = state.colour[cell]
            if c >= 0:
                state.camp_figs[c] += state.figs[cell]
                state.camp_tents[c] += state.tents[cell]
                state.camp_figs[state.blue] += state.bearer[cell]
                state.deaths += state.figs[cell] + tv * state.tents[cell] + state.bearer[cell]
                take(state, cell, BOTH)
            state.tile[cell] = THIRST


def reroll(state: State, mask: int, rng: random.Random) -> None:
    """Re-roll the dice in `mask` (0: keep the roll); again while they show a triple."""
    if mask == 0:
        begin_influx(state)
        return
    for i in range(len(state.dice)):
        if mask >> i & 1:
            state.dice[i] = 1 + below(rng, 6)
    state.thrown = mask
    if not has_triple(state.dice, mask):
        begin_influx(state)


def begin_influx(state: State) -> None:
    """Step 2: the lowest number's colours (blue excluded) bring figures to the camp entry."""
    low = min(state.dice)
    lowest = [c for c, v in enumerate(state.dice) if v == low]
    if state.blue in lowest and len(lowest) >= 3:
        state.pending = []
        state.phase = P_INFLUX_COLOUR
        if influx_choices(state):
            return
    else:
        state.pending = [c for c in lowest if c != state.blue]
    next_influx(state)


def next_influx(state: State) -> None:
    """Drop influx colours that cannot enter (no figure in the camp, no entry field)."""
    while state.pending:
        c = state.pending[0]
        if state.camp_figs[c] and influx_cells(state, c):
            state.phase = P_INFLUX
            return
        state.pending.pop(0)
    state.phase = P_NUMBER


def influx(state: State, colour: int, cell: int) -> None:
    """Put a figure of `colour` on entry field `cell`, pushing its own colour west."""
    escort = 0
    if state.colour[cell] >= 0:
        west = state.model.step[cell][WEST]
        piece = mover(state, cell, GROUP)
        escort = state.bearer[cell]  # a water bearer stays behind with the newcomer
        take(state, cell, GROUP)
        put(state, piece, west)
    state.camp_figs[colour] -= 1
    state.colour[cell], state.figs[cell], state.tents[cell] = colour, 1, 0
    state.bearer[cell] = escort


def choose_number(state: State, n: int) -> None:
    """Step 3: points from n and how many dice show it; those dice's colours are usable."""
    state.usable = [v == n for v in state.dice]
    state.points = action_points(n, sum(state.usable))
    state.phase = P_ROAD if road_bonus(state.dice) else P_SPEND


def boost(state: State, row: int, steps: int) -> None:
    """Step 4 as a boost: every piece on `row` steps west, the one nearest the refuge first."""
    m = state.model
    for start in range(row * m.width, (row + 1) * m.width):
        if state.colour[start] < 0:
            continue
        cell = start
        for _ in range(steps):
            west = m.step[cell][WEST]
            if west < 0:
                break
            piece = mover(state, cell, BOTH if state.bearer[cell] else GROUP)
            if west < m.cells and not can_stand(state, piece, west):
                break
            joins = west < m.cells and state.colour[west] >= 0
            take(state, cell, BOTH)
            put(state, piece, west)
            cell = west
            if joins or west >= m.cells:
                break


def start_shortage(state: State) -> None:
    """Step 7: the last blue figure left the camp; the seats with most blue swap half."""
    blues = [state.refuge_figs[s][state.blue] for s in range(PLAYERS)]
    top = max(blues)
    if top < 2:
        return
    state.swaps = [[s, top // 2] for s in range(PLAYERS) if blues[s] == top]
    state.back_phase, state.phase = state.phase, P_SWAP


def swap(state: State, colour: int) -> None:
    seat = state.swaps[0][0]
    blue = state.blue
    state.refuge_figs[seat][blue] -= 1
    state.camp_figs[blue] += 1
    state.camp_figs[colour] -= 1
    state.refuge_figs[seat][colour] += 1
    state.swaps[0][1] -= 1
    if state.swaps[0][1] == 0:
        state.swaps.pop(0)
    if not state.swaps:
        state.phase = state.back_phase


def end_turn(state: State, rng: random.Random) -> None:
    """Close the turn; at a round's end the thirst deadlines; the end checks; next turn."""
    state.turns += 1
    state.points = 0
    record_leader(state)
    last = state.seat == PLAYERS - 1
    if last:
        end_round(state)
    if not state.deck and nobody_can_win(state):
        state.ended = "deck"
        return
    if last and state.round >= state.max_rounds:
        state.ended = "timeout"
        return
    state.seat = (state.seat + 1) % PLAYERS
    start_turn(state, rng)


# --- the deck end --------------------------------------------------------------------


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


# --- a whole game ------------------------------------------------------------------------


def play_game(
    model: PlayModel, bots: Bot | Sequence[Bot], rng: random.Random, max_rounds: int = MAX_ROUNDS
) -> State:
    """Play one game to its end; `bots` is one bot for both seats or one per seat."""
    seat_bots = list(bots) if isinstance(bots, Sequence) else [bots] * PLAYERS
    state = new_game(model, rng, max_rounds)
    while state.ended is None:
        actions = legal_actions(state)
        if not actions:
            skip(state, rng)
            continue
        state.decisions += 1
        state.legal_moves += len(actions)
        bot = seat_bots[state.chooser]
        apply(state, actions[0] if len(actions) == 1 else bot.choose(state, actions, rng), rng)
    return state
