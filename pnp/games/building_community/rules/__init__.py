"""Building Community rules: the readable reference engine, as the game-state API.

Every rule of the spec is a small function over a mutable `State`, and `State` is the
game's `pnp.play.state.State`: `pnp.play.forward.play` plays it with the generic bots. The
rule tests exercise this engine; `engine.py` (the fast path) and `solver.py` are checked against it
(`tests/conformance/building-community.json`).

Conventions (pinned by the spec): cells are ints in board order (row by row, r then q
ascending); pawn k moves k-th in every round; a move is an unordered swap pair, stored
with the lower cell first, plus a destination. `legal_moves` lists the distinct moves in
one canonical order, (first swapped cell, second swapped cell, destination) ascending, so
a seed fixes a game. A pawn with no legal move has one action, `PASS`. There is no chance
in the game: the only draws are the bots' (`draw`).

Decisions the spec leaves open (documented for the README):
- "No pawn can move" is a full round of passes: the game ends `stuck` on the pass that
  makes it one pawn per seat in a row (checked before `repeat`, which the same round of
  passes would also trigger).
- The positions compared for `repeat` are the start and the one after every turn, a pass
  included (a pass hands the turn on, so it changes the player to move).
- After a turn the end checks run in the order win, stuck, repeat, timeout.
- A turn cap (`MAX_TURNS`) ends a game as `timeout` so no game can hang; the rules alone
  end every game (positions are finite and none may repeat), but that can take long.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pnp.games.building_community.rules.model import PlayModel
from pnp.play.outcome import CUTOFF, GameRecord, Outcome, Termination
from pnp.play.state import TERMINAL

MAX_TURNS = 1000
COUNTER_NAMES = ("passes", "legal_moves", "decisions", "special_turns", "isolated_left")


class End(Termination):
    """How a game ends: the team wins, or loses stuck or on a repeat; or the turn cap."""

    WIN = "win"
    STUCK = "stuck"
    REPEAT = "repeat"
    TIMEOUT = "timeout", CUTOFF


class Move(NamedTuple):
    """Swap the tiles on `swap` (lower cell first), then move the pawn to `to`."""

    swap: tuple[int, int]
    to: int


PASS = None
"""The one action of a pawn without a legal move."""
Action = Move | None
Position = tuple[tuple[int, ...], tuple[int, ...], int]  # tiles, pawns, pawn to move


@dataclass
class State:
    """One game in progress. `tiles[cell]` is a colour index, `pawns[k]` pawn k's cell.

    `counters` are the game's own: a turn with one legal move counts as a decision (the
    forward model counts only real choices), so they are kept here, turn by turn.
    """

    model: PlayModel
    tiles: list[int]
    pawns: list[int]
    to_move: int = 0
    turns: int = 0
    passes_in_a_row: int = 0
    seen: set[Position] = field(default_factory=set)
    ended: End | None = None
    history: list[Action] = field(default_factory=list)  # per turn; PASS = a pass
    counters: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTER_NAMES, 0))
    # this turn's (special, legal moves), kept until it is played
    _turn: tuple[bool, list[Move]] | None = field(default=None, repr=False, compare=False)

    @property
    def players(self) -> int:
        return len(self.pawns)

    def position(self) -> Position:
        return tuple(self.tiles), tuple(self.pawns), self.to_move

    # --- the game-state API --------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.ended is not None else self.to_move

    def moves(self) -> list[Move]:
        """This turn's legal moves (kept until the turn is played)."""
        return self.turn_options()[1]

    def turn_options(self) -> tuple[bool, list[Move]]:
        """Does this turn begin special, and its legal moves (`is_special`,
        `legal_moves`); kept until the turn is played."""
        if self._turn is None:
            self._turn = (is_special(self, self.to_move), legal_moves(self))
        return self._turn

    def legal_actions(self) -> Sequence[Action]:
        return self.moves() or [PASS]

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]:
        return ()  # no dice, no draw pile

    def sample_chance(self, rng: random.Random) -> Action:
        raise ValueError("Building Community has no chance nodes")

    def random_action(self, rng: random.Random) -> Action:
        return draw(rng, self.legal_actions())

    def apply(self, action: Action) -> None:
        """Play one turn: count it, then `apply_move`."""
        special, moves = self.turn_options()
        if self.ended is not None or (action not in moves if moves else action is not PASS):
            raise ValueError(f"not a legal action here: {action}")
        if special:
            self.counters["special_turns"] += 1
        if moves:
            self.counters["decisions"] += 1
            self.counters["legal_moves"] += len(moves)
        apply_move(self, action)

    def is_terminal(self) -> bool:
        return self.ended is not None

    def outcome(self) -> Outcome | None:
        if self.ended is None:
            return None
        return Outcome(self.ended, winners(self.ended, self.players))

    def clone(self) -> State:
        return State(
            self.model,
            list(self.tiles),
            list(self.pawns),
            self.to_move,
            self.turns,
            self.passes_in_a_row,
            set(self.seen),
            self.ended,
            list(self.history),
            dict(self.counters),
            self._turn,  # never changed in place, only replaced
        )

    def action_str(self, action: Action) -> str:
        if action is PASS:
            return "pass"
        cell = self.model.cells
        a, b = action.swap
        return f"swap {_hex(cell[a])} {_hex(cell[b])} to {_hex(cell[action.to])}"

    def record(self) -> GameRecord:
        assert self.ended is not None, "the game is not over"
        return game_record(self.model, self.players, self.turns, self.ended, dict(self.counters))


