"""Desert Home's bots: `pnp.play.forward`'s generic random and greedy bots, with the game's
evaluation for greedy. They read the public state only (never the deck's order).

`random` is uniform over the legal actions at every decision. `greedy` scores each
action by what it does for its own refuge's goal and against the other's: it re-rolls
for bigger points, picks the number that moves what it needs, builds toward its refuge,
brings useful groups home, escapes and protects thirst fields, and escorts big groups
with water bearers. A drawn tile it sees before laying it: a safe one towards its own
refuge's row, a thirst tile towards its rival's. It lets a road go when taking it would
help the rival more than itself. Ties are broken uniformly. Its re-roll is an action
like the others: `evaluate` rates the one mask `reroll_mask` picks above the rest.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from pnp.games.desert_home import rules
from pnp.games.desert_home.rules import (
    BLACK,
    BOTH,
    DRAW,
    ENTER,
    INFLUX,
    INFLUX_COLOUR,
    MOVE,
    NUMBER,
    P_ROLL,
    PROTECT,
    REROLL,
    ROAD,
    ROAD_DECLINE,
    SEND,
    STOP,
    SWAP,
    THIRST,
    TILE,
    Action,
)
from pnp.games.desert_home.rules.fields import Piece, frontier, moved, mover
from pnp.games.desert_home.rules.goal import refuge_values
from pnp.games.desert_home.rules.model import PlayModel
from pnp.games.desert_home.rules.value import distances
from pnp.play.chance import below, pick
from pnp.play.forward import GreedyBot, RandomBot
from pnp.play.state import Bot
from pnp.play.state import State as GameState

if TYPE_CHECKING:  # the state imports this module (its playout is `play_out`)
    from pnp.games.desert_home.rules.state import State

BOT_NAMES = ("random", "greedy")

KEEP_POINTS = 8
"""The greedy bot keeps a roll worth this many points and re-rolls below it."""
PLAYOUT_RANDOM = 10
"""Percent of a search's playout decisions (`State.playout`) taken at random: the rest
are the greedy bot's (`PlayoutBot`)."""
REFUGE_SIZE = 0.01
"""What each figure a move brings into the greedy bot's own refuge adds to its rating: of
two parts of a group that fill the refuge alike, it takes the larger."""


Refuges = tuple[list[list[int]], list[tuple[int, int, int]], dict[tuple[int, Piece], int]]


def refuge_parts(state: State) -> Refuges:
    """Per seat the refuge values and (counted, short, blue) of `Judge`, and a dict for the
    gains of pieces worked out against them. The refuges change seldom, so their contents
    key the remembered answer."""
    key = ("refuges", *map(tuple, state.refuge_figs), *map(tuple, state.refuge_tents))
    if key not in state.memo:
        m = state.model
        goal, blue = m.goal, m.blue
        values = [refuge_values(state, s) for s in range(rules.PLAYERS)]
        parts = []
        for vs in values:
            short = sum(max(0, goal - v) for c, v in enumerate(vs) if c != blue)
            counted = sum(min(v, goal) for c, v in enumerate(vs) if c != blue)
            parts.append((counted, short, vs[blue]))
        state.memo[key] = values, parts, {}
    found: Refuges = state.memo[key]
    return found


