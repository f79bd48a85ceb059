"""Exploding Dice's step 3, the entries a die may go in at: a line with room whose push
would not set the die beside one of its colour. Part of the readable rules (`rules.py`),
kept apart for their length; `restricted_entries` remembers a game's answers, since a
tree search asks about the same grid again and again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pnp.games.exploding_dice.rules import State

KNOWN_MOST = 4096
"""Positions whose entries a game's states remember at most (`restricted_entries`)."""


def has_room(state: State, entry: int) -> bool:
    return any(state.grid[c] is None for c in state.board.lines[entry])


def breaks_restriction(state: State, entry: int, die: int, face: int) -> bool:
    """True if, after the push, the new die touches a die of its own colour (`face` does
    not matter)."""
    line = state.board.lines[entry]
    held = [d for c in line if (d := state.grid[c]) is not None]
    return _touches_own(state, line, held, state.colour_of(die))


def _touches_own(state: State, line: Sequence[int], held: Sequence[int], colour: int) -> bool:
    """Would a die of `colour` pushed in along `line` (whose dice are `held`, far end
    first) touch one of its colour? The push packs the line's dice against the far border,
    so the new die lands behind the last of them, its neighbour on the line; its other
    neighbours lie off the line, where the push moves nothing: no need to make the push."""
    grid, dice = state.grid, state.model.dice
    if held and dice[held[-1]].colour == colour:
        return True
    return any(
        (d := grid[nb]) is not None and dice[d].colour == colour and nb not in line
        for nb in state.board.neighbours[line[len(held)]]
    )


def legal_entries(state: State, die: int, face: int, restricted: bool = True) -> list[int]:
    """Entries (indices into model.entries, in order) where the die may go in: a line
    with room whose push breaks no restriction (`has_room`, `breaks_restriction`)."""
    grid, colour, out = state.grid, state.colour_of(die), []
    for e, line in enumerate(state.board.lines):
        held = [d for c in line if (d := grid[c]) is not None]
        if len(held) < len(line) and not (restricted and _touches_own(state, line, held, colour)):
            out.append(e)
    return out


def restricted_entries(state: State, die: int) -> tuple[int, ...]:
    """`legal_entries(state, die, face)` (the face does not matter), remembered for the
    game's states by grid and colour."""
    key = (tuple(state.grid), state.colour_of(die))
    legal = state.known.get(key)
    if legal is None:
        if len(state.known) >= KNOWN_MOST:  # a long game's memory stays bounded
            state.known.clear()
        legal = state.known[key] = tuple(legal_entries(state, die, 0))
    return legal
