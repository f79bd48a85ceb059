"""Home in One Piece rules over the play model: a turn, its touches, joins and the win.

Blobs are discs (see `model.py`). A turn: roll the blob dice; the blobs showing are how
many of your blobs you may touch. A bot then calls `shift` and `join` until it stops or
the turn is over. Both check every rule and say what happened.

- `shift` moves one touched blob towards a target. Its new disc must overlap the disc it
  had at the start of the turn (however often it is touched), within the model's reach,
  and stay on the board. Only where it is set down matters: dough may bridge over dough.
  Set down on the other player's dough, it is moved back along its move until clear by
  `APART` and the turn ends; set down on one of your own blobs, it stops short of it (a
  player does not join by accident) and the turn goes on.
- `join` makes two or more of your blobs one disc of their summed area, placed where it
  overlaps every one of their turn-start discs within reach, as near the player's
  target as that allows. Every blob joined counts as touched, so joining needs a roll of
  at least two; all of them join in one go (a roll of 3 may join three). A join ends the
  turn. A join that would land on the other player's dough still happens (the seed: your
  dough touched theirs, so move it apart and end the turn): the joined blob is moved to
  the nearest spot clear of all other dough (`apart_spot`), keeping part of its dough on
  a turn-start spot when it can. One that would run into another of your own blobs is
  not allowed.
- The win: all your dough as one blob wholly inside the home zone, checked after each turn.

Decisions the spec leaves open (each a named constant or option):
- Blobs never break in two: the model has no reason to split dough, so that rule is moot.
- All dough lies at one thickness in play (`model.play_thickness`); `reach` is an engine
  option.
- Seat 0 plays first and starts in the leftmost circle; seats alternate along the row.
  The board is a mirror image for the two seats, so seat 0's edge is the move alone.
- A turn cap (`MAX_TURNS`, both players' turns) ends a game as `timeout`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from pnp.games.home_in_one_piece import dice_model
from pnp.games.home_in_one_piece.model import (
    APART,
    Disc,
    PlayModel,
    circle_crossings,
    clamp,
    clear,
    free_fraction,
    inside_all,
    nearest_in_discs,
)

MAX_TURNS = 600
END_REASONS = ("home", "timeout")
COUNTERS = (
    "rolls",
    "rolls_0",
    "rolls_1",
    "rolls_2",
    "rolls_3",
    "stalled_turns",
    "idle_turns",
    "touches",
    "joins",
    "blocked",
)


class IllegalMove(ValueError):
    """A bot asked for something the rules do not allow (a bug in the bot)."""


@dataclass(eq=False, slots=True)
class Blob:
    """One blob: a disc of `units` start blobs' dough. `ax, ay`: where its turn began."""

    x: float
    y: float
    units: int
    r: float
    ax: float
    ay: float

    def disc(self) -> Disc:
        return self.x, self.y, self.r


class Bot(Protocol):
    def take_turn(self, state: State, rng: random.Random) -> None: ...


@dataclass
class State:
    """One game in progress; `blobs[seat]` lists that seat's blobs in a fixed order."""

    model: PlayModel
    blobs: list[list[Blob]]
    seat: int = 0  # whose turn it is
    turns: int = 0
    budget: int = 0  # blobs this turn's roll lets the player touch
    touched: list[Blob] = field(default_factory=list)
    turn_over: bool = False
    ended: str | None = None
    winner: int | None = None
    max_turns: int = MAX_TURNS
    leaders: list[int] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTERS, 0))

    @property
    def own(self) -> list[Blob]:
        return self.blobs[self.seat]

    @property
    def other(self) -> list[Blob]:
        return self.blobs[1 - self.seat]


def new_game(model: PlayModel) -> State:
    """Every player's blobs in their start circles; seat 0 to play."""
    r = model.radii[1]
    return State(
        model=model,
        blobs=[[Blob(x, y, 1, r, x, y) for x, y in seat] for seat in model.starts],
    )


# --- touching -----------------------------------------------------------------------------


def begin_turn(state: State, allowed: int) -> None:
    """A new turn that may touch `allowed` blobs; every own blob's anchor is where it lies."""
    state.budget = allowed
    state.touched = []
    state.turn_over = allowed == 0
    for b in state.own:
        b.ax, b.ay = b.x, b.y


def may_touch(state: State, blobs: Sequence[Blob]) -> bool:
    """Would touching `blobs` (some maybe touched already) stay within the roll?"""
    new = [b for b in blobs if b not in state.touched]
    return not state.turn_over and len(state.touched) + len(new) <= state.budget


def _touch(state: State, blobs: Sequence[Blob]) -> None:
    for b in blobs:
        if b not in state.touched:
            state.touched.append(b)


