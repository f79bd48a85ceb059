"""Exploding Dice rules: the readable reference engine.

Every rule of the spec lives here as a small function over a mutable `State`. This engine
is the one the rule tests exercise; `engine.py` adds a table-driven fast path and is
checked against this one game by game (same seed, same result).

Conventions: cells are ints `r * n + c` (row 0 on top); colour k owns zone k and start
point k of the play model; a die on the grid is a die id (index into `model.dice`).
All chance goes through the `random.Random` passed in, in a fixed order, so a seed
fixes the game.

Decisions the spec leaves open (documented for the README):
- Drawing a die of a colour whose reserve dice do not all share the same faces is chance
  (a blind draw among them); when they share faces the pick does not matter and uses no
  randomness.
- The draw fallback takes the lowest score among colours that still have reserve dice.
- With the `skip` stall rule, steps 4 and 5 still run when the die goes back (the turn
  goes on); a full round with no die placed and no score change ends the game `stalled`.
- An empty reserve at the draw ends the game as `reserve` (only possible when there are
  fewer dice than intersections); a grid that is full before a turn ends it as `full`.
- A turn cap (`MAX_TURNS`) ends a game as `timeout`, so no game can hang.
- Colours are dealt to players at random and the first player is random: one shuffle of
  the colours; seat 0 plays first, then clockwise (seat 1, 2, ...).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from pnp.chance import below, pick
from pnp.games.exploding_dice.params import PlayModel

MAX_TURNS = 1000
TARGET = 50
END_REASONS = ("fifty", "full", "reserve", "stalled", "timeout")


class Bot(Protocol):
    """The choices the rules leave to a player."""

    def choose_colour(self, state: State, options: list[int], rng: random.Random) -> int: ...

    def choose_entry(
        self, state: State, die: int, face: int, options: list[int], rng: random.Random
    ) -> int: ...


@dataclass(frozen=True)
class Board:
    """Grid facts derived once from the play model: cells as ints, lines, neighbours."""

    n: int
    lines: tuple[tuple[int, ...], ...]  # per entry: cells from the far border to the entry
    neighbours: tuple[tuple[int, ...], ...]  # per cell: orthogonal neighbours
    zones: tuple[tuple[int, ...], ...]  # per zone (= colour): its cells
    starts: tuple[int, ...]  # per colour: start cell

    @classmethod
    def of(cls, model: PlayModel) -> Board:
        n = model.n

        def cell(rc: tuple[int, int]) -> int:
            return rc[0] * n + rc[1]

        nbs = []
        for r in range(n):
            for c in range(n):
                around = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
                nbs.append(tuple(cell(p) for p in around if 0 <= p[0] < n and 0 <= p[1] < n))
        return cls(
            n=n,
            lines=tuple(tuple(cell(rc) for rc in e.cells(n)) for e in model.entries),
            neighbours=tuple(nbs),
            zones=tuple(tuple(cell(rc) for rc in z) for z in model.zones),
            starts=tuple(cell(rc) for rc in model.starts),
        )


@dataclass
class State:
    """One game in progress. `grid[cell]` is a die id or None; `shown[cell]` its face."""

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
    ended: str | None = None
    leaders: list[int] = field(default_factory=list)  # per turn: unique leading seat or -1

    @property
    def colours(self) -> int:
        return len(self.model.colours)

    def colour_of(self, die: int) -> int:
        return self.model.dice[die].colour

    def seat_scores(self) -> list[int]:
        return [sum(self.scores[c] for c in cs) for cs in self.owners]


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
    """Colours the player may draw: the highest zone's, else the lowest-scoring ones."""
    available = reserve_colours(state)
    zone = highest_zone(state)
    if zone is not None and zone in available:
        return [zone]
    return lowest_score_colours(state, available)


def take_die(state: State, colour: int, rng: random.Random) -> int:
    """Take a die of `colour` out of the reserve (a blind draw if their faces differ)."""
    candidates = [d for d in state.reserve if state.colour_of(d) == colour]
    faces = {state.model.dice[d].faces for d in candidates}
    die = candidates[0] if len(faces) == 1 else pick(rng, candidates)
    state.reserve.remove(die)
    return die


def return_die(state: State, die: int) -> None:
    state.reserve.append(die)
    state.reserve.sort()


def roll(state: State, die: int, rng: random.Random) -> int:
    """A uniform choice among the die's six faces (custom faces included)."""
    return pick(rng, state.model.dice[die].faces)


# --- step 3: place ----------------------------------------------------------------------


def has_room(state: State, entry: int) -> bool:
    return any(state.grid[c] is None for c in state.board.lines[entry])


def push(
    grid: Sequence[int | None], shown: Sequence[int], line: Sequence[int], die: int, face: int
) -> tuple[list[int | None], list[int]]:
    """Slide `die` in along `line`: the line's dice end packed against the far border in
    their old order, the new die last. Returns new grid and faces; the inputs are kept."""
    group = [(grid[c], shown[c]) for c in line if grid[c] is not None] + [(die, face)]
    new_grid, new_shown = list(grid), list(shown)
    for k, c in enumerate(line):
        new_grid[c], new_shown[c] = group[k] if k < len(group) else (None, 0)
    return new_grid, new_shown


def landing_cell(state: State, entry: int) -> int:
    """Where the new die ends after the push: right behind the line's dice."""
    line = state.board.lines[entry]
    return line[sum(state.grid[c] is not None for c in line)]


def breaks_restriction(state: State, entry: int, die: int, face: int) -> bool:
    """True if, after the push, the new die touches a die of its own colour."""
    grid, _ = push(state.grid, state.shown, state.board.lines[entry], die, face)
    cell = landing_cell(state, entry)
    colour = state.colour_of(die)
    return any(
        grid[nb] is not None and state.colour_of(grid[nb]) == colour
        for nb in state.board.neighbours[cell]
    )


