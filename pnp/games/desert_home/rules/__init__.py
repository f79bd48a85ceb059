"""Desert Home – Immigration rules: the constants, the action vocabulary and the choices the
spec leaves open, for the readable engine (`state`, `moves`, `turn`, `goal`, `fields`).

A game is a `state.State` (the `pnp.play.state.State` API): the seat to move picks one of
`legal_actions()` and `apply`s it; at a chance node one die is thrown (`ROLL`), so a roll of
six dice is six chance steps and a re-roll one per die thrown again. The deck is shuffled
at set-up (`state.new_state`), the only draw made before the first turn; tiles are then
drawn from its top. Every draw goes through `pnp.play.chance`, in a fixed order, so a seed fixes
the game here and in the compiled kernel (`_kernel.c`).

Actions are int tuples, the first item their kind: (REROLL, dice mask) with mask 0 = keep;
(INFLUX_COLOUR, colour); (INFLUX, entry cell); (NUMBER, n); (ROAD, ROAD_TILES, the boosted
row or ROAD_DECLINE); (DRAW,) to draw a tile for a point; (TILE, cell) to lay the tile in
hand, its face seen; (ENTER, colour, entry cell, 1 for a tent); (MOVE, from, to, part,
cost, figures, tents) with `to` = model.cells + seat into seat's refuge, the figures and
tents of the field's group it takes (0, 0 for a water bearer alone); (SEND, cell);
(PROTECT, cell);
(STOP,); (SWAP, colour); and at a chance node (ROLL, the number thrown).

A field holds one colour group (figures and tents of one colour) and, when that colour is
not blue, at most one water bearer (a blue figure) escorting it. A lone blue figure is a
blue group of one; it becomes the escort of a group it joins.

Every choice the spec leaves open is decided in `DECISIONS` (name -> the rule in plain
words, for the rule card and the README); the ones the code branches on are also named
constants below.
"""

from __future__ import annotations

from collections.abc import Sequence

from pnp.play.outcome import CUTOFF, Termination

PLAYERS = 2
MAX_ROUNDS = 300
"""Rounds after which a simulated game stops as a ``timeout``: a limit of the simulation,
not a rule (the spec sets none), so that no game can run for ever, e.g. on a kit whose
supply nobody can fill (`supply.supply_verdict`) and whose deck never runs out. On the
default kit greedy games end in 41 rounds on average (53 at p95 of 1,000 games, seed 1);
random play dawdles, moving parts of groups to and fro, and this limit stops about two
random games in three (65 % of 20,000 at seed 1; their records end in ``timeout``)."""


class End(Termination):
    """How a game of Desert Home ends: a refuge meets the goal (its owner wins), the deck is
    out and nobody can win any more (`goal.nobody_can_win`), or the round limit."""

    REFUGE = "refuge"
    DECK = "deck"
    TIMEOUT = "timeout", CUTOFF


END_REASONS = tuple(str(end) for end in End)

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
    "field it may take); when none can, none comes. When several figures are due they "
    "come in die by die, and each is placed so that all of them come in whenever some way "
    "of placing them allows it: a figure may take a free field only while enough stay free "
    "for the later ones that cannot push.",
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
    "groups": "A move takes any part of the group of one colour on a field (one figure or "
    "tent, some, or all; the rest stay): the seed's 'a piece or a group of pieces' (kit "
    'parameter `groups`, default `split`). With `groups = "whole"` a move takes the whole '
    "group (figures and tents together). Either way its water bearer may go along or stay "
    "behind, or go alone.",
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
P_ROLL = 9  # a chance node: the dice in `state.rolling` are thrown, one at a time

# Action kinds.
REROLL, INFLUX_COLOUR, INFLUX, NUMBER, ROAD, TILE, ENTER, MOVE, SEND, PROTECT, STOP, SWAP = range(
    12
)
DRAW = 12  # a spending action (kinds from ENTER on are spent)
ROLL = 13  # a chance outcome: the number one die shows

# The second item of a ROAD action that is no row: take road tiles, or let the road go.
ROAD_TILES, ROAD_DECLINE = -1, -2

# What part of a field a MOVE takes.
GROUP, BEARER, BOTH = 0, 1, 2

Action = tuple[int, ...]
REROLLS: list[Action] = [(REROLL, mask) for mask in range(64)]  # shared: never mutate
STOP_ACTION: Action = (STOP,)
DRAW_ACTION: Action = (DRAW,)
ROLLS: list[Action] = [(ROLL, n) for n in range(1, 7)]  # a die's outcomes, in order


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


def goal_met(values: Sequence[int], blue: int, goal: int) -> bool:
    """At least `goal` of every colour, blue beyond its own goal filling the gaps."""
    short = sum(max(0, goal - v) for c, v in enumerate(values) if c != blue)
    return values[blue] >= goal + short
