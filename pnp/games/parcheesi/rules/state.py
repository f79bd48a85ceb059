"""Parcheesi as the game-state API: a game's turns, seat by seat, and how it ends.

The rules of a roll (which results a roll allows, and what a result does to the board)
are `rules.py`'s; this module walks a game through them as `pnp.play.state.State` asks: a turn
is a chance node, the roll of both dice, then the mover's choice among the results the
roll allows, even when there is only one. A model whose `dice` is `choose` (the
simulation's option) plays the seed's choice to roll one die: each roll then begins with
the mover's decision, both dice or one (`DICE_CHOICES`), and a roll of one die is a chance
node of six outcomes. By default every roll is of both dice, as decision 13's random
player and the greedy one always roll. With option `standard` a double is followed by
another roll in the same turn, and a third is penalised instead of played. The forward
model (`pnp.play.forward.play`) counts the choices with more than one result: the engine's
decisions and legal moves.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from pnp.games.parcheesi.rules import (
    COUNTERS,
    MAX_TURNS,
    NEST,
    PAWNS,
    Position,
    allowed_positions,
    apply_position,
    has_won,
    outlook,
    progress,
    roll_die,
    seat_colours,
    three_doubles_penalty,
)
from pnp.games.parcheesi.rules.model import PlayModel
from pnp.games.parcheesi.rules.rank import rank_value
from pnp.play import outcome
from pnp.play.chance import below, pick
from pnp.play.outcome import CUTOFF, GameRecord, Outcome
from pnp.play.state import CHANCE, TERMINAL, EstimatesWins, PlaysOut, Stands


class Termination(outcome.Termination):
    """How a game ends (decision 14): a colour brings its four pawns home, or the turn
    limit cuts the game off."""

    HOME = "home"
    TIMEOUT = "timeout", CUTOFF


Dice = tuple[int, ...]
"""A chance outcome: the two dice, the lower first (their order never matters), or the
one die rolled alone (a 1-tuple)."""
Choice = Literal["both", "one"]
"""The mover's choice before a roll, where the model lets it choose (`dice = choose`)."""
Action = Position | Dice | Choice
"""A step of a game: the dice to roll, the roll at a chance node, or the position the
mover chooses."""

