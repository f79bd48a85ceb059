"""Home in One Piece as a game-state API (`pnp.state.State`) over the rules of `rules.py`.

A turn is two steps. At a chance node the blob dice are rolled: the outcome is the number
of blobs showing (0 to the number of dice), drawn face by face as `dice_model.roll` does.
A blank roll ends the turn at once; otherwise the seat makes one decision, a `Turn`: its
touches in order, each a `Shift` (a blob towards a point) or a `Join` (a group near a
point), which `rules.play` plays through `shift` and `join`.

Continuous choices. Where a blob goes is a point of the plane, so an action carries its
target as data. Which blobs act is discrete, the target is not: `legal_actions()` is a
canonical finite sample, not every legal turn. It lists touching nothing, touching one
blob towards the seat's rally point (one action per blob), and joining every group the
roll allows that can meet, aimed at the rally (exactly the groups `join` accepts there).
Any other `Turn` that `rules.play` accepts is legal too (`is_legal`): the random player's
drawn targets, the greedy player's planned steps. Perft counts over this sample, so it
counts the discrete branching: which blob or group acts, and the roll.

`playout(rng, stop)` plays the random player on the compiled kernel from here, for the tree
search's rollouts (`compiled.playout`), and `tree_search` runs the whole search there
(`compiled.tree_search`), where the kernel is built. `standing()` scores a playout the
search cuts off: the score, then how near the dough lies to its rally point (a search
scored so beat one that scored nothing there, at the same budget and horizon).

`random_action(rng)` is the random player's turn with the draws it has always made (half
the time a roll of two or more joins a random group near a random point, else random
blobs each to a random point within reach), so a seed plays the same game as before; it is
not a uniform pick from the sample, which is not the whole choice. It is played on a copy,
to know when a touch ends the turn, and handed back as one `Turn`. That player draws all
the blobs it will touch before any target, which is why a whole turn is one decision
rather than one decision a touch.

Notation: a roll is ``roll 2``; a turn lists its touches, ``b3>120.5,88.25`` (blob 3
towards that point) and ``b0+b2@300.0,140.0`` (a join), or ``pass``; coordinates are
printed exactly (Python's shortest repr), so `parse_action` reads back the same floats.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache, partial
from typing import Self

from pnp.games.home_in_one_piece import dice_model
from pnp.games.home_in_one_piece.blobs import Blob, centroid, groups, reach
from pnp.games.home_in_one_piece.model import PlayModel
from pnp.games.home_in_one_piece.rules import (
    PASS,
    IllegalMove,
    Join,
    Move,
    Position,
    Shift,
    Turn,
    clear_spot,
    end_turn,
    join,
    play,
    roll,
    score,
    shift,
)
from pnp.outcome import GameRecord, Outcome
from pnp.state import CHANCE, TERMINAL

Action = int | Turn
"""A roll (blobs showing) at a chance node, a `Turn` at a seat's decision."""