class Judge:
    """What the greedy bot knows about the state for one decision."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.me = state.chooser
        self.other = 1 - self.me
        m = state.model
        self.goal, self.blue, self.tent_value = m.goal, m.blue, m.tent_value
        # per seat: refuge values; (figures counted short of the goal, the shortfall, blue)
        self.values, self.parts, self.known = refuge_parts(state)  # `known`: `piece_gain`'s
        self.dist = [distances(state, s) for s in range(rules.PLAYERS)]
        self.moving: dict[tuple[int, ...], tuple[int, int, int]] = {}  # `move`'s, per part

    def gain(self, seat: int, colour: int, amount: int, bearers: int = 0) -> int:
        """Goal progress seat's refuge would get from these pieces (`goal.progress`'s
        formula, worked out for the change only)."""
        goal = self.goal
        counted, short, vb = self.parts[seat]
        before = counted + min(vb, goal) + min(max(0, vb - goal), short)
        if colour == self.blue:
            vb += amount
        else:
            filled = min(amount, max(0, goal - self.values[seat][colour]))
            counted += filled
            short -= filled
        vb += bearers
        return counted + min(vb, goal) + min(max(0, vb - goal), short) - before

    def piece_gain(self, seat: int, piece: Piece) -> int:
        """`gain` of a piece, remembered while the refuges stay as they are."""
        key = (seat, piece)
        known = self.known.get(key)
        if known is None:
            c, f, t, b = piece
            known = self.known[key] = self.gain(seat, c, f + self.tent_value * t, b)
        return known

    def cell_gain(self, seat: int, cell: int) -> int:
        st = self.state
        if st.colour[cell] < 0:
            return 0
        return self.piece_gain(seat, mover(st, cell, BOTH if st.bearer[cell] else 0))

    def row(self, cell: int) -> int:
        return cell // self.state.model.width

    def home_row(self, seat: int) -> int:
        return self.state.model.refuge_rows[seat]

    # --- scores of one action ------------------------------------------------------

    def move(self, action: Action) -> float:
        """Towards the own refuge what it needs, away from the rival's what the rival
        needs, off a black field; into the own refuge, the more it fills the better (and of
        two parts that fill it alike, the larger: what it takes the rival cannot use)."""
        st = self.state
        m = st.model
        _, src, dst, part, cost, figs, tents = action
        known = self.moving.get((src, part, figs, tents))
        if known is None:  # the moves of one part share what it is worth
            piece = moved(st, action)
            known = self.moving[src, part, figs, tents] = (
                self.piece_gain(self.me, piece),
                self.piece_gain(self.other, piece),
                piece[1] + m.tent_value * piece[2] + piece[3],
            )
        mine, theirs, size = known
        if dst >= m.cells:
            seat = dst - m.cells
            if seat == self.me:
                return (100.0 * mine + 1 + REFUGE_SIZE * size) / cost
            return -100.0 * theirs - 5
        closer = self.dist[self.me][src] - self.dist[self.me][dst]
        closer_them = self.dist[self.other][src] - self.dist[self.other][dst]
        score = closer * (2.0 * mine + 0.2) - closer_them * 1.0 * theirs
        if st.tile[src] == BLACK:
            score += 20.0 * size
        if st.tile[dst] == BLACK:
            score -= 20.0 * size
        elif st.tile[dst] == THIRST:
            score -= 2.0 * size
        return score / cost

    def tile(self, cell: int, face: int = rules.SAFE) -> float:
        """A safe tile towards the own refuge's row; a thirst tile (the seed's tip) away
        from it, in front of the rival's."""
        dr = abs(self.row(cell) - self.home_row(self.me))
        dt = abs(self.row(cell) - self.home_row(self.other))
        if face == THIRST:
            return dr - 1.5 * dt
        return 3.0 - dr + 0.3 * dt

    def draw(self) -> float:
        """Drawing a tile is worth laying a safe one in the best slot (the face is unseen)."""
        return max(self.tile(cell) for cell in frontier(self.state))

    def enter(self, colour: int, cell: int, tent: int) -> float:
        useful = self.piece_gain(self.me, (colour, 1 - tent, tent, 0))  # a figure or a tent
        cost = 3 if tent else 1
        return (0.5 + useful - 0.3 * abs(self.row(cell) - self.home_row(self.me))) / cost

    def send(self, cell: int) -> float:
        st = self.state
        if st.colour[cell] < 0 or st.colour[cell] == st.blue:
            return -10.0
        useful = self.cell_gain(self.me, cell) - 1  # the bearer leaves the refuge for a while
        if st.tile[cell] == BLACK:
            useful += 5
        return useful - 1.0 if st.points >= 3 else -10.0

    def protect(self, cell: int) -> float:
        st = self.state
        mine = self.cell_gain(self.me, cell)
        if st.tile[cell] == BLACK:
            return 10.0 + 5.0 * mine
        return 1.0 + 2.0 * mine if st.colour[cell] >= 0 else 0.5

    def number(self, n: int) -> float:
        st = self.state
        usable = [v == n for v in st.dice]
        score = float(rules.action_points(n, sum(usable)))
        for cell in range(st.model.cells):
            c = st.colour[cell]
            if c >= 0 and (usable[c] or (st.bearer[cell] and usable[st.blue])):
                g = self.cell_gain(self.me, cell)
                score += 0.3 * g + (6.0 * g if st.tile[cell] == BLACK else 0.0)
        if usable[st.blue] and st.refuge_figs[self.me][st.blue]:
            score += 1.0
        return score

    def road(self, row: int) -> float:
        if row == ROAD_DECLINE:
            return 0.0
        if row < 0:
            return 3.0
        st = self.state
        m = st.model
        score = 0.0
        for cell in range(row * m.width, (row + 1) * m.width):
            if st.colour[cell] >= 0:
                if row == self.home_row(self.me):
                    score += 2.0 * self.cell_gain(self.me, cell)
                elif row == self.home_row(self.other):
                    score -= 2.0 * self.cell_gain(self.other, cell)
        return score

    def influx(self, cell: int) -> float:
        return -abs(self.row(cell) - self.home_row(self.me))

    def score(self, a: Action) -> float:
        kind = a[0]
        if kind == MOVE:
            return self.move(a)
        if kind == TILE:
            return self.tile(a[1], self.state.drawn)
        if kind == DRAW:
            return self.draw()
        if kind == ENTER:
            return self.enter(a[1], a[2], a[3])
        if kind == SEND:
            return self.send(a[1])
        if kind == PROTECT:
            return self.protect(a[1])
        if kind == NUMBER:
            return self.number(a[1])
        if kind == ROAD:
            return self.road(a[1])
        if kind == INFLUX:
            return self.influx(a[1])
        if kind in (INFLUX_COLOUR, SWAP):
            return float(self.piece_gain(self.me, (a[1], 1, 0, 0)))  # one figure
        if kind == STOP:
            return 0.0
        raise AssertionError(f"unknown action {a}")