def _check_own(state: State, blobs: Sequence[Blob]) -> None:
    if state.turn_over:
        raise IllegalMove("the turn is over")
    if any(b not in state.own for b in blobs):
        raise IllegalMove("a player may touch only their own blobs")
    if not may_touch(state, blobs):
        raise IllegalMove(
            f"the roll allows touching {state.budget} blob{'' if state.budget == 1 else 's'} "
            "this turn"
        )


def reach(model: PlayModel, r_from: float, r_to: float) -> float:
    """How far a blob's centre may end from where it began the turn."""
    return model.reach * (r_from + r_to)


def shift_target(state: State, blob: Blob, tx: float, ty: float) -> tuple[float, float]:
    """The target as the rules allow it: within reach of the anchor, on the board."""
    rho = reach(state.model, blob.r, blob.r)
    dx, dy = tx - blob.ax, ty - blob.ay
    d = math.hypot(dx, dy)
    if d > rho:
        tx, ty = blob.ax + dx * rho / d, blob.ay + dy * rho / d
    return clamp(state.model, tx, ty, blob.r)


def discs_except(state: State, skip: Sequence[Blob]) -> list[Disc]:
    return [b.disc() for seat in state.blobs for b in seat if b not in skip]


def shift(state: State, blob: Blob, tx: float, ty: float) -> str:
    """Touch `blob` and move it towards (tx, ty): "moved", "stopped" or "touched"."""
    _check_own(state, [blob])
    _touch(state, [blob])
    tx, ty = shift_target(state, blob, tx, ty)
    dx, dy = tx - blob.x, ty - blob.y
    t = free_fraction(blob.x, blob.y, dx, dy, blob.r, discs_except(state, [blob]))
    hits_other = not clear(tx, ty, blob.r, [b.disc() for b in state.other])
    blob.x, blob.y = (tx, ty) if t == 1.0 else (blob.x + t * dx, blob.y + t * dy)
    if t == 1.0:
        return "moved"
    if hits_other:
        state.turn_over = True
        state.counters["blocked"] += 1
        return "touched"
    return "stopped"


# --- joining ------------------------------------------------------------------------------


def join_spot(
    state: State, group: Sequence[Blob], tx: float, ty: float
) -> tuple[float, float] | None:
    """Where `group` joined would lie, as near (tx, ty) as the rules allow, or None.

    The joined disc must overlap each blob's turn-start disc within reach and stay on the
    board; other dough is not looked at here (see `join`).
    """
    model = state.model
    big = model.radii[sum(b.units for b in group)]
    discs = [(b.ax, b.ay, reach(model, b.r, big)) for b in group]
    tx, ty = clamp(model, tx, ty, big)
    spot = nearest_in_discs(tx, ty, discs)
    if spot is None:
        return None
    on_board = clamp(model, spot[0], spot[1], big)
    return on_board if inside_all(on_board[0], on_board[1], discs) else None


def joined_radius(state: State, group: Sequence[Blob]) -> float:
    return state.model.radii[sum(b.units for b in group)]


APART_SLACK = 1e-7
"""mm: a spot moved apart lies this far past the touching distance, so `clear` holds."""


def apart_spot(
    model: PlayModel,
    x: float,
    y: float,
    r: float,
    avoid: Sequence[Disc],
    anchors: Sequence[Disc],
) -> tuple[float, float] | None:
    """The nearest centre to (x, y) where a disc of radius `r` lies on the board, clear of
    every disc in `avoid`; among those inside all `anchors` (the turn-start reach) if any.

    The nearest such point lies on the edge of the free region, so the candidates are
    (x, y) pushed straight out of each disc, where two pushed-out circles cross, where one
    meets a board edge, and the board's corners; None only when dough covers the board.
    """
    lo_x, hi_x, lo_y, hi_y = r, model.width - r, r, model.height - r
    rings = [(ox, oy, r + orad + APART + APART_SLACK) for ox, oy, orad in avoid]
    candidates = [(x, y)]
    for ox, oy, s in rings:
        d = math.hypot(x - ox, y - oy)
        ux, uy = ((x - ox) / d, (y - oy) / d) if d > 0 else (0.0, 1.0)
        candidates.append((ox + ux * s, oy + uy * s))
        for edge in (lo_x, hi_x):
            h = s * s - (edge - ox) ** 2
            if h >= 0:
                candidates += [(edge, oy + math.sqrt(h)), (edge, oy - math.sqrt(h))]
        for edge in (lo_y, hi_y):
            h = s * s - (edge - oy) ** 2
            if h >= 0:
                candidates += [(ox + math.sqrt(h), edge), (ox - math.sqrt(h), edge)]
    for i, a in enumerate(rings):
        for b in rings[i + 1 :]:
            candidates += circle_crossings(a, b)
    candidates += [(lo_x, lo_y), (lo_x, hi_y), (hi_x, lo_y), (hi_x, hi_y)]
    free = [
        (cx, cy)
        for cx, cy in candidates
        if lo_x - 1e-9 <= cx <= hi_x + 1e-9
        and lo_y - 1e-9 <= cy <= hi_y + 1e-9
        and clear(cx, cy, r, avoid)
    ]
    held = [c for c in free if inside_all(c[0], c[1], anchors)]
    pool = held or free
    if not pool:
        return None
    return min(pool, key=lambda c: ((c[0] - x) ** 2 + (c[1] - y) ** 2, c))


