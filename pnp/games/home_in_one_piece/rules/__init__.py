"""Home in One Piece rules over the play model: a turn, its touches, joins and the win.

Blobs are discs (see `model.py`). A turn: roll the blob dice; the blobs showing are how
many of your blobs you may touch. The player then calls `shift` and `join` until they stop
or the turn is over. Both check every rule and say what happened.

- `shift` moves one touched blob towards a target. Its new disc must overlap the disc it
  had at the start of the turn (however often it is touched), within the model's reach,
  and stay on the board; or it bridges: the stretch of its way over one of the other
  player's blobs, when no wider than the model's `bridge`, costs none of the reach
  (`model.bridged_reach`). Otherwise only where it is set down matters.
  Set down on the other player's dough, it is moved back along its move until clear by
  `APART` and the turn ends; set down on one of your own blobs, it stops short of it (a
  player does not join by accident) and the turn goes on.
- `join` makes two or more of your blobs one disc of their summed area, placed where it
  overlaps every one of their turn-start discs within reach, as near the player's
  target as that allows. Every blob joined counts as touched, so joining needs a roll of
  at least two; all of them join in one go (a roll of 3 may join three). A join ends the
  turn. A join that would land on the other player's dough still happens (the seed: your
  dough touched theirs, so move it apart and end the turn): the joined blob is moved to
  the nearest spot clear of all other dough that still overlaps every one of its blobs'
  turn-start discs (`model.nearest_clear`: the seed keeps part of each blob where it
  was). Where no such spot exists the join is not allowed, nor is one that would run into
  another of your own blobs (`landing` says where a join would end, or that it may not).
- The win: all your dough as one blob wholly inside the home zone, checked after each turn.

As a game-state API (`pnp.play.state.State`, in `state.py`), a turn is a chance node (the roll)
and then one decision a touch: a `Shift` (a blob towards a point), a `Join` (a group near a
point) or `END` (the player is done). Targets are continuous, so an action carries its
target as data, and `legal_actions()` lists a finite set of them (see `touches.py`).

Decisions the spec leaves open (each a named constant or option):
- Blobs never break in two: the model has no reason to split dough, so that rule is moot.
- A bridge either stands or is never built: `bridge` (the kit's `bridge_span`) is the
  widest crossing of one of the other player's blobs that stands. A blob that bridges is
  set down whole past the bridge: dough would drape over the wall and follow next turn.
  Joins do not bridge (each blob may bridge the turn before).
- All dough lies at one thickness in play (`model.play_thickness`); `reach` is an engine
  option.
- Seat 0 plays first and starts in the leftmost circle; seats alternate along the row.
  The board is a mirror image for the two seats, so seat 0's edge is the move alone.
- A turn cap (`MAX_TURNS`, both players' turns) ends a game as `timeout`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from pnp.games.home_in_one_piece.rules.blobs import Blob, reach
from pnp.games.home_in_one_piece.rules.model import (
    EPS,
    Disc,
    PlayModel,
    bridged_reach,
    clamp,
    clear,
    free_fraction,
    inside_all,
    nearest_clear,
    nearest_in_discs,
)
from pnp.play.outcome import CUTOFF
from pnp.play.outcome import Termination as BaseTermination

MAX_TURNS = 600
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
    "bridges",
)


class Termination(BaseTermination):
    """How a game of Home in One Piece ends."""

    HOME = "home"  # a player's whole dough lies at home as one blob
    TIMEOUT = "timeout", CUTOFF  # `MAX_TURNS` turns played, nobody home


class IllegalMove(ValueError):
    """A player asked for something the rules do not allow (a bug in the bot)."""


class Shift(NamedTuple):
    """Touch own blob number `blob` and move it towards (x, y)."""

    blob: int
    x: float
    y: float


class Join(NamedTuple):
    """Join own blobs numbered `blobs` into one, as near (x, y) as they reach."""

    blobs: tuple[int, ...]
    x: float
    y: float


class End(NamedTuple):
    """The player is done touching: the turn ends."""


END = End()

Move = Shift | Join


@dataclass
class Position:
    """One game in progress; `blobs[seat]` lists that seat's blobs in a fixed order (a
    `Shift` or `Join` names blobs by their place in it). `moves` logs this turn's touches
    as action data, so a turn planned on a copy can be handed out touch by touch."""

    model: PlayModel
    blobs: list[list[Blob]]
    seat: int = 0  # whose turn it is
    turns: int = 0
    budget: int = 0  # blobs this turn's roll lets the player touch
    rolled: bool = False  # the seat has rolled and now touches
    touched: list[Blob] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    turn_over: bool = False
    ended: Termination | None = None
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


# --- touching -----------------------------------------------------------------------------


def begin_turn(state: Position, allowed: int) -> None:
    """A new turn that may touch `allowed` blobs; every own blob's anchor is where it lies."""
    state.budget = allowed
    state.rolled = True
    state.touched = []
    state.moves = []
    state.turn_over = allowed == 0
    for b in state.own:
        b.ax, b.ay = b.x, b.y