def _hex(cell: tuple[int, int]) -> str:
    return f"({cell[0]},{cell[1]})"


def draw(rng: random.Random, actions: Sequence[Action]) -> Action:
    """The bots' draw: `rng.choice` over the moves (as the fast path draws); a pass is
    forced and draws nothing."""
    return PASS if actions[0] is PASS else rng.choice(actions)


def winners(end: End, players: int) -> tuple[int, ...]:
    """Cooperative: every seat wins together, or nobody does."""
    return tuple(range(players)) if end is End.WIN else ()


def game_record(
    model: PlayModel, players: int, turns: int, end: End, counters: dict[str, int]
) -> GameRecord:
    """A finished game as the runner tallies it (the fast path builds the same)."""
    colours = tuple((c,) for c in model.pawn_colours[:players])
    return GameRecord(turns, end.value, (), winners(end, players), colours, (), counters)


def new_game(model: PlayModel, players: int) -> State:
    """The start: every space holds its start-colour tile, pawns on their start spaces."""
    state = State(model, list(model.start_colours), list(model.starts(players)))
    state.seen.add(state.position())
    return state


# --- isolation and communities ---------------------------------------------------------


def is_isolated(model: PlayModel, tiles: Sequence[int], cell: int) -> bool:
    """No neighbour holds the same colour."""
    return all(tiles[n] != tiles[cell] for n in model.neighbours[cell])


def any_isolated(model: PlayModel, tiles: Sequence[int]) -> bool:
    """Is any tile isolated (the win is none)?"""
    return any(is_isolated(model, tiles, c) for c in range(model.size))


def isolated_cells(model: PlayModel, tiles: Sequence[int]) -> list[int]:
    return [c for c in range(model.size) if is_isolated(model, tiles, c)]


def isolated_around(model: PlayModel, tiles: Sequence[int], cell: int) -> int:
    """Isolated tiles among the (on-board) neighbours of `cell`, `cell` itself not counted."""
    return sum(is_isolated(model, tiles, n) for n in model.neighbours[cell])


def community(model: PlayModel, tiles: Sequence[int], cell: int) -> list[int]:
    """The connected same-coloured group holding `cell`, sorted."""
    colour = tiles[cell]
    found, todo = {cell}, [cell]
    while todo:
        for n in model.neighbours[todo.pop()]:
            if n not in found and tiles[n] == colour:
                found.add(n)
                todo.append(n)
    return sorted(found)


def is_special(state: State, pawn: int) -> bool:
    """Another pawn stands in this pawn's community (checked at the start of its turn)."""
    group = community(state.model, state.tiles, state.pawns[pawn])
    return any(state.pawns[k] in group for k in range(state.players) if k != pawn)


# --- a move -----------------------------------------------------------------------------


def swap_pairs(state: State, pawn: int) -> list[tuple[int, int]]:
    """Neighbouring pairs (a < b), sorted, the pawn may swap before the isolation test:
    both without a pawn, different colours, and (scope `near`) both next to the pawn."""
    model, tiles = state.model, state.tiles
    occupied = set(state.pawns)
    if model.scope == "near":
        allowed = set(model.neighbours[state.pawns[pawn]])
    else:
        allowed = set(range(model.size))
    return sorted(
        (a, b)
        for a in range(model.size)
        for b in model.neighbours[a]
        if a < b
        and a in allowed
        and b in allowed
        and a not in occupied
        and b not in occupied
        and tiles[a] != tiles[b]
    )