DICE_CHOICES: tuple[Choice, ...] = ("both", "one")
ROLLS: tuple[tuple[Dice, float], ...] = tuple(
    ((a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)
)
ONE_DIE: tuple[tuple[Dice, float], ...] = tuple(((a,), 1 / 6) for a in range(1, 7))
ROLL_SET = frozenset(dice for dice, _ in ROLLS)
ONE_DIE_SET = frozenset(dice for dice, _ in ONE_DIE)
PLAYOUT_EXPLORE = 10
"""The tree search's playouts (`State.playout`) are played by a guided player: this
percent of its choices uniform, the others greedy's (`guided_action`). Random playouts
let the opponents leave captures and the mover leave its pawns exposed at no cost, so
the search rated safety and captures below what the greedy players it meets make of
them (docs/skilled-play.md: the measurements)."""


@dataclass
class State:
    """One game in progress. `pawns[c]` holds colour c's pawns (empty if c is not
    played); `dice` is the roll the mover is playing, None at a chance node."""

    model: PlayModel
    seats: tuple[int, ...]  # per seat: its colour
    pawns: list[list[int]]
    seat: int = 0  # whose turn it is
    turns: int = 0
    ended: Termination | None = None
    winner: int | None = None  # seat
    leaders: list[int] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTERS, 0))
    dice: Dice | None = None
    rolling: int = 0  # the dice the mover chose to roll next (`dice = choose`), 0 before
    doubles: int = 0  # doubles rolled so far this turn (`standard`)
    _offered: tuple[Position, ...] | None = field(default=None, repr=False, compare=False)

    @property
    def colour(self) -> int:
        return self.seats[self.seat]

    @property
    def standard(self) -> bool:
        return self.model.rules == "standard"

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def choosing(self) -> bool:
        """The mover is to choose how many dice to roll (the model's `dice` is `choose`)."""
        return self.dice is None and self.rolling == 0 and self.model.dice == "choose"

    def current_player(self) -> int:
        if self.ended is not None:
            return TERMINAL
        return CHANCE if self.dice is None and not self.choosing else self.seat

    def legal_actions(self) -> tuple[Position, ...] | tuple[Choice, ...]:
        """The allowed results of the roll being played, in `Position` order; before a
        roll the mover may choose, both dice or one (`DICE_CHOICES`)."""
        if self.choosing:
            return DICE_CHOICES
        if self.dice is None:
            raise ValueError("the dice are not rolled: a chance node")
        if self._offered is None:
            self._offered = tuple(allowed_positions(self, self.dice))
        return self._offered

    def chance_outcomes(self) -> tuple[tuple[Dice, float], ...]:
        return ONE_DIE if self.rolling == 1 else ROLLS

    def sample_chance(self, rng: random.Random) -> Dice:
        if self.rolling == 1:
            return (roll_die(rng),)
        a, b = roll_die(rng), roll_die(rng)
        return (a, b) if a <= b else (b, a)

    def random_action(self, rng: random.Random) -> Action:
        return pick(rng, self.legal_actions())

    def apply(self, action: Action) -> None:
        if self.ended is not None:
            raise ValueError("the game is over")
        if self.choosing:
            if action not in DICE_CHOICES:
                raise ValueError(f"{action!r} is not a choice of dice: both or one")
            self.rolling = 1 if action == "one" else 2
        elif self.dice is None:
            if self.rolling == 1 and action not in ONE_DIE_SET:
                raise ValueError(f"{action!r} is not a roll of one die")
            if self.rolling != 1 and action not in ROLL_SET:
                raise ValueError(f"{action!r} is not a roll of two dice, lower first")
            self._roll(action)  # type: ignore[arg-type]
        elif isinstance(action, Position) and action in self.legal_actions():
            self._play(action)
        else:
            raise ValueError(f"{action!r} is not an allowed result of this roll")

    def _roll(self, dice: Dice) -> None:
        """Option `standard`: a third double in a turn is not played but penalised."""
        if self.standard and len(dice) == 2 and dice[0] == dice[1]:
            self.doubles += 1
            if self.doubles == 3:
                three_doubles_penalty(self)
                self._end_turn()
                return
        self.dice = dice

    def _play(self, position: Position) -> None:
        """The mover's choice becomes the board; after a `standard` double, roll again."""
        dice = self.dice
        assert dice is not None
        if position.own == tuple(sorted(self.pawns[self.colour])):
            self.counters["passes"] += 1
        apply_position(self, position)
        self.dice, self.rolling, self._offered = None, 0, None
        if has_won(self) or not (self.standard and len(dice) == 2 and dice[0] == dice[1]):
            self._end_turn()

    def _end_turn(self) -> None:
        """The turn's end checks (decision 14), then the next seat."""
        self.turns += 1
        totals = progress(self)
        top = max(totals)
        self.leaders.append(totals.index(top) if totals.count(top) == 1 else -1)
        if has_won(self):
            self.ended, self.winner = Termination.HOME, self.seat
        elif self.turns >= MAX_TURNS:
            self.ended = Termination.TIMEOUT
        self.seat = (self.seat + 1) % len(self.seats)
        self.doubles = self.rolling = 0

    def playout(self, rng: random.Random, stop: int) -> None:
        """The tree search's rollout (`pnp.play.mcts.playout`): play by the guided player
        (`PLAYOUT_EXPLORE`) from here, in place, until the game is over or `turns` reaches
        `stop`, drawing from `random.Random(n)` for one draw n of `rng` (`play_guided`;
        the kernel plays the same game, `compiled.playout`)."""
        seed = rng.getrandbits(64)
        if self.ended is not None or self.turns >= stop:
            return
        play_guided(self, random.Random(seed), stop, PLAYOUT_EXPLORE)

    def standing(self) -> list[int]:
        """Each seat's progress (`rules.progress`)."""
        return progress(self)

    def win_chances(self) -> list[float]:
        """Each seat's chance to win from here (`outlook.win_chances`), which scores a tree
        search's playout cut off before the game ends."""
        return outlook.win_chances(self.model, self.seats, self.pawns, self.seat)

    def is_terminal(self) -> bool:
        return self.ended is not None

    def outcome(self) -> Outcome | None:
        if self.ended is None:
            return None
        return Outcome(self.ended, () if self.winner is None else (self.winner,))

    def clone(self) -> State:
        return replace(
            self,
            pawns=[list(p) for p in self.pawns],
            leaders=list(self.leaders),
            counters=dict(self.counters),
        )

    def action_str(self, action: Action) -> str:
        """A choice of dice ("both", "one"); a roll as "2-5" (one die: "5"); a result as
        the mover's pawns ("N" nest, "H" home) and the track spaces whose pawn it sends
        back ("N N 0 36 x18")."""
        if isinstance(action, str):
            return action
        if not isinstance(action, Position):
            return "-".join(str(d) for d in action)
        home = self.model.home
        pawns = ["N" if p == NEST else "H" if p == home else str(p) for p in action.own]
        spaces = [str(n) for n in range(action.captured.bit_length()) if action.captured >> n & 1]
        return " ".join(pawns) + (" x" + ",".join(spaces) if spaces else "")

    def record(self) -> GameRecord:
        end = "" if self.ended is None else self.ended.value
        return game_record(
            self.model, self.seats, self.turns, end, self.pawns, self.leaders, self.counters
        )


