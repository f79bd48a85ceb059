"""The compiled kernel's interface (`_kernel.c`, its tree search in `_tree.h`): what
`kernel.py`, `engine.py` and the tests call."""

from collections.abc import Sequence

Counts = tuple[int, int, int, int, int]
"""deaths, tiles placed, water missions, decisions, legal moves"""
Game = tuple[
    int, int, str, tuple[int, ...], tuple[int, ...], tuple[int, int], Counts, tuple[int, ...]
]
"""rounds, turns, the end's name, winners, the leader after each turn, scores, counts, the
twister after"""

def board(
    numbers: Sequence[object],
    rules: Sequence[int | bool],
    greedy: Sequence[int | float],
    value: Sequence[object],
    points: Sequence[Sequence[int]],
    kind: Sequence[int],
    step: Sequence[int],
    reach: Sequence[object],
    path_next: Sequence[object],
    path_cells: Sequence[int],
    camp_cells: Sequence[int],
    refuge_entries: Sequence[int],
) -> object:
    """The board for `play` (a capsule): `kernel.kernel_board_args` lists what goes in."""

def play(board: object, max_rounds: int, twister: Sequence[int], greedy: bool = False) -> Game:
    """One whole game, random or greedy, from the twister's words (and the words after)."""

def shuffle(items: list[int], seed: int) -> None:
    """The list's items in a random order, in place (`State.resample`)."""

def playout(board: object, state: object, seed: int, stop: int) -> tuple[str, tuple[int, ...], int]:
    """`bots.PlayoutBot`'s play from a `State`'s position, written back into it: (the end's
    name or "", winners, steps played)."""

def tree_search(
    board: object,
    state: object,
    twister: Sequence[int],
    budget: int,
    horizon: int,
    exploration: float,
    cooperative: bool,
    scoring: int,
) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
    """`pnp.play.mcts`' search from a `State`'s decision: (the root's visits by action index,
    the twister after)."""
