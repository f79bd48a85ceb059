"""The compiled kernel's interface (`_kernel.c`): what `kernel.py` and the tests call."""

from collections.abc import Sequence
from typing import Any, NewType

Board = NewType("Board", object)
"""A capsule holding the kernel's copy of the board."""

Game = dict[str, Any]
"""A whole game by name (`_kernel.c`'s ``RECORD``): ``turns``; ``end``, the end code as a
playout's (1 for `kernel.ENDS`' first); ``scores`` by seat; ``winners``, the seats sharing
the top score; ``deal``, an index into `rules._deals`; ``leaders``, after each turn the
seat leading alone or -1."""

Fields = dict[str, Any]
"""Named fields: `kernel.board_fields`, `kernel.settings`, `kernel.position`,
`pnp.play.fastpath.search` (`pnp/play/_seam.h`)."""

def board(fields: Fields) -> Board:
    """The board by name: the grid side, each entry's cells (far border first, row after
    row), each cell's neighbour mask, each zone's mask, each colour's start cell, faces and
    reserve, the stall rule."""

def play(board: Board, settings: Fields, twister: tuple[int, ...]) -> tuple[Game, tuple[int, ...]]:
    """One whole game drawing from the twister state: (the game by name, the twister after)."""

def play_seeded(board: Board, settings: Fields, seeds: Sequence[str]) -> list[Game]:
    """One game per seed text, each on what `random.Random(text)` draws."""

def seeded(text: str) -> tuple[int, ...]:
    """`random.Random(text).getstate()[1]`, as the kernel seeds itself."""

def playout(board: Board, position: Fields, stop: int, seed: int) -> Fields:
    """Random play from a position (at the start of a turn, or under way from its first
    colour drawn) until the end or `stop` turns, on `random.Random(seed)`'s draws: the
    cells, reserve, scores, seat, turns, quiet turns, end code and the leaders of the
    turns played, by name."""

def tree_search(
    board: Board, position: Fields, search: Fields, words: tuple[int, ...]
) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
    """`pnp.play.mcts.MctsBot.search` from a decision, on the twister words: the root's (index in
    the options, visits) in the order tried, and the words after."""

def sources() -> str:
    """The SHA-256 of the C files this kernel was compiled from (setup.py stamps it)."""