def swapped(tiles: Sequence[int], pair: tuple[int, int]) -> list[int]:
    a, b = pair
    out = list(tiles)
    out[a], out[b] = out[b], out[a]
    return out


def reduces_isolation(state: State, pawn: int, after: Sequence[int]) -> bool:
    """Fewer isolated tiles around the pawn after the swap than before."""
    cell = state.pawns[pawn]
    return isolated_around(state.model, after, cell) < isolated_around(
        state.model, state.tiles, cell
    )


def target_cells(
    model: PlayModel, after: Sequence[int], pair: tuple[int, int], special: bool
) -> list[int]:
    """The cells of the community the pawn may move into: the larger of the two swapped
    tiles' communities, either when they are equal, either always on a special move."""
    first = community(model, after, pair[0])
    second = community(model, after, pair[1])
    if special or len(first) == len(second):
        return sorted(first + second)  # different colours: the two never overlap
    return first if len(first) > len(second) else second


def legal_moves(state: State) -> list[Move]:
    """Every distinct legal move of the pawn to move, in canonical order."""
    pawn = state.to_move
    model = state.model
    special = is_special(state, pawn)
    stood_on = state.tiles[state.pawns[pawn]]
    occupied = set(state.pawns)
    moves = []
    for pair in swap_pairs(state, pawn):
        after = swapped(state.tiles, pair)
        if not special and not reduces_isolation(state, pawn, after):
            continue
        for cell in target_cells(model, after, pair, special):
            if cell not in occupied and after[cell] != stood_on:
                moves.append(Move(pair, cell))
    return moves


# --- a turn ----------------------------------------------------------------------------


def apply_move(state: State, move: Action) -> None:
    """Swap and move (or pass), hand the turn on, then run the end checks."""
    if move is PASS:
        state.passes_in_a_row += 1
        state.counters["passes"] += 1
    else:
        state.tiles = swapped(state.tiles, move.swap)
        state.pawns[state.to_move] = move.to
        state.passes_in_a_row = 0
    state.history.append(move)
    state.turns += 1
    state.to_move = (state.to_move + 1) % state.players
    state._turn = None
    position = state.position()
    if move is not PASS and not any_isolated(state.model, state.tiles):
        state.ended = End.WIN
    elif state.passes_in_a_row == state.players:
        state.ended = End.STUCK
    elif position in state.seen:
        state.ended = End.REPEAT
    elif state.turns >= MAX_TURNS:
        state.ended = End.TIMEOUT
    state.seen.add(position)
    if state.ended is not None:
        state.counters["isolated_left"] = len(isolated_cells(state.model, state.tiles))


# --- machine-readable lines (the spec's JSON format) -----------------------------------


def start_json(model: PlayModel, players: int) -> dict[str, Any]:
    pawns = model.starts(players)
    return {
        "tiles": [[q, r, c] for (q, r), c in zip(model.cells, model.start_colours, strict=True)],
        "pawns": [list(model.cells[p]) for p in pawns],
    }


def turn_json(model: PlayModel, pawn: int, move: Action) -> dict[str, Any]:
    if move is PASS:
        return {"pawn": pawn, "pass": True}
    a, b = move.swap
    return {
        "pawn": pawn,
        "swap": [list(model.cells[a]), list(model.cells[b])],
        "to": list(model.cells[move.to]),
    }


def turn_from_json(model: PlayModel, turn: dict[str, Any]) -> Action:
    if turn.get("pass"):
        return PASS
    a, b = sorted(model.index(tuple(c)) for c in turn["swap"])
    return Move((a, b), model.index(tuple(turn["to"])))


def replay(model: PlayModel, players: int, line: Sequence[dict[str, Any]]) -> State:
    """Play a recorded line with these rules; raises ValueError at the first illegal turn
    (wrong pawn, a move not among the legal ones, a pass with a move available, or a turn
    after the game ended)."""
    state = new_game(model, players)
    for i, turn in enumerate(line):
        if state.ended is not None:
            raise ValueError(f"turn {i}: the game already ended ({state.ended})")
        if turn["pawn"] != state.to_move:
            raise ValueError(f"turn {i}: pawn {turn['pawn']} moved, pawn {state.to_move} is due")
        move = turn_from_json(model, turn)
        moves = state.moves()
        if move is PASS and moves:
            raise ValueError(f"turn {i}: a pass with {len(moves)} legal moves available")
        if move is not PASS and move not in moves:
            raise ValueError(f"turn {i}: illegal move {turn}")
        state.apply(move)
    return state