def reroll_mask(dice: list[int]) -> int:
    """Keep a roll worth KEEP_POINTS; else keep the most common number, re-roll the rest."""
    counts = [dice.count(n) for n in range(7)]
    best = max(range(1, 7), key=lambda n: rules.action_points(n, counts[n]) if counts[n] else 0)
    if rules.action_points(best, counts[best]) >= KEEP_POINTS:
        return 0
    keep = max(range(1, 7), key=lambda n: (counts[n], n))
    return sum(1 << i for i, v in enumerate(dice) if v != keep)


def judge(state: State) -> Judge:
    """The `Judge` of the decision `state` is at, made once for all its actions."""
    known = state.memo.get("judge")
    if known is None or known[0] != state.steps:
        known = state.memo["judge"] = (state.steps, Judge(state))
    return known[1]


def evaluate(state: GameState[Action], action: Action) -> float:
    """The greedy bot's rating of `action`: `Judge.score`, and for a re-roll 1 for the mask
    `reroll_mask` picks, 0 for the others (so it is always chosen, with no draw)."""
    state = cast("State", state)  # the greedy bot is only ever handed this game's states
    if action[0] == REROLL:
        known = state.memo.get("reroll")
        if known is None or known[0] != state.steps:
            known = state.memo["reroll"] = (state.steps, reroll_mask(state.dice))
        return 1.0 if action[1] == known[1] else 0.0
    if action[0] == MOVE:
        return judge(state).move(action)
    return judge(state).score(action)


class PlayoutBot:
    """How a tree search plays on from a position it reached (`State.playout`): as the
    greedy bot, but at a decision with a choice, `PLAYOUT_RANDOM` times in a hundred (one
    draw first) a uniform random action. Random playouts tell a search nothing here:
    random players need some 250 rounds to fill a refuge, greedy ones 40; the few random
    choices keep a search from taking greedy's plan for the only one."""

    name = "playout"

    def __init__(self) -> None:
        self.greedy = GreedyBot(evaluate)

    def choose(self, state: State, rng: random.Random) -> Action:
        legal = state.legal_actions()
        if PLAYOUT_RANDOM and len(legal) > 1 and below(rng, 100) < PLAYOUT_RANDOM:
            return pick(rng, legal)
        return self.greedy.choose(state, rng)


def play_out(state: State, rng: random.Random, stop: int) -> None:
    """`PlayoutBot` play from `state`, in place, until the game is over or `turns` reaches
    `stop`: the readable rules' playout, which the kernel's plays draw for draw."""
    bot = PlayoutBot()
    while state.ended is None and state.turns < stop:
        chance = state.phase == P_ROLL
        state.apply(state.sample_chance(rng) if chance else bot.choose(state, rng))


def make_bot(name: str, model: PlayModel | None = None) -> Bot[State]:
    """A bot by name: `pnp.play.forward.RandomBot`, or `GreedyBot` over `evaluate`."""
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot(evaluate)
    raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(BOT_NAMES)}")
