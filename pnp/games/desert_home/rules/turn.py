"""Desert Home's turn, step by step: applying a seat's action or a die's throw, and running
what follows up to the next decision or chance node."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.games.desert_home.rules import (
    BLACK,
    BOTH,
    DRAW,
    ENTER,
    GROUP,
    GUARDED,
    INFLUX,
    INFLUX_COLOUR,
    MOVE,
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
    PLAYERS,
    PROTECT,
    PROTECT_COST,
    REROLL,
    ROAD,
    ROAD_DECLINE,
    ROAD_TILES,
    ROAD_TILES_CHAIN,
    SEND,
    STOP,
    SWAP,
    THIRST,
    THIRST_GRACE,
    TILE,
    Action,
    End,
    action_points,
    has_triple,
    road_bonus,
)
from pnp.games.desert_home.rules.fields import (
    can_stand,
    draw,
    lay_drawn,
    moved,
    mover,
    put,
    road_next,
    take,
    take_some,
)
from pnp.games.desert_home.rules.goal import check_win, nobody_can_win, record_leader
from pnp.games.desert_home.rules.model import WEST
from pnp.games.desert_home.rules.moves import influx_cells, influx_choices, legal_actions

if TYPE_CHECKING:
    from pnp.games.desert_home.rules.state import State


def settle(state: State) -> None:
    """Run what needs nobody's choice: a phase with no legal action moves on (`skip`), until
    a seat has a choice (kept in `state.legal`), a die is to be thrown, or the game is over."""
    while state.ended is None and state.phase != P_ROLL:
        actions = legal_actions(state)
        if actions:
            state.legal = actions
            return
        skip(state)


def roll(state: State, number: int) -> None:
    """A chance step: the next die of `state.rolling` shows `number`; once the last one is
    down, a triple among the dice thrown offers a re-roll, else the influx comes."""
    state.dice[state.rolling.pop(0)] = number
    if state.rolling:
        return
    if has_triple(state.dice, state.thrown):
        state.phase = P_REROLL
    else:
        begin_influx(state)


def apply(state: State, action: Action) -> None:
    """Do one legal action of the seat to move, then what follows up to the next step."""
    kind = action[0]
    if kind >= ENTER:  # spending: most actions
        spend(state, action)
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
        reroll(state, action[1])
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
    after_action(state)


def after_action(state: State) -> None:
    """Close the turn when a spending phase has run out of points."""
    if state.phase == P_SPEND and state.points <= 0 and not state.ended:
        end_turn(state)


def next_road_tile(state: State) -> None:
    """Draw the next road tile while one is due, the deck holds one and it has room;
    else the road is done (what is left of it is lost)."""
    if state.road_left > 0 and state.deck and road_next(state):
        draw(state)
    else:
        state.phase = P_SPEND


def spend(state: State, action: Action) -> None:
    """Step 5 (and step 7, the shortage swaps): one use of the points."""
    kind = action[0]
    if kind == MOVE:
        _, src, dst, part, cost, figs, tents = action
        piece = moved(state, action)
        take_some(state, src, part, figs, tents)
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
    after_action(state)


def skip(state: State) -> None:
    """The current phase has no legal action: move on (leftover points or road are lost)."""
    if state.phase in (P_ROAD, P_ROAD_TILE):
        state.phase = P_SPEND
        after_action(state)
    elif state.phase == P_SWAP:
        state.swaps.clear()
        state.phase = state.back_phase
        after_action(state)
    elif state.phase == P_SPEND:
        end_turn(state)
    else:
        raise AssertionError(f"phase {state.phase} always has an action")


# --- turn steps --------------------------------------------------------------------------


def start_turn(state: State) -> None:
    """Step 1: a new round begins with seat 0; all six dice are to be thrown (`roll`)."""
    if state.seat == 0:
        start_round(state)
    state.may_stop = False
    state.points = 0
    throw(state, (1 << len(state.dice)) - 1)


def throw(state: State, mask: int) -> None:
    """The dice of `mask` are to be thrown, one chance step each, lowest first."""
    state.thrown = mask
    state.rolling = [i for i in range(len(state.dice)) if mask >> i & 1]
    state.phase = P_ROLL


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


def reroll(state: State, mask: int) -> None:
    """Re-roll the dice in `mask` (0: keep the roll); `roll` offers another re-roll while
    the dice thrown show a triple."""
    if mask == 0:
        begin_influx(state)
    else:
        throw(state, mask)


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


def end_turn(state: State) -> None:
    """Close the turn; at a round's end the thirst deadlines; the end checks; next turn."""
    state.turns += 1
    state.points = 0
    record_leader(state)
    last = state.seat == PLAYERS - 1
    if last:
        end_round(state)
    if not state.deck and nobody_can_win(state):
        state.ended = End.DECK
        return
    if last and state.round >= state.max_rounds:
        state.ended = End.TIMEOUT
        return
    state.seat = (state.seat + 1) % PLAYERS
    start_turn(state)
