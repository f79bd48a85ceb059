"""The compiled proof search's interface (`_search.c`): what `solver_proof.py` and the
tests call."""

from collections.abc import Callable, Sequence
from typing import Any, NewType

Step = tuple[int, int, int] | None

def search(
    fields: dict[str, Any], progress: Callable[[int, int], None] | None, /
) -> tuple[list[Step] | None, int, int, list[int]]:
    """IDA* thresholds lo..hi, the board's tables, the start, the budget and the table's
    size by name (`solver_proof.prove`): (line or None, nodes, the largest threshold
    exhausted without a win, nodes per threshold)."""

def bound(fields: dict[str, Any], /) -> int:
    """The lower bound on turns left for a mask of isolated cells (``isolated``) and the
    pawns' cells in turn order from the pawn to move (``pawns``), with the board's
    ``nb``, ``far3`` and ``ball2`` masks."""

PlayBoard = NewType("PlayBoard", object)
"""A capsule holding the fast path's tables for the play functions below."""

def playboard(fields: dict[str, Any], /) -> PlayBoard:
    """`bitboard.FastBoard`'s tables by name (`kernel.playboard_fields`): the row width,
    the board's bits, the swap pairs (bits), per bit the indices of the pairs next to it
    and within two steps of it."""

Fields = dict[str, Any]
"""Named fields: `kernel.settings`, `kernel.position`, `pnp.play.fastpath.search`
(`pnp/play/_seam.h`); what `moves` reads and a game or playout hands back."""

def moves(board: PlayBoard, position: Fields, /) -> tuple[bool, list[tuple[int, int, int]]]:
    """The tiles of colours 0 and 1, the pawns (bits) and whose turn, by name: (special,
    the legal moves as bits a, b, to in canonical order)."""

def play(
    board: PlayBoard, settings: Fields, twister: tuple[int, ...]
) -> tuple[Fields, tuple[int, ...]]:
    """One whole game drawing from the twister state: (its turns, end code and counters by
    name, the twister after)."""

def play_seeded(board: PlayBoard, settings: Fields, seeds: Sequence[str]) -> list[Fields]:
    """One whole game per seed text, each on what `random.Random(text)` draws."""

def playout(board: PlayBoard, position: Fields, stop: int, seed: int) -> Fields:
    """Random play from a position until the end or `stop` turns, on `random.Random(seed)`'s
    draws: the turns, whose turn, the passes in a row, the end code, what it counted, the
    isolated tiles left and each turn's move (a | b << 8 | to << 16, -1 a pass), by name."""

def tree_search(
    board: PlayBoard, position: Fields, search: Fields, words: tuple[int, ...]
) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
    """`pnp.play.mcts.MctsBot.search` from this decision on the twister's 625 numbers: (the
    root's (index in the legal actions, visits) in the order tried, the twister after)."""

def sources() -> str:
    """The SHA-256 of the C files this kernel was compiled from (setup.py stamps it)."""
