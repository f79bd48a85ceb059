"""How the greedy player rates a roll's results: shared by the greedy bot (`bots.py`) and
the tree search's guided playouts (`state.play_guided`), which plays greedy's moves."""

from __future__ import annotations

from pnp.games.parcheesi.rules import NEST, PAWNS, Position
from pnp.games.parcheesi.rules.model import PlayModel


def safe_pawns(model: PlayModel, colour: int, own: tuple[int, ...]) -> int:
    """Pawns no opponent can capture next turn: on a safe space, in the strip or home,
    or in a blockade. Nest pawns do not count."""
    path = model.paths[colour]
    strip = model.strip(colour)
    count = 0
    for p in own:
        if p == NEST:
            continue
        if p >= strip or model.safe[path[p]] or own.count(p) == 2:
            count += 1
    return count


def greedy_rank(model: PlayModel, colour: int, position: Position) -> tuple[int, int, int]:
    """(captures, total progress, safe pawns): bigger is better, in this order."""
    return (
        position.captured.bit_count(),
        sum(position.own),
        safe_pawns(model, colour, position.own),
    )


def rank_value(model: PlayModel, colour: int, position: Position) -> float:
    """`greedy_rank` as one number that orders as the rank does: progress (-4 .. 4 home)
    and safe pawns (0 .. 4) are digits below the captures."""
    captures, progress, safe = greedy_rank(model, colour, position)
    span = PAWNS * (model.home + 1) + 1  # the values progress can take
    return float((captures * span + progress + PAWNS) * (PAWNS + 1) + safe)
