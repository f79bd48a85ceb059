"""Home in One Piece as a game-state API (`pnp.play.state.State`) over the rules of `rules.py`.

A turn is a chance node and then a decision a touch. At the chance node the blob dice are
rolled: the outcome is the number of blobs showing (0 to the number of dice), drawn face by
face as `dice_model.roll` does. A blank roll ends the turn at once; otherwise the seat
decides, one touch at a time: a `Shift` (a blob towards a point), a `Join` (a group near a
point) or `END`. The turn ends on `END`, on a touch that ends it by the rules (a join, dough
set down on the other player's), and once the roll lets no untouched blob be touched.

Continuous choices. Where a blob goes is a point of the plane, so an action carries its
target as data. `legal_actions()` lists `END` and a finite set of touches (`touches.py`):
each untouched blob's steps (the greedy player's fan and a ring every way, where clear)
and each group's clear join spots; every touch the greedy player makes is among them, and
every kind of turn the rules allow (one, two or three blobs moved, a step then a join, any
group that may join) has members. Any other touch `rules.shift` or `rules.join` accepts is
legal too (`is_legal`): the random player's drawn targets, a second touch of a blob.
Perft counts over this set.

A player who plans a whole turn (the random player's draws, the greedy planner) plays it
on a copy of the state (`turn_copy`) and hands its touches out one decision at a time
(`follow_plan`): the random player draws all the blobs it will touch before any target, as
it always has, so a seed plays the same game touch by touch as the kernel plays whole turns.

The tree search (`pnp.play.mcts`) plays its rollouts with the greedy player (`rollout_action`)
and scores a playout it cuts off on `win_chances()` (`outlook.py`); where the kernel is
built it plays those rollouts and the whole search (`compiled.playout`,
`compiled.tree_search`, attached through `pnp.play.fastpath`; this module imports nothing
compiled). `standing()` (the score, then how near the dough lies to its rally point) is the
cut-off's older score, kept for a search that asks for it.

Notation: a roll is ``roll 2``; a touch is ``b3>120.5,88.25`` (blob 3 towards that point) or
``b0+b2@300.0,140.0`` (a join), and ``end`` ends the turn; coordinates are printed exactly
(Python's shortest repr), so `parse_action` reads back the same floats.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import Self

from pnp.games.home_in_one_piece.rules import (
    END,
    End,
    IllegalMove,
    Join,
    Move,
    Position,
    Shift,
    dice_model,
    end_turn,
    fresh,
    greedy,
    join,
    landing,
    outlook,
    roll,
    score,
    shift,
    touches,
    touches_left,
)
from pnp.games.home_in_one_piece.rules.blobs import Blob, centroid, groups, reach
from pnp.games.home_in_one_piece.rules.model import PlayModel
from pnp.play.outcome import GameRecord, Outcome
from pnp.play.state import CHANCE, TERMINAL, EstimatesWins, HasPolicy, ParsesActions, Stands

Action = int | Move | End
"""A roll (blobs showing) at a chance node; a touch or `END` at a seat's decision."""

Planner = Callable[[Position, random.Random], None]
"""Plays the rest of a seat's turn on a copy of the state (see `State.follow_plan`)."""


