"""The compiled proof search's interface (`_search.c`): what `solver_proof.py` and the
tests call."""

from collections.abc import Callable, Sequence
from typing import NewType

Step = tuple[int, int, int] | None

def search(
    nb: Sequence[int],
    far3: Sequence[int],
    ball2: Sequence[int],
    pairs: Sequence[Sequence[tuple[int, int]]],
    special_pairs: Sequence[Sequence[tuple[int, int]]],
    syms: Sequence[Sequence[int]],
    colours: Sequence[int],
    pawns: Sequence[int],
    lo: int,
    hi: int,
    budget: int,
    table_bits: int,
    progress: Callable[[int, int], None] | None,
    every: int,
    /,
) -> tuple[list[Step] | None, int, int, list[int]]:
    """IDA* thresholds lo..hi: (line or None, nodes, the largest threshold exhausted
    without a win, nodes per threshold)."""

def bound(
    nb: Sequence[int],
    far3: Sequence[int],
    ball2: Sequence[int],
    isolated: int,
    movers: Sequence[int],
    /,
) -> int:
    """The lower bound on turns left for a mask of isolated cells and the pawns' cells in
    turn order from the pawn to move."""

PlayBoard = NewType("PlayBoard", object)
"""A capsule holding the fast path's tables for `playout` and `moves`."""

def playboard(
    w: int,
    board: int,
    pairs: Sequence[tuple[int, int]],
    near: Sequence[Sequence[int]],
    close: Sequence[Sequence[int]],
    near_scope: bool,
    /,
) -> PlayBoard:
    """`engine.FastBoard`'s tables: the row width, the board's bits, the swap pairs (bits),
    per bit the indices of the pairs next to it and within two steps of it."""

def moves(
    board: PlayBoard, masks: Sequence[int], pawns: Sequence[int], to_move: int, /
) -> tuple[bool, list[tuple[int, int, int]]]:
    """(special, the legal moves as bits a, b, to in canonical order)."""

def playout(
    board: PlayBoard,
    masks: Sequence[int],
    pawns: Sequence[int],
    to_move: int,
    turns: int,
    in_a_row: int,
    counters: Sequence[int],
    seen: Sequence[tuple[int, int, int]],
    max_turns: int,
    stop: int,
    seed: int,
    /,
) -> tuple[
    int, int, tuple[int, int, int], tuple[int, ...], int, int, tuple[int, int, int, int], bytes
]:
    """Random play until the end or `stop` turns, on `random.Random(seed)`'s draws: (turns,
    end code, colour masks, pawns, to move, passes in a row, counters, the turns' trail)."""

def tree_search(
    board: PlayBoard,
    masks: Sequence[int],
    pawns: Sequence[int],
    to_move: int,
    turns: int,
    in_a_row: int,
    seen: Sequence[tuple[int, int, int]],
    max_turns: int,
    words: tuple[int, ...],
    budget: int,
    horizon: int,
    exploration: float,
    cooperative: bool,
    /,
) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
    """`pnp.play.mcts.MctsBot.search` from this decision on the twister's 625 numbers: (the
    root's (index in the legal actions, visits) in the order tried, the twister after)."""