def may_touch(state: Position, blobs: Sequence[Blob]) -> bool:
    """Would touching `blobs` (some maybe touched already) stay within the roll?"""
    new = [b for b in blobs if b not in state.touched]
    return not state.turn_over and len(state.touched) + len(new) <= state.budget


def fresh(state: Position) -> list[Blob]:
    """Own blobs not touched yet this turn."""
    return [b for b in state.own if b not in state.touched]


def touches_left(state: Position) -> int:
    """How many more blobs the roll lets the player touch (0 once the turn is over)."""
    return 0 if state.turn_over else state.budget - len(state.touched)


def _touch(state: Position, blobs: Sequence[Blob]) -> None:
    for b in blobs:
        if b not in state.touched:
            state.touched.append(b)


def _check_own(state: Position, blobs: Sequence[Blob]) -> None:
    if state.turn_over:
        raise IllegalMove("the turn is over")
    if any(b not in state.own for b in blobs):
        raise IllegalMove("a player may touch only their own blobs")
    if not may_touch(state, blobs):
        raise IllegalMove(
            f"the roll allows touching {state.budget} blob{'' if state.budget == 1 else 's'} "
            "this turn"
        )


def shift_target(state: Position, blob: Blob, tx: float, ty: float) -> tuple[float, float]:
    """The target as the rules allow it: within reach of the anchor (bridges over the
    other player's dough counted, `model.bridged_reach`), on the board. A bridged target
    held to the board lies on another line from the anchor, so it is held to that line's
    reach once more (a point between the anchor and one on the board is on the board)."""
    tx, ty = within_reach(state, blob, tx, ty)
    held = clamp(state.model, tx, ty, blob.r)
    if state.model.bridge > 0 and held != (tx, ty):
        return within_reach(state, blob, *held)
    return held


def within_reach(state: Position, blob: Blob, tx: float, ty: float) -> tuple[float, float]:
    """The target, or the furthest point the blob reaches on the way to it."""
    rho = reach(state.model, blob.r, blob.r)
    dx, dy = tx - blob.ax, ty - blob.ay
    d = math.hypot(dx, dy)
    if d > rho:
        others = [b.disc() for b in state.other]
        most = bridged_reach(state.model, blob.ax, blob.ay, blob.r, dx / d, dy / d, others)
        if d > most:
            tx, ty = blob.ax + dx * most / d, blob.ay + dy * most / d
    return tx, ty


def bridged(model: PlayModel, blob: Blob) -> bool:
    """Does `blob` lie past its rigid reach (by more than rounding), so the way past
    the other player's dough took it there?"""
    rho = reach(model, blob.r, blob.r) + EPS
    dx, dy = blob.x - blob.ax, blob.y - blob.ay
    return dx * dx + dy * dy > rho * rho


def discs_except(state: Position, skip: Sequence[Blob]) -> list[Disc]:
    return [b.disc() for seat in state.blobs for b in seat if b not in skip]


def shift(state: Position, blob: Blob, tx: float, ty: float) -> str:
    """Touch `blob` and move it towards (tx, ty): "moved", "stopped" or "touched"."""
    _check_own(state, [blob])
    state.moves.append(Shift(state.own.index(blob), tx, ty))
    _touch(state, [blob])
    tx, ty = shift_target(state, blob, tx, ty)
    dx, dy = tx - blob.x, ty - blob.y
    t = free_fraction(blob.x, blob.y, dx, dy, blob.r, discs_except(state, [blob]))
    hits_other = not clear(tx, ty, blob.r, [b.disc() for b in state.other])
    blob.x, blob.y = (tx, ty) if t == 1.0 else (blob.x + t * dx, blob.y + t * dy)
    state.counters["bridges"] += bridged(state.model, blob)
    if t == 1.0:
        return "moved"
    if hits_other:
        state.turn_over = True
        state.counters["blocked"] += 1
        return "touched"
    return "stopped"


# --- joining ------------------------------------------------------------------------------