class State(Position):
    """A position with the game-state API: who moves, what they may do, and the end."""

    _plan: tuple[str, int, int, tuple[Move, ...]] | None = None  # see `follow_plan`

    @property
    def players(self) -> int:
        return len(self.blobs)

    def current_player(self) -> int:
        if self.ended is not None:
            return TERMINAL
        return self.seat if self.rolled else CHANCE

    def legal_actions(self) -> list[Action]:
        """`END`, then the listed touches (see `touches.py`); before the turn's first touch
        only the touches, when there are any. A pass with dice in hand stays legal
        (`is_legal`), but a listed END beside a hundred near-alike steps drew the search's
        visits from them all and two searching players passed in turn (issue 39)."""
        listed: list[Action] = list(touches.options(self))
        return listed if listed and not self.touched else [END, *listed]

    def is_legal(self, action: Action) -> bool:
        """Would `apply` accept `action` here (a listed roll, or a touch the rules allow)?"""
        if self.current_player() == CHANCE:
            return isinstance(action, int) and action in roll_odds(self.model.dice)
        if self.current_player() == TERMINAL or not isinstance(action, (Shift, Join, End)):
            return False
        try:
            self.clone().apply(action)
        except IllegalMove:
            return False
        return True

    def parse_action(self, text: str) -> Action:
        """The legal action `action_str` printed as `text` (`pnp.play.state.State`'s optional
        hook: `legal_actions` lists only some of the continuous targets)."""
        action = parse_action(text)
        if not self.is_legal(action):
            raise ValueError(f"{text} is not legal here")
        return action

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return [(n, float(p)) for n, p in roll_odds(self.model.dice).items()]

    def sample_chance(self, rng: random.Random) -> Action:
        return dice_model.roll(self.model.dice, rng)

    def random_action(self, rng: random.Random) -> Action:
        """The random player's next touch (`random_turn`, planned for the rest of the turn
        when no plan of it is under way); not a uniform pick from the listed touches."""
        return self.follow_plan("random", random_turn, rng)

    def rollout_action(self, rng: random.Random) -> Action:
        """The tree search's rollout policy (`pnp.play.mcts`): the greedy player's next touch."""
        return self.follow_plan("greedy", greedy.take_turn, rng)

    def follow_plan(self, who: str, planner: Planner, rng: random.Random) -> Action:
        """The next touch of the turn `planner` plays, or `END` once it is played out.

        The plan is made on a copy (`turn_copy`) the first time `who` is asked this turn,
        or when the touches made since are not its own, and kept on this state until it
        is played out; `clone` leaves it behind. Playing the same touches on the state
        gives the same position, so the turn is the one planned."""
        planned = self._plan
        done = tuple(self.moves)
        key = (who, self.seat, self.turns)
        if planned is None or planned[:3] != key or planned[3][: len(done)] != done:
            scratch = self.turn_copy()
            planner(scratch, rng)
            planned = self._plan = (*key, tuple(scratch.moves))
        moves = planned[3]
        return moves[len(done)] if len(moves) > len(done) else END

    def turn_copy(self) -> Self:
        """A copy to plan the rest of the seat's turn on. Touches move only the seat's own
        blobs and change only the turn's records, so only those are copied; the copy is for
        planning, not for play beyond this turn."""
        assert self.rolled and not self.turn_over, "a turn is planned while it goes on"
        new = copy.copy(self)
        copies = {id(b): Blob(b.x, b.y, b.units, b.r, b.ax, b.ay) for b in self.own}
        new.blobs = list(self.blobs)
        new.blobs[self.seat] = [copies[id(b)] for b in self.own]
        new.touched = [copies[id(b)] for b in self.touched]
        new.moves = list(self.moves)
        new.counters = dict(self.counters)
        new._plan = None
        return new

    def apply(self, action: Action) -> None:
        player = self.current_player()
        if player == TERMINAL:
            raise IllegalMove("the game is over")
        if player == CHANCE:
            if not isinstance(action, int) or action not in roll_odds(self.model.dice):
                raise IllegalMove(f"{action!r} is not a roll of these dice")
            roll(self, action)
        elif isinstance(action, End):
            end_turn(self)
        elif isinstance(action, (Shift, Join)):
            own = self.own
            named = (action.blob,) if isinstance(action, Shift) else action.blobs
            if any(not 0 <= i < len(own) for i in named):
                raise IllegalMove(f"no blob {action} among the player's {len(own)}")
            if isinstance(action, Shift):
                shift(self, own[action.blob], action.x, action.y)
            else:
                join(self, [own[i] for i in action.blobs], action.x, action.y)
            if touches_left(self) == 0 or not fresh(self):
                end_turn(self)
        else:
            raise IllegalMove(f"{action!r} is not a touch")

    def is_terminal(self) -> bool:
        return self.ended is not None

    def outcome(self) -> Outcome | None:
        if self.ended is None:
            return None
        return Outcome(self.ended, () if self.winner is None else (self.winner,))

    def clone(self) -> Self:
        """An independent copy: new blobs (`touched` points at the copies, blobs a join
        used up included), the model shared (it is frozen)."""
        copies = {id(b): Blob(b.x, b.y, b.units, b.r, b.ax, b.ay) for b in self.touched}
        new = copy.copy(self)
        new.blobs = [
            [copies.get(id(b)) or Blob(b.x, b.y, b.units, b.r, b.ax, b.ay) for b in seat]
            for seat in self.blobs
        ]
        new.touched = list(copies.values())
        new.moves = list(self.moves)
        new.leaders = list(self.leaders)
        new.counters = dict(self.counters)
        new._plan = None
        return new

    def standing(self) -> list[float]:
        """Each seat's progress, for a tree search cut off before the end: its score
        (joins made and dough wholly at home) and, below one point, how near its dough
        lies to its rally point (each blob's distance weighted by its dough)."""
        m = self.model
        far = m.blobs * math.hypot(m.width, m.height)
        out = []
        for s, blobs in enumerate(self.blobs):
            rx, ry = m.rally[s]
            spread = sum(b.units * math.hypot(b.x - rx, b.y - ry) for b in blobs)
            out.append(score(self, s) + 1 - spread / far)
        return out

    def win_chances(self) -> list[float]:
        """Each seat's chance to win from here (`outlook.py`): a cut-off playout's reward."""
        return outlook.win_chances(self)

    def action_str(self, action: Action) -> str:
        if isinstance(action, int):
            return f"roll {action}"
        if isinstance(action, End):
            return "end"
        return _move_str(action)

    def record(self) -> GameRecord:
        return GameRecord(
            turns=self.turns,
            end=str(self.ended.value) if self.ended is not None else "",
            scores=tuple(score(self, s) for s in range(self.players)),
            winners=() if self.winner is None else (self.winner,),
            colours=tuple((c,) for c in self.model.colours),
            leaders=tuple(self.leaders),
            counters=dict(self.counters),
        )


