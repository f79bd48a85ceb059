"""The compiled kernel's interface (`_kernel.c`): what `engine.py` and the tests call."""

from collections.abc import Sequence
from typing import NewType

Board = NewType("Board", object)
"""A capsule holding the kernel's copy of the board."""

Counts = tuple[int, int, int, int, int]
"""captures, decisions, legal moves, entries, passes"""
Game = tuple[int, str, tuple[list[int], ...], tuple[int, ...], Counts, tuple[int, ...]]
"""turns, end, pawns by colour, the leader after each turn, counts, the twister after"""

def board(paths: Sequence[Sequence[int]], safe: Sequence[bool], strips: Sequence[int]) -> Board:
    """Each colour's path of nodes (progress 0 .. home - 1), the safe nodes, each colour's
    first strip progress."""

def results(
    board: Board,
    seats: Sequence[int],
    pawns: Sequence[Sequence[int]],
    colour: int,
    a: int,
    b: int,
    standard: bool,
) -> list[tuple[tuple[int, int, int, int], int]]:
    """One roll's allowed results as (the mover's pawns, captured nodes), in the rules' order."""

def play(
    board: Board,
    seats: Sequence[int],
    greedy: bool,
    standard: bool,
    max_turns: int,
    twister: tuple[int, ...],
) -> tuple[
    int,
    str,
    tuple[list[int], ...],
    tuple[int, ...],
    tuple[int, int, int, int, int],
    tuple[int, ...],
]:
    """One whole game: (turns, end, pawns by colour, leaders, counters, the twister after)."""

def play_seeded(
    board: Board,
    seats: Sequence[int],
    greedy: bool,
    standard: bool,
    max_turns: int,
    seeds: Sequence[str],
) -> list[tuple[int, str, tuple[list[int], ...], tuple[int, ...], tuple[int, int, int, int, int]]]:
    """One whole game per seed text, each on `random.Random(text)`'s draws: (turns, end,
    pawns by colour, leaders, counters), as `play` gives a game without the twister."""

def playout(
    board: Board,
    seats: Sequence[int],
    pawns: Sequence[Sequence[int]],
    seat: int,
    turns: int,
    doubles: int,
    a: int,
    b: int,
    standard: bool,
    stop: int,
    max_turns: int,
    seed: int,
    explore: int = -1,
) -> tuple[tuple[list[int], ...], int, int, str | None, int, tuple[int, ...], tuple[int, int, int]]:
    """Play from a position (a = 0: at a chance node) with `random.Random(seed)`'s draws,
    by the random player (`explore` -1) or the guided one (`explore` percent of its
    choices random, the rest greedy's): (pawns by colour, seat, turns, end or None,
    winner or -1, leaders, (captures, entries, passes) of the playout)."""

def tree_search(
    board: Board,
    seats: Sequence[int],
    pawns: Sequence[Sequence[int]],
    seat: int,
    turns: int,
    doubles: int,
    a: int,
    b: int,
    standard: bool,
    max_turns: int,
    twister: tuple[int, ...],
    budget: int,
    horizon: int,
    exploration: float,
    cooperative: bool,
    explore: int = -1,
) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
    """`pnp.mcts.MctsBot.search` from a decision (the roll a <= b drawn), its playouts
    `playout`'s with the same `explore`: the root's (index in the roll's results, visits)
    in the order tried, and the twister after."""