def join_spot(
    state: Position, group: Sequence[Blob], tx: float, ty: float
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


def joined_radius(state: Position, group: Sequence[Blob]) -> float:
    return state.model.radii[sum(b.units for b in group)]


def clear_spot(
    state: Position, group: Sequence[Blob], target: tuple[float, float], of_all: bool
) -> tuple[float, float] | None:
    """The group's join spot near `target` if it keeps clear of the player's other blobs
    (and of the other player's too when `of_all`), else None."""
    spot = join_spot(state, group, *target)
    if spot is None:
        return None
    around = (
        discs_except(state, group) if of_all else [b.disc() for b in state.own if b not in group]
    )
    return spot if clear(spot[0], spot[1], joined_radius(state, group), around) else None


def landing(
    state: Position, group: Sequence[Blob], tx: float, ty: float
) -> tuple[tuple[float, float], bool] | None:
    """Where `join` would set the group down aimed at (tx, ty), and whether it was moved
    apart from the other player's dough; None when the join is not allowed there: the
    blobs cannot meet, the joined blob would run into another of the player's blobs, or it
    would land on the other player's dough with no clear spot in the blobs' reach."""
    spot = clear_spot(state, group, (tx, ty), of_all=False)
    if spot is None:
        return None
    big = joined_radius(state, group)
    if clear(spot[0], spot[1], big, [b.disc() for b in state.other]):
        return spot, False
    anchors = [(b.ax, b.ay, reach(state.model, b.r, big)) for b in group]
    moved = nearest_clear(state.model, *spot, big, discs_except(state, group), anchors)
    return None if moved is None else (moved, True)


def join(state: Position, group: Sequence[Blob], tx: float, ty: float) -> str:
    """Join `group` into one blob near (tx, ty) and end the turn: "joined", or "apart" when
    it landed on the other player's dough and was moved clear of it."""
    if len(group) < 2 or len({id(b) for b in group}) < len(group):
        raise IllegalMove("a join needs two or more different blobs")
    _check_own(state, group)
    landed = landing(state, group, tx, ty)
    if landed is None:
        if join_spot(state, group, tx, ty) is None:
            raise IllegalMove("these blobs cannot reach one spot from where they began the turn")
        if clear_spot(state, group, (tx, ty), of_all=False) is None:
            raise IllegalMove("the joined blob would run into another of your blobs")
        raise IllegalMove(
            "the joined blob would land on the other player's dough, and no clear spot "
            "lies within its blobs' reach"
        )
    spot, apart = landed
    state.moves.append(Join(tuple(state.own.index(b) for b in group), tx, ty))
    _touch(state, group)
    state.turn_over = True
    state.counters["blocked"] += apart
    units = sum(b.units for b in group)
    big = joined_radius(state, group)
    state.blobs[state.seat] = [b for b in state.own if b not in group]
    state.own.append(Blob(spot[0], spot[1], units, big, spot[0], spot[1]))
    state.counters["joins"] += 1
    return "apart" if apart else "joined"


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


def won(state: Position, seat: int) -> bool:
    blobs = state.blobs[seat]
    return len(blobs) == 1 and at_home(state.model, blobs[0])


def score(state: Position, seat: int) -> int:
    """Progress in start blobs: joins made plus the dough lying wholly at home.

    A winner has the most possible, 2 x blobs - 1; it orders the leaders turn by turn.
    """
    blobs = state.blobs[seat]
    home = sum(b.units for b in blobs if at_home(state.model, b))
    return state.model.blobs - len(blobs) + home


# --- a whole turn -------------------------------------------------------------------------


def roll(state: Position, allowed: int) -> None:
    """The roll showed `allowed` blobs: count it and begin the turn (a blank roll ends it)."""
    c = state.counters
    c["rolls"] += 1
    c[f"rolls_{allowed}"] += 1
    c["stalled_turns"] += allowed <= 1
    begin_turn(state, allowed)
    if allowed == 0:
        end_turn(state)


def end_turn(state: Position) -> None:
    """After the touches: count them, note the leader, check the win and the turn cap;
    the other seat rolls next."""
    c = state.counters
    c["touches"] += len(state.touched)
    c["idle_turns"] += not state.touched
    state.turns += 1
    scores = [score(state, s) for s in range(len(state.blobs))]
    top = max(scores)
    state.leaders.append(scores.index(top) if scores.count(top) == 1 else -1)
    if won(state, state.seat):
        state.ended, state.winner = Termination.HOME, state.seat
    elif state.turns >= state.max_turns:
        state.ended = Termination.TIMEOUT
    state.seat = 1 - state.seat
    state.rolled = False
