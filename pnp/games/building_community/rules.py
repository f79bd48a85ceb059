"""Building Community rules: the readable reference engine.

Every rule of the spec is a small function over a mutable `State`. The rule tests
exercise this engine; `engine.py` (the fast path) and `solver.py` are checked against it.

Conventions (pinned by the spec): cells are ints in board order (row by row, r then q
ascending); pawn k moves k-th in every round; a move is an unordered swap pair, stored
with the lower cell first, plus a destination. `legal_moves` lists the distinct moves in
one canonical order, (first swapped cell, second swapped cell, destination) ascending, so
a seed fixes a game. All chance goes through the `random.Random` the bots are handed.

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
from typing import Any, NamedTuple, Protocol

from pnp.games.building_community.model import PlayModel

MAX_TURNS = 1000
END_REASONS = ("win", "stuck", "repeat", "timeout")
COUNTER_NAMES = ("passes", "legal_moves", "decisions", "special_turns", "isolated_left")


class Move(NamedTuple):
    """Swap the tiles on `swap` (lower cell first), then move the pawn to `to`."""

    swap: tuple[int, int]
    to: int


Position = tuple[tuple[int, ...], tuple[int, ...], int]  # tiles, pawns, pawn to move


class Bot(Protocol):
    """The one choice the rules leave to a player: which legal move to make."""

    def choose(self, state: State, moves: list[Move], rng: random.Random) -> Move: ...


@dataclass
class State:
    """One game in progress. `tiles[cell]` is a colour index, `pawns[k]` pawn k's cell."""

    model: PlayModel
    tiles: list[int]
    pawns: list[int]
    to_move: int = 0
    turns: int = 0
    passes_in_a_row: int = 0
    seen: set[Position] = field(default_factory=set)
    ended: str | None = None
    history: list[Move | None] = field(default_factory=list)  # per turn; None = a pass
    counters: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTER_NAMES, 0))

    @property
    def players(self) -> int:
        return len(self.pawns)

    def position(self) -> Position:
        return tuple(self.tiles), tuple(self.pawns), self.to_move


def new_game(model: PlayModel, players: int) -> State:
    """The start: every space holds its start-colour tile, pawns on their start spaces."""
    state = State(model, list(model.start_colours), list(model.starts(players)))
    state.seen.add(state.position())
    return state


# --- isolation and communities ---------------------------------------------------------


def is_isolated(model: PlayModel, tiles: Sequence[int], cell: int) -> bool:
    """No neighbour holds the same colour."""
    return all(tiles[n] != tiles[cell] for n in model.neighbours[cell])


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


def apply_move(state: State, move: Move | None) -> None:
    """Swap and move (or pass on None), hand the turn on, then run the end checks."""
    if move is None:
        state.passes_in_a_row += 1
        state.counters["passes"] += 1
    else:
        state.tiles = swapped(state.tiles, move.swap)
        state.pawns[state.to_move] = move.to
        state.passes_in_a_row = 0
    state.history.append(move)
    state.turns += 1
    state.to_move = (state.to_move + 1) % state.players
    position = state.position()
    if move is not None and not isolated_cells(state.model, state.tiles):
        state.ended = "win"
    elif state.passes_in_a_row == state.players:
        state.ended = "stuck"
    elif position in state.seen:
        state.ended = "repeat"
    elif state.turns >= MAX_TURNS:
        state.ended = "timeout"
    state.seen.add(position)
    if state.ended:
        state.counters["isolated_left"] = len(isolated_cells(state.model, state.tiles))


def play_turn(state: State, bot: Bot, rng: random.Random) -> None:
    """The pawn to move makes the bot's choice among its legal moves, or passes."""
    if is_special(state, state.to_move):
        state.counters["special_turns"] += 1
    moves = legal_moves(state)
    if moves:
        state.counters["decisions"] += 1
        state.counters["legal_moves"] += len(moves)
    apply_move(state, bot.choose(state, moves, rng) if moves else None)


def play_game(model: PlayModel, players: int, bot: Bot, rng: random.Random) -> State:
    state = new_game(model, players)
    while state.ended is None:
        play_turn(state, bot, rng)
    return state


# --- machine-readable lines (the spec's JSON format) -----------------------------------


def start_json(model: PlayModel, players: int) -> dict[str, Any]:
    pawns = model.starts(players)
    return {
        "tiles": [[q, r, c] for (q, r), c in zip(model.cells, model.start_colours, strict=True)],
        "pawns": [list(model.cells[p]) for p in pawns],
    }


def turn_json(model: PlayModel, pawn: int, move: Move | None) -> dict[str, Any]:
    if move is None:
        return {"pawn": pawn, "pass": True}
    a, b = move.swap
    return {
        "pawn": pawn,
        "swap": [list(model.cells[a]), list(model.cells[b])],
        "to": list(model.cells[move.to]),
    }


def turn_from_json(model: PlayModel, turn: dict[str, Any]) -> Move | None:
    if turn.get("pass"):
        return None
    a, b = sorted(model.index(tuple(c)) for c in turn["swap"])
    return Move((a, b), model.index(tuple(turn["to"])))


def replay(model: PlayModel, players: int, line: Sequence[dict[str, Any]]) -> State:
    """Play a recorded line with these rules; raises ValueError at the first illegal turn
    (wrong pawn, a move not among the legal ones, a pass with a move available, or a turn
    after the game ended)."""
    state = new_game(model, players)
    for i, turn in enumerate(line):
        if state.ended:
            raise ValueError(f"turn {i}: the game already ended ({state.ended})")
        if turn["pawn"] != state.to_move:
            raise ValueError(f"turn {i}: pawn {turn['pawn']} moved, pawn {state.to_move} is due")
        move = turn_from_json(model, turn)
        moves = legal_moves(state)
        if move is None and moves:
            raise ValueError(f"turn {i}: a pass with {len(moves)} legal moves available")
        if move is not None and move not in moves:
            raise ValueError(f"turn {i}: illegal move {turn}")
        apply_move(state, move)
    return state