def new_game(model: PlayModel, max_turns: int | None = None) -> State:
    """Every player's blobs in their start circles; seat 0 to roll."""
    r = model.radii[1]
    state = State(
        model=model,
        blobs=[[Blob(x, y, 1, r, x, y) for x, y in seat] for seat in model.starts],
    )
    if max_turns is not None:
        state.max_turns = max_turns
    return state


@lru_cache(maxsize=64)
def roll_odds(dice: tuple[tuple[int, ...], ...]) -> dict[int, Fraction]:
    """Each number of blobs the dice can show, with its chance (impossible ones left out)."""
    return {n: p for n, p in dice_model.distribution(dice).items() if p > 0}


def random_turn(state: Position, rng: random.Random) -> None:
    """The random player's touches for the rest of the turn, played on `state`: half the
    time the roll lets it touch two or more untouched blobs, it joins a uniformly chosen
    group of them that can meet, near a uniformly random point of the board (near the
    group's centre if the rules refuse that point); otherwise it touches as many random
    untouched blobs as it may and sends each to a uniform point within its reach."""
    own, k = fresh(state), touches_left(state)
    if k >= 2 and len(own) >= 2 and rng.random() < 0.5:
        options = [
            g
            for size in range(2, min(k, len(own)) + 1)
            for g in groups(state.model, own, size)
            if landing(state, g, *centroid(g))
        ]
        if options:
            group = options[rng.randrange(len(options))]
            target = (rng.uniform(0, state.model.width), rng.uniform(0, state.model.height))
            if landing(state, group, *target) is None:
                target = centroid(group)
            join(state, group, *target)
            return
    for blob in rng.sample(own, min(k, len(own))):
        if state.turn_over:
            return
        rho = reach(state.model, blob.r, blob.r) * math.sqrt(rng.random())
        angle = rng.uniform(0, 2 * math.pi)
        shift(state, blob, blob.ax + rho * math.cos(angle), blob.ay + rho * math.sin(angle))


# --- notation -----------------------------------------------------------------------------


def _move_str(move: Move) -> str:
    if isinstance(move, Shift):
        return f"b{move.blob}>{float(move.x)!r},{float(move.y)!r}"
    return "+".join(f"b{i}" for i in move.blobs) + f"@{float(move.x)!r},{float(move.y)!r}"


def parse_action(text: str) -> Action:
    """The action `action_str` printed as `text` (a `ValueError` if it is not one)."""
    if text.startswith("roll "):
        return int(text[5:])
    if text == "end":
        return END
    if ">" in text:
        blob, point = text.split(">")
        x, y = point.split(",")
        return Shift(_blob_number(blob), float(x), float(y))
    names, point = text.split("@")
    x, y = point.split(",")
    return Join(tuple(_blob_number(n) for n in names.split("+")), float(x), float(y))


def _blob_number(name: str) -> int:
    if not name.startswith("b"):
        raise ValueError(f"not a blob: {name!r}")
    return int(name[1:])


HOOKS: tuple[type[ParsesActions[Action]], type[HasPolicy], type[Stands], type[EstimatesWins]] = (
    State,
    State,
    State,
    State,
)
"""What `State` offers beyond the game-state API (`pnp.play.state`), each checked by mypy."""
