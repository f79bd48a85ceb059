"""Exploding Dice rules: the readable reference engine, as the game-state API.

Every rule of the spec lives here as a small function over a mutable `State` (step 3's
entries in `entries.py`), and a turn is a walk of steps (`pnp.play.state`): the seat picks a
colour to draw, a die of that colour is drawn (chance), it is rolled (chance), the seat
picks an entry; steps 4-6 (score, explode, end checks) follow the placement at once.
`pnp.play.forward.play` plays it; `engine.py` adds a table-driven fast path that makes the same
draws, and the conformance data
(`tests/conformance/exploding-dice.json`) holds both to the same games.

Conventions: cells are ints `r * n + c` (row 0 on top); colour k owns zone k and start
point k of the play model; a die on the grid is a die id (index into `model.dice`).

Decisions the spec leaves open (documented for the README):
- Drawing a die of a colour whose reserve dice do not all share the same faces is chance
  (a blind draw among them); when they share faces the pick does not matter and uses no
  randomness (the draw has one outcome, the lowest die id).
- The draw fallback reads the seed: the colours lowest on the score track (all four,
  owned or not); when none of them has a reserve die, any die of the reserve (the seat
  picks its colour: every colour still in the reserve is an option).
- With the `skip` stall rule, steps 4 and 5 still run when the die goes back (the turn
  goes on); a full round with no die placed and no score change ends the game `stalled`.
- An empty reserve at the draw ends the game as `reserve` (only possible when there are
  fewer dice than intersections); a grid that is full before a turn ends it as `full`.
- A turn cap (`MAX_TURNS`) ends a game as `timeout`, so no game can hang.
- Colours are dealt to players at random and the first player is random: one shuffle of
  the colours; seat 0 plays first, then clockwise (seat 1, 2, ...).
"""

from __future__ import annotations

import copy
import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from typing import Self

from pnp.games.exploding_dice.params import PlayModel
from pnp.games.exploding_dice.rules.entries import legal_entries, restricted_entries
from pnp.games.exploding_dice.rules.grid import Board, push
from pnp.play import outcome
from pnp.play.chance import below, pick
from pnp.play.forward import play_on
from pnp.play.outcome import CUTOFF, GameRecord, Outcome
from pnp.play.state import CHANCE, TERMINAL, PlaysOut, Stands

MAX_TURNS = 1000
TARGET = 50


class Termination(outcome.Termination):
    """How a game of Exploding Dice ends."""

    FIFTY = "fifty"  # a colour reached TARGET points
    FULL = "full"  # no intersection left free
    RESERVE = "reserve"  # no die left to draw
    STALLED = "stalled", CUTOFF  # `skip` rule: a whole round with no die placed, no points
    TIMEOUT = "timeout", CUTOFF  # MAX_TURNS played


class Step(Enum):
    """Where a turn stands: what the next action is."""

    COLOUR = "colour"  # the seat picks the colour to draw (step 2, or a redraw)
    TAKE = "take"  # chance: a die of that colour comes out of the reserve
    ROLL = "roll"  # chance: the die is rolled
    ENTRY = "entry"  # the seat picks the entry the die goes in at (step 3)