class State(Position):
    """A position with the game-state API: who moves, what they may do, and the end."""

    _planned: tuple[Turn, Position] | None = None  # see `played_on_copy`

    @property
    def players(self) -> int:
        return len(self.blobs)

    def current_player(self) -> int:
        if self.ended is not None:
            return TERMINAL
        return self.seat if self.rolled else CHANCE

    def legal_actions(self) -> list[Action]:
        """The canonical finite sample of turns (see the module docstring)."""
        own, k = self.own, self.budget
        rally = self.model.rally[self.seat]
        actions: list[Action] = [PASS]
        actions += [Turn((Shift(i, *rally),)) for i in range(len(own))]
        place = {id(b): i for i, b in enumerate(own)}
        for size in range(2, min(k, len(own)) + 1):
            for group in groups(self.model, own, size):
                if clear_spot(self, group, rally, of_all=False) is not None:
                    actions.append(Turn((Join(tuple(place[id(b)] for b in group), *rally),)))
        return actions

    def is_legal(self, action: Action) -> bool:
        """Would `apply` accept `action` here (a listed roll, or a turn the rules allow)?"""
        if self.current_player() == CHANCE:
            return action in roll_odds(self.model.dice)
        if self.current_player() == TERMINAL or not isinstance(action, Turn):
            return False
        try:
            self.clone().apply(action)
        except IllegalMove:
            return False
        return True

    def parse_action(self, text: str) -> Action:
        """The legal action `action_str` printed as `text` (`pnp.state.State`'s optional
        hook: `legal_actions` is only a sample of the continuous targets)."""
        action = parse_action(text)
        if not self.is_legal(action):
            raise ValueError(f"{text} is not legal here")
        return action

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return [(n, float(p)) for n, p in roll_odds(self.model.dice).items()]

    def sample_chance(self, rng: random.Random) -> Action:
        return dice_model.roll(self.model.dice, rng)

    def random_action(self, rng: random.Random) -> Action:
        scratch = self.turn_copy()
        random_turn(scratch, rng)
        return self.played_on_copy(scratch)

    def turn_copy(self) -> Self:
        """A copy to plan the seat's turn on, before it touches anything. Touches move only
        the seat's own blobs and change only the turn's records, so only those are copied;
        the copy is for `played_on_copy`, not for play beyond this turn."""
        assert self.rolled and not self.touched, "a turn is planned from its start"
        new = copy.copy(self)
        new.blobs = list(self.blobs)
        new.blobs[self.seat] = [Blob(b.x, b.y, b.units, b.r, b.ax, b.ay) for b in self.own]
        new.moves = []
        new.touched = []
        new.counters = dict(self.counters)
        new._planned = None
        return new

    def played_on_copy(self, scratch: Position) -> Turn:
        """The touches a player made on `scratch` (this state's `turn_copy`) as one action.

        The copy is kept until the next `apply`: applying that very action adopts it instead
        of playing the same touches again (the same calls on the same position give the same
        position), so a bot that plans on a copy costs one play of its turn, not two."""
        turn = Turn(tuple(scratch.moves))
        self._planned = (turn, scratch)
        return turn

    def apply(self, action: Action) -> None:
        planned, self._planned = self._planned, None
        player = self.current_player()
        if player == TERMINAL:
            raise IllegalMove("the game is over")
        if player == CHANCE:
            if not isinstance(action, int) or action not in roll_odds(self.model.dice):
                raise IllegalMove(f"{action!r} is not a roll of these dice")
            roll(self, action)
        elif not isinstance(action, Turn):
            raise IllegalMove(f"{action!r} is not a turn")
        elif planned is not None and planned[0] is action:
            vars(self).update(vars(planned[1]))
            end_turn(self)
        else:
            play(self, action)

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
        new._planned = None
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

    @property
    def playout(self) -> Callable[[random.Random, int], None] | None:
        """Random play from here on the kernel (`pnp.state`'s optional hook, see
        `compiled.playout`); None without the kernel or in the middle of a turn played
        touch by touch, where the search plays the readable rules."""
        from pnp.games.home_in_one_piece import compiled  # it imports this module

        if not compiled.available() or (self.rolled and self.touched):
            return None
        return partial(compiled.playout, self)

    def tree_search(
        self,
        rng: random.Random,
        budget: int,
        playout_turns: int,
        exploration: float,
        cooperative: bool,
    ) -> dict[Action, int] | None:
        """`pnp.mcts.MctsBot.search` on the kernel (`compiled.tree_search`): the same visits
        and draws; None without the kernel or in the middle of a turn played touch by
        touch, where the readable search runs."""
        from pnp.games.home_in_one_piece import compiled  # it imports this module

        if not compiled.available() or (self.rolled and self.touched):
            return None
        return compiled.tree_search(self, rng, budget, playout_turns, exploration, cooperative)

    def action_str(self, action: Action) -> str:
        if isinstance(action, int):
            return f"roll {action}"
        return " ".join(_move_str(m) for m in action.moves) or "pass"

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
    """The random player's touches, played on `state`: half the time a roll of two or more
    lets it join, it joins a uniformly chosen group of blobs that can meet, near a uniformly
    random point of the board; otherwise it touches as many random blobs as it may and
    sends each to a uniform point within its reach."""
    own, k = state.own, state.budget
    if k >= 2 and len(own) >= 2 and rng.random() < 0.5:
        options = [
            g
            for size in range(2, min(k, len(own)) + 1)
            for g in groups(state.model, own, size)
            if clear_spot(state, g, centroid(g), of_all=False)
        ]
        if options:
            group = options[rng.randrange(len(options))]
            target = (rng.uniform(0, state.model.width), rng.uniform(0, state.model.height))
            if clear_spot(state, group, target, of_all=False) is None:
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
    if text == "pass":
        return PASS
    return Turn(tuple(_parse_move(word) for word in text.split(" ")))


def _parse_move(word: str) -> Move:
    if ">" in word:
        blob, point = word.split(">")
        x, y = point.split(",")
        return Shift(_blob_number(blob), float(x), float(y))
    names, point = word.split("@")
    x, y = point.split(",")
    return Join(tuple(_blob_number(n) for n in names.split("+")), float(x), float(y))


def _blob_number(name: str) -> int:
    if not name.startswith("b"):
        raise ValueError(f"not a blob: {name!r}")
    return int(name[1:])