def play_randomly(state: State, rng: random.Random, stop: int) -> None:
    """The readable rules' random play: roll, then a uniform choice among the allowed
    results, until the game is over or `turns` reaches `stop` (a turn under way ends first)."""
    play_guided(state, rng, stop, -1)


def play_guided(state: State, rng: random.Random, stop: int, explore: int) -> None:
    """`play_randomly` with the guided player's choices (`guided_action`; `explore` -1:
    the random player's), as the kernel's `playout` plays them."""
    while state.ended is None and state.turns < stop:
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
        elif explore < 0:
            state.apply(state.random_action(rng))
        else:
            state.apply(guided_action(state, rng, explore))


def guided_action(state: State, rng: random.Random, explore: int) -> Action:
    """The playouts' player: with several choices, one draw below 100 says whether this
    one is uniform (below `explore`) or greedy's (`greedy_value`, ties uniform)."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if below(rng, 100) < explore:
        return pick(rng, legal)
    values = [greedy_value(state, a) for a in legal]
    best = max(values)
    return pick(rng, [a for a, v in zip(legal, values, strict=True) if v == best])


def greedy_value(state: State, action: Action) -> float:
    """How the greedy player rates a choice: a result by `rank.rank_value`; before a roll
    (`dice = choose`), both dice above one."""
    if isinstance(action, Position):
        return rank_value(state.model, state.colour, action)
    return 1.0 if action == "both" else 0.0


def new_game(model: PlayModel, players: int) -> State:
    """The start: every pawn in its nest, seat 0 to roll."""
    if not 2 <= players <= 4:
        raise ValueError(f"Parcheesi takes 2 to 4 players, got {players}")
    seats = seat_colours(players)
    pawns = [[NEST] * PAWNS if c in seats else [] for c in range(len(model.paths))]
    return State(model, seats, pawns)


def game_record(
    model: PlayModel,
    seats: Sequence[int],
    turns: int,
    end: str,
    pawns: Sequence[Sequence[int]],
    leaders: Sequence[int],
    counters: Mapping[str, int],
) -> GameRecord:
    """A finished game as the runner tallies it (the rules' and the kernel's games alike):
    a seat's score is its pawns at home; the winner is the seat with all four home."""
    scores = tuple([list(pawns[c]).count(model.home) for c in seats])
    winners = tuple([s for s, n in enumerate(scores) if n == PAWNS]) if end == "home" else ()
    colours = tuple([(model.colours[c],) for c in seats])
    return GameRecord(turns, end, scores, winners, colours, tuple(leaders), dict(counters))


HOOKS: tuple[type[PlaysOut], type[Stands], type[EstimatesWins]] = (State, State, State)
"""What `State` offers beyond the game-state API (`pnp.play.state`), each checked by mypy."""