def legal_entries(state: State, die: int, face: int, restricted: bool = True) -> list[int]:
    """Entries (indices into model.entries, in order) where the die may go in."""
    return [
        e
        for e in range(len(state.board.lines))
        if has_room(state, e) and not (restricted and breaks_restriction(state, e, die, face))
    ]


def place(state: State, entry: int, die: int, face: int) -> None:
    state.grid, state.shown = push(state.grid, state.shown, state.board.lines[entry], die, face)


# --- steps 4 and 5: score and explode -------------------------------------------------


def colour_scorers(state: State) -> list[int]:
    """Cells whose die touches at least one die of its own colour."""
    out = []
    for cell, d in enumerate(state.grid):
        if d is None:
            continue
        colour = state.colour_of(d)
        if any(
            state.grid[nb] is not None and state.colour_of(state.grid[nb]) == colour
            for nb in state.board.neighbours[cell]
        ):
            out.append(cell)
    return out


def exploders(state: State) -> list[int]:
    """Cells whose die touches at least one die showing the same number."""
    return [
        cell
        for cell, d in enumerate(state.grid)
        if d is not None
        and any(
            state.grid[nb] is not None and state.shown[nb] == state.shown[cell]
            for nb in state.board.neighbours[cell]
        )
    ]


def score_and_explode(state: State) -> list[int]:
    """Steps 4 and 5 on the current grid; returns each colour's gain this turn."""
    gains = [0] * state.colours
    for cell in colour_scorers(state):
        gains[state.colour_of(state.grid[cell])] += state.shown[cell]
    boom = exploders(state)
    for cell in boom:
        gains[state.colour_of(state.grid[cell])] += state.shown[cell]
    for cell in boom:  # all at once, after every exploding die has scored
        return_die(state, state.grid[cell])
        state.grid[cell], state.shown[cell] = None, 0
    for colour, gain in enumerate(gains):
        state.scores[colour] += gain
    return gains


def preview_gains(state: State, entry: int, die: int, face: int) -> list[int]:
    """Each colour's gain if the die went in at `entry` (the state is left as it is)."""
    grid, shown = push(state.grid, state.shown, state.board.lines[entry], die, face)
    trial = State(
        model=state.model,
        board=state.board,
        owners=state.owners,
        grid=grid,
        shown=shown,
        reserve=list(state.reserve),
        scores=[0] * state.colours,
    )
    return score_and_explode(trial)


# --- a whole turn ---------------------------------------------------------------------


def grid_full(state: State) -> bool:
    return all(d is not None for d in state.grid)


def end_reason(state: State) -> str | None:
    """The end checks made after every turn."""
    if max(state.scores) >= TARGET:
        return "fifty"
    if grid_full(state):
        return "full"
    return None


def play_turn(state: State, bot: Bot, rng: random.Random) -> None:
    """One player's turn, steps 1-6, then the end checks."""
    if grid_full(state):
        state.ended = "full"
        return
    options = draw_options(state)
    if not options:
        state.ended = "reserve"
        return
    before = list(state.scores)
    colour = bot.choose_colour(state, options, rng)
    first_die = take_die(state, colour, rng)
    first_face = roll(state, first_die, rng)
    placed = False
    die, face = first_die, first_face
    legal = legal_entries(state, die, face)
    if not legal and state.model.stall == "redraw":
        tried = {colour}
        return_die(state, die)
        while not legal:
            untried = reserve_colours(state) - tried
            if not untried:
                break
            colour = bot.choose_colour(state, lowest_score_colours(state, untried), rng)
            tried.add(colour)
            die = take_die(state, colour, rng)
            face = roll(state, die, rng)
            legal = legal_entries(state, die, face)
            if not legal:
                return_die(state, die)
        if not legal:  # nothing fits: the first die, first roll, goes in anyway
            die, face = first_die, first_face
            state.reserve.remove(die)
            legal = legal_entries(state, die, face, restricted=False)
    if legal:
        entry = bot.choose_entry(state, die, face, legal, rng)
        place(state, entry, die, face)
        placed = True
    else:  # `skip`: the die goes back and the turn goes on
        return_die(state, die)
    score_and_explode(state)
    state.turns += 1
    seat_scores = state.seat_scores()
    top = max(seat_scores)
    state.leaders.append(seat_scores.index(top) if seat_scores.count(top) == 1 else -1)
    state.quiet_turns = 0 if placed or state.scores != before else state.quiet_turns + 1
    state.ended = end_reason(state)
    if state.ended is None and state.quiet_turns >= len(state.owners):
        state.ended = "stalled"
    if state.ended is None and state.turns >= MAX_TURNS:
        state.ended = "timeout"
    state.seat = (state.seat + 1) % len(state.owners)


def play_game(
    model: PlayModel,
    players: int,
    bots: Bot | Sequence[Bot],
    rng: random.Random,
    colours_each: int = 1,
) -> State:
    """Play one game to its end; `bots` is one bot for every seat or one per seat."""
    state = new_game(model, players, rng, colours_each)
    seat_bots = list(bots) if isinstance(bots, Sequence) else [bots] * players
    if grid_full(state):
        state.ended = "full"
    while state.ended is None:
        play_turn(state, seat_bots[state.seat], rng)
    return state


def winners(state: State) -> tuple[int, ...]:
    """Seats whose colours score highest; equal scores share the win."""
    seat_scores = state.seat_scores()
    top = max(seat_scores)
    return tuple(s for s, v in enumerate(seat_scores) if v == top)