@dataclass
class State:
    """One game in progress. `grid[cell]` is a die id or None; `shown[cell]` its face.

    A new state stands at the start of `seat`'s turn (or is over at once: a full grid, an
    empty reserve). Actions are ints: a colour, a die id, a face or an entry index,
    according to `step`.
    """

    model: PlayModel
    board: Board
    owners: tuple[tuple[int, ...], ...]  # per seat: the colours it owns
    grid: list[int | None]
    shown: list[int]
    reserve: list[int]  # die ids, kept sorted
    scores: list[int]  # per colour
    seat: int = 0  # whose turn it is
    turns: int = 0  # turns played
    quiet_turns: int = 0  # consecutive turns with no die placed and no score change
    ended: Termination | None = None
    leaders: list[int] = field(default_factory=list)  # per turn: unique leading seat or -1
    # this turn so far
    step: Step = Step.COLOUR
    options: tuple[int, ...] = ()  # the seat's choices: colours, or entries
    tried: list[int] = field(default_factory=list)  # colours drawn this turn, in order
    colour: int = -1  # the colour being drawn
    die: int = -1  # the die in hand
    face: int = 0  # the face it shows
    first: tuple[int, int] = (-1, 0)  # the turn's first die and roll
    before: list[int] = field(default_factory=list)  # scores when the turn began
    # entries already worked out, by (grid, colour): shared by a game's clones (a tree
    # search meets the same position again and again), never part of the position
    known: dict[tuple[tuple[int | None, ...], int], tuple[int, ...]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if self.ended is None:
            begin_turn(self)

    @property
    def colours(self) -> int:
        return len(self.model.colours)

    @property
    def players(self) -> int:
        return len(self.owners)

    def colour_of(self, die: int) -> int:
        return self.model.dice[die].colour

    def seat_scores(self) -> list[int]:
        return [sum(self.scores[c] for c in cs) for cs in self.owners]

    # --- the game-state API (pnp.play.state.State) ---------------------------------------------

    def current_player(self) -> int:
        if self.ended is not None:
            return TERMINAL
        return CHANCE if self.step in (Step.TAKE, Step.ROLL) else self.seat

    def legal_actions(self) -> list[int]:
        return list(self.options) if self.current_player() >= 0 else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.step is Step.TAKE:
            dice = draw_candidates(self, self.colour)
            return [(d, 1 / len(dice)) for d in dice]
        if self.step is Step.ROLL:
            faces = self.model.dice[self.die].faces
            return [(f, k / len(faces)) for f, k in Counter(faces).items()]
        return []

    def sample_chance(self, rng: random.Random) -> int:
        if self.step is Step.TAKE:
            return pick(rng, draw_candidates(self, self.colour))
        return roll(self, self.die, rng)

    def random_action(self, rng: random.Random) -> int:
        """Colours by `pick`; entries by rejection (any entry until a legal one), the same
        law, which the fast path draws without listing the legal entries."""
        if self.step is Step.COLOUR:
            return pick(rng, self.options)
        while True:
            e = below(rng, len(self.board.lines))
            if e in self.options:
                return e

    def apply(self, action: int) -> None:
        if self.step is Step.COLOUR:
            choose_colour(self, action)
        elif self.step is Step.TAKE:
            take_die(self, action)
        elif self.step is Step.ROLL:
            after_roll(self, action)
        else:
            place(self, action, self.die, self.face)
            end_turn(self, placed=True)

    def is_terminal(self) -> bool:
        return self.ended is not None

    def standing(self) -> list[int]:
        """Each seat's points so far: how the tree search scores a playout it cuts off
        (`pnp.play.mcts`; the engine's `PLAYOUT_TURNS`)."""
        return self.seat_scores()

    def outcome(self) -> Outcome | None:
        return None if self.ended is None else Outcome(self.ended, winners(self))

    def clone(self) -> Self:
        twin = copy.copy(self)
        twin.grid, twin.shown = list(self.grid), list(self.shown)
        twin.reserve, twin.scores = list(self.reserve), list(self.scores)
        twin.leaders, twin.tried = list(self.leaders), list(self.tried)
        twin.before = list(self.before)
        return twin

    def playout(self, rng: random.Random, stop: int) -> None:
        """A tree search's playout from here (`pnp.play.mcts.playout`), in place, until the game
        ends or `turns` reaches `stop`: a redraw under way (the `redraw` stall rule) is
        finished drawing from `rng`, then random play goes on from `random.Random(n)`, n
        being one draw of `rng`, as the kernel plays it (`kernel.playout`)."""
        while self.ended is None and self.turns < stop and self.redrawing():
            chance = self.current_player() == CHANCE
            self.apply(self.sample_chance(rng) if chance else self.random_action(rng))
        if self.ended is not None or self.turns >= stop:
            return
        play_on(self, random.Random(rng.getrandbits(64)), stop)

    def redrawing(self) -> bool:
        """Is a redraw under way (a second colour to choose or drawn this turn)?"""
        return len(self.tried) > 1 or (bool(self.tried) and self.step is Step.COLOUR)

    def action_str(self, action: int) -> str:
        """A colour name, `die 5`, `roll 4`, or an entry as the board marks it (`N0`)."""
        if self.step is Step.COLOUR:
            return self.model.colours[action]
        if self.step is Step.TAKE:
            return f"die {action}"
        if self.step is Step.ROLL:
            return f"roll {action}"
        entry = self.model.entries[action]
        return f"{entry.side}{entry.index}"

    def record(self) -> GameRecord:
        assert self.ended is not None, "the game is not over"
        return game_record(
            self.model, self.owners, self.turns, self.ended, self.scores, self.leaders
        )


@lru_cache(maxsize=64)
def _deals(colours: int, players: int, per_player: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Every way to deal the colours to the seats, one per ordering of the colours."""
    return tuple(
        tuple(tuple(order[s * per_player : (s + 1) * per_player]) for s in range(players))
        for order in itertools.permutations(range(colours))
    )


def deal_colours(
    colours: int, players: int, per_player: int, rng: random.Random
) -> tuple[tuple[int, ...], ...]:
    """Players take colours at random and seat 0 (the random first player) plays first:
    one uniform ordering of the colours, dealt out in seat order."""
    deals = _deals(colours, players, per_player)
    return deals[below(rng, len(deals))]


def new_game(model: PlayModel, players: int, rng: random.Random, colours_each: int = 1) -> State:
    """Setup: die 0 of each colour on its start point showing 1; the rest is the reserve."""
    if not 2 <= players <= 4:
        raise ValueError(f"Exploding Dice takes 2 to 4 players, got {players}")
    if colours_each * players > len(model.colours):
        raise ValueError("not enough colours for every player")
    board = Board.of(model)
    n2 = model.n * model.n
    grid: list[int | None] = [None] * n2
    shown = [0] * n2
    first_die: dict[int, int] = {}
    for d, die in enumerate(model.dice):
        first_die.setdefault(die.colour, d)
    for colour, cell in enumerate(board.starts):
        d = first_die[colour]
        if 1 not in model.dice[d].faces:
            raise ValueError(f"the start die of {model.colours[colour]} cannot show 1")
        grid[cell], shown[cell] = d, 1
    reserve = sorted(set(range(len(model.dice))) - set(first_die.values()))
    return State(
        model=model,
        board=board,
        owners=deal_colours(len(model.colours), players, colours_each, rng),
        grid=grid,
        shown=shown,
        reserve=reserve,
        scores=[0] * len(model.colours),
    )


# --- step 1: highest zone -------------------------------------------------------------


def zone_values(state: State) -> list[int]:
    """Sum of the faces on each zone's intersections, whatever the dice's colours."""
    return [sum(state.shown[c] for c in cells) for cells in state.board.zones]


def highest_zone(state: State) -> int | None:
    """The zone with the strictly highest value, or None when the top is tied."""
    values = zone_values(state)
    top = max(values)
    return values.index(top) if values.count(top) == 1 else None


# --- step 2: draw and roll ------------------------------------------------------------


def reserve_colours(state: State) -> set[int]:
    return {state.colour_of(d) for d in state.reserve}


def lowest_score_colours(state: State, among: set[int]) -> list[int]:
    """The colours of `among` with the lowest score (several when tied), in colour order."""
    if not among:
        return []
    low = min(state.scores[c] for c in among)
    return [c for c in sorted(among) if state.scores[c] == low]


def draw_options(state: State) -> list[int]:
    """Colours the player may draw (step 2): the highest zone's; else (a tie at the top,
    or none of it left) the colours lowest on the score track that have a reserve die;
    else, none of those having one, every colour in the reserve ("any die"). Empty when
    the reserve is."""
    available = reserve_colours(state)
    zone = highest_zone(state)
    if zone is not None and zone in available:
        return [zone]
    lowest = lowest_score_colours(state, set(range(state.colours)))
    return [c for c in lowest if c in available] or sorted(available)


def draw_candidates(state: State, colour: int) -> list[int]:
    """The dice a draw of `colour` may bring out: all of that colour in the reserve (a
    blind draw) if their faces differ, else the first (which one does not matter)."""
    candidates = [d for d in state.reserve if state.colour_of(d) == colour]
    faces = {state.model.dice[d].faces for d in candidates}
    return candidates[:1] if len(faces) == 1 else candidates


def return_die(state: State, die: int) -> None:
    state.reserve.append(die)
    state.reserve.sort()


def roll(state: State, die: int, rng: random.Random) -> int:
    """A uniform choice among the die's six faces (custom faces included)."""
    return pick(rng, state.model.dice[die].faces)


# --- step 3: place (the entries a die may go in at: `entries.py`) -------------------------


def place(state: State, entry: int, die: int, face: int) -> None:
    state.grid, state.shown = push(state.grid, state.shown, state.board.lines[entry], die, face)


# --- steps 4 and 5: score and explode -------------------------------------------------


def colour_scorers(state: State, grid: Sequence[int | None]) -> list[int]:
    """Cells of `grid` whose die touches at least one die of its own colour."""
    out = []
    for cell, d in enumerate(grid):
        if d is None:
            continue
        colour = state.colour_of(d)
        if any(
            (e := grid[nb]) is not None and state.colour_of(e) == colour
            for nb in state.board.neighbours[cell]
        ):
            out.append(cell)
    return out


def exploders(state: State, grid: Sequence[int | None], shown: Sequence[int]) -> list[int]:
    """Cells of `grid` whose die touches at least one die showing the same number."""
    return [
        cell
        for cell, d in enumerate(grid)
        if d is not None
        and any(
            grid[nb] is not None and shown[nb] == shown[cell] for nb in state.board.neighbours[cell]
        )
    ]


def gains_on(
    state: State, grid: Sequence[int | None], shown: Sequence[int]
) -> tuple[list[int], list[int]]:
    """Steps 4 and 5 on a grid: each colour's points, and the cells that explode."""
    gains = [0] * state.colours
    for cell in colour_scorers(state, grid):
        gains[state.model.dice[grid[cell]].colour] += shown[cell]  # type: ignore[index]
    boom = exploders(state, grid, shown)
    for cell in boom:
        gains[state.model.dice[grid[cell]].colour] += shown[cell]  # type: ignore[index]
    return gains, boom


def score_and_explode(state: State) -> list[int]:
    """Steps 4 and 5 on the current grid; returns each colour's gain this turn."""
    gains, boom = gains_on(state, state.grid, state.shown)
    for cell in boom:  # all at once, after every exploding die has scored
        return_die(state, state.grid[cell])  # type: ignore[arg-type]
        state.grid[cell], state.shown[cell] = None, 0
    for colour, gain in enumerate(gains):
        state.scores[colour] += gain
    return gains


def preview_gains(state: State, entry: int, die: int, face: int) -> list[int]:
    """Each colour's gain if the die went in at `entry` (the state is left as it is)."""
    grid, shown = push(state.grid, state.shown, state.board.lines[entry], die, face)
    return gains_on(state, grid, shown)[0]


# --- a whole turn ---------------------------------------------------------------------


def grid_full(state: State) -> bool:
    return all(d is not None for d in state.grid)


def end_reason(state: State) -> Termination | None:
    """The end checks made after every turn."""
    if max(state.scores) >= TARGET:
        return Termination.FIFTY
    if grid_full(state):
        return Termination.FULL
    return None


def begin_turn(state: State) -> None:
    """Before step 1: a full grid or an empty reserve ends the game; else the seat picks
    the colour to draw among `draw_options` (steps 1 and 2)."""
    state.before, state.tried = list(state.scores), []
    if grid_full(state):
        state.ended = Termination.FULL
        return
    options = draw_options(state)
    if not options:
        state.ended = Termination.RESERVE
        return
    state.step, state.options = Step.COLOUR, tuple(options)


def choose_colour(state: State, colour: int) -> None:
    state.colour = colour
    state.tried.append(colour)
    state.step = Step.TAKE


def take_die(state: State, die: int) -> None:
    state.reserve.remove(die)
    state.die = die
    state.step = Step.ROLL


def after_roll(state: State, face: int) -> None:
    """Step 3 begins: the entries where the die may go in. Where there is none, the
    `redraw` stall rule draws again among the lowest-scoring colours not tried this turn;
    when every colour fails, the first die and roll go in with the restriction lifted.
    The `skip` rule sends the die back and the turn goes on to steps 4-6."""
    state.face = face
    if len(state.tried) == 1:
        state.first = (state.die, face)
    legal = restricted_entries(state, state.die)
    if not legal and state.model.stall == "redraw":
        return_die(state, state.die)
        untried = reserve_colours(state) - set(state.tried)
        if untried:
            state.step, state.options = Step.COLOUR, tuple(lowest_score_colours(state, untried))
            return
        state.die, state.face = state.first  # nothing fits: the first die goes in anyway
        state.reserve.remove(state.die)
        legal = tuple(legal_entries(state, state.die, state.face, restricted=False))
    if legal:
        state.step, state.options = Step.ENTRY, tuple(legal)
    else:  # the die goes back and the turn goes on
        return_die(state, state.die)
        end_turn(state, placed=False)


def end_turn(state: State, placed: bool) -> None:
    """Steps 4-6: score, explode, the end checks; then the next seat's turn begins."""
    score_and_explode(state)
    state.turns += 1
    seat_scores = state.seat_scores()
    top = max(seat_scores)
    state.leaders.append(seat_scores.index(top) if seat_scores.count(top) == 1 else -1)
    state.quiet_turns = 0 if placed or state.scores != state.before else state.quiet_turns + 1
    state.ended = end_reason(state)
    if state.ended is None and state.quiet_turns >= len(state.owners):
        state.ended = Termination.STALLED
    if state.ended is None and state.turns >= MAX_TURNS:
        state.ended = Termination.TIMEOUT
    state.seat = (state.seat + 1) % len(state.owners)
    if state.ended is None:
        begin_turn(state)


# --- the result -----------------------------------------------------------------------


def winners(state: State) -> tuple[int, ...]:
    """Seats whose colours score highest; equal scores share the win."""
    return top_seats(state.seat_scores())


def top_seats(seat_scores: Sequence[int]) -> tuple[int, ...]:
    top = max(seat_scores)
    return tuple(s for s, v in enumerate(seat_scores) if v == top)


def game_record(
    model: PlayModel,
    owners: tuple[tuple[int, ...], ...],
    turns: int,
    end: Termination,
    scores: Sequence[int],
    leaders: Sequence[int],
) -> GameRecord:
    """What the runner tallies of one game (the fast path builds the same)."""
    seat_scores = tuple(sum(scores[c] for c in cs) for cs in owners)
    names = _names(model.colours, owners)
    return GameRecord(turns, end.value, seat_scores, top_seats(seat_scores), names, tuple(leaders))


@lru_cache(maxsize=1024)
def _names(
    colours: tuple[str, ...], owners: tuple[tuple[int, ...], ...]
) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(colours[c] for c in cs) for cs in owners)


HOOKS: tuple[type[Stands], type[PlaysOut]] = (State, State)
"""What `State` offers beyond the game-state API (`pnp.play.state`), each checked by mypy."""