def join(state: State, group: Sequence[Blob], tx: float, ty: float) -> str:
    """Join `group` into one blob near (tx, ty) and end the turn: "joined", or "apart" when
    it landed on the other player's dough and was moved clear of it."""
    if len(group) < 2 or len({id(b) for b in group}) < len(group):
        raise IllegalMove("a join needs two or more different blobs")
    _check_own(state, group)
    spot = join_spot(state, group, tx, ty)
    if spot is None:
        raise IllegalMove("these blobs cannot reach one spot from where they began the turn")
    big = joined_radius(state, group)
    rest = [b.disc() for b in state.own if b not in group]
    if not clear(spot[0], spot[1], big, rest):
        raise IllegalMove("the joined blob would run into another of your blobs")
    _touch(state, group)
    state.turn_over = True
    outcome = "joined"
    if not clear(spot[0], spot[1], big, [b.disc() for b in state.other]):
        state.counters["blocked"] += 1
        anchors = [(b.ax, b.ay, reach(state.model, b.r, big)) for b in group]
        moved = apart_spot(state.model, *spot, big, discs_except(state, group), anchors)
        if moved is None:  # dough covers the board: nowhere to put it down
            return "touched"
        spot, outcome = moved, "apart"
    units = sum(b.units for b in group)
    state.blobs[state.seat] = [b for b in state.own if b not in group]
    state.own.append(Blob(spot[0], spot[1], units, big, spot[0], spot[1]))
    state.counters["joins"] += 1
    return outcome


# --- the win and the scores ---------------------------------------------------------------


def at_home(model: PlayModel, blob: Blob) -> bool:
    """Wholly inside the home zone (touching its edge from inside counts as inside)."""
    x0, y0, x1, y1 = model.home
    return (
        blob.x - blob.r >= x0 - 1e-9
        and blob.x + blob.r <= x1 + 1e-9
        and blob.y - blob.r >= y0 - 1e-9
        and blob.y + blob.r <= y1 + 1e-9
    )


def won(state: State, seat: int) -> bool:
    blobs = state.blobs[seat]
    return len(blobs) == 1 and at_home(state.model, blobs[0])


def score(state: State, seat: int) -> int:
    """Progress in start blobs: joins made plus the dough lying wholly at home.

    A winner has the most possible, 2 x blobs - 1; it orders the leaders turn by turn.
    """
    blobs = state.blobs[seat]
    home = sum(b.units for b in blobs if at_home(state.model, b))
    return state.model.blobs - len(blobs) + home


# --- a whole turn -------------------------------------------------------------------------


def play_turn(state: State, bot: Bot, rng: random.Random) -> None:
    """Roll, let the bot touch, then the end checks; the other seat plays next."""
    allowed = dice_model.roll(state.model.dice, rng)
    c = state.counters
    c["rolls"] += 1
    c[f"rolls_{allowed}"] += 1
    c["stalled_turns"] += allowed <= 1
    begin_turn(state, allowed)
    if allowed:
        bot.take_turn(state, rng)
    c["touches"] += len(state.touched)
    c["idle_turns"] += not state.touched
    state.turns += 1
    scores = [score(state, s) for s in range(len(state.blobs))]
    top = max(scores)
    state.leaders.append(scores.index(top) if scores.count(top) == 1 else -1)
    if won(state, state.seat):
        state.ended, state.winner = "home", state.seat
    elif state.turns >= state.max_turns:
        state.ended = "timeout"
    state.seat = 1 - state.seat


def play_game(
    model: PlayModel, bots: Bot | Sequence[Bot], rng: random.Random, max_turns: int = MAX_TURNS
) -> State:
    """Play one game to its end; `bots` is one bot for both seats or one per seat."""
    state = new_game(model)
    state.max_turns = max_turns
    seat_bots = list(bots) if isinstance(bots, Sequence) else [bots, bots]
    while state.ended is None:
        play_turn(state, seat_bots[state.seat], rng)
    return state
