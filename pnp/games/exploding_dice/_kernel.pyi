"""The compiled kernel's interface (`_kernel.c`): what `kernel.py` and the tests call."""

from collections.abc import Sequence
from typing import NewType

Board = NewType("Board", object)
"""A capsule holding the kernel's copy of the board."""

Game = tuple[int, int, tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]
"""turns, end (an index into `kernel.ENDS`), scores by seat, winners, deal, leaders"""

def board(
    n: int,
    lines: Sequence[Sequence[int]],
    neighbours: Sequence[int],
    zones: Sequence[int],
    starts: Sequence[int],
    faces: Sequence[Sequence[int]],
    reserve: Sequence[int],
    skip: bool,
) -> Board:
    """The grid side, each entry's cells (far border first), each cell's neighbour mask,
    each zone's mask, each colour's start cell, faces and reserve, the stall rule."""

def play(
    board: Board,
    players: int,
    each: int,
    greedy: bool,
    max_turns: int,
    target: int,
    twister: tuple[int, ...],
) -> tuple[Game, tuple[int, ...]]:
    """One whole game drawing from the twister state: (the game, the twister after)."""

def play_seeded(
    board: Board,
    players: int,
    each: int,
    greedy: bool,
    max_turns: int,
    target: int,
    seeds: Sequence[str],
) -> list[Game]:
    """One game per seed text, each on what `random.Random(text)` draws."""

def seeded(text: str) -> tuple[int, ...]:
    """`random.Random(text).getstate()[1]`, as the kernel seeds itself."""

def playout(
    board: Board,
    players: int,
    owners: Sequence[Sequence[int]],
    cells: Sequence[int],
    reserve: Sequence[int],
    scores: Sequence[int],
    seat: int,
    turns: int,
    quiet: int,
    leader: int,
    max_turns: int,
    target: int,
    stop: int,
    seed: int,
    colour: int,
    taken: bool,
    face: int,
) -> tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int, tuple[int, ...]]:
    """Random play from `seat`'s turn (its start, or under way from its first `colour`
    drawn, its die `taken` out, showing `face` if > 0) until the end or `stop` turns, on
    `random.Random(seed)`'s draws: (turns, end code, scores, cells as colour * 8 + face or
    -1, reserve by colour, seat, quiet turns, the leaders of the turns played)."""

def tree_search(
    board: Board,
    players: int,
    owners: Sequence[Sequence[int]],
    cells: Sequence[int],
    reserve: Sequence[int],
    scores: Sequence[int],
    seat: int,
    turns: int,
    quiet: int,
    max_turns: int,
    target: int,
    step: int,
    options: Sequence[int],
    tried: Sequence[int],
    colour: int,
    face: int,
    first: tuple[int, int],
    words: tuple[int, ...],
    budget: int,
    horizon: int,
    exploration: float,
    cooperative: bool,
    standing: bool,
) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
    """`pnp.mcts.MctsBot.search` from a decision (`rules.Step` by its order, the options and
    colours tried in the rules' order, the first colour drawn and its roll), on the twister
    words: the root's (index in the options, visits) in the order tried, and the words after."""
