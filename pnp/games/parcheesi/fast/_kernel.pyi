"""The compiled kernel's interface (`_kernel.c`): what `engine.py` and the tests call."""

from collections.abc import Sequence
from typing import Any, NewType

Board = NewType("Board", object)
"""A capsule holding the kernel's copy of the board."""

Game = dict[str, Any]
"""A whole game by name (`_kernel.c`'s ``RECORD``): ``turns``; ``end``, the end code as a
playout's (1 home, 2 timeout); ``pawns``, four a colour (an unplayed colour's in the nest);
``leaders``, the leader after each turn; and the counters ``captures``, ``decisions``,
``legal_moves``, ``entries``, ``passes``."""

Fields = dict[str, Any]
"""Named fields: `compiled.board_fields`, `compiled.query`, `engine.settings`,
`compiled.position`, `pnp.play.fastpath.search` (`pnp/play/_seam.h`)."""

def board(fields: Fields) -> Board:
    """The board by name: each colour's path of nodes (progress 0 .. home - 1), the safe
    nodes, each colour's first strip progress, and `outlook.win_chances`' weights then
    tempi at 2, 3, 4 players."""

def results(board: Board, query: Fields) -> list[tuple[tuple[int, int, int, int], int]]:
    """One roll's allowed results as (the mover's pawns, captured nodes), in the rules'
    order: the seats, pawns (four a colour), mover's colour, dice a and b and the rules,
    by name."""

def play(board: Board, settings: Fields, twister: tuple[int, ...]) -> tuple[Game, tuple[int, ...]]:
    """One whole game: (the game by name, the twister after)."""

def play_seeded(board: Board, settings: Fields, seeds: Sequence[str]) -> list[Game]:
    """One whole game per seed text, each on `random.Random(text)`'s draws, as `play`
    gives a game."""

def playout(board: Board, position: Fields, stop: int, seed: int) -> Fields:
    """Play from a position (a = 0: at a chance node) with `random.Random(seed)`'s draws,
    by the random player (`explore` -1) or the guided one (`explore` percent of its
    choices random, the rest greedy's): the pawns (four a colour), seat, turns, end code
    (0 going, 1 home, 2 timeout), winner or -1, leaders, and the playout's captures,
    entries and passes, by name."""

def tree_search(
    board: Board, position: Fields, search: Fields, twister: tuple[int, ...]
) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
    """`pnp.play.mcts.MctsBot.search` from a decision (the roll a <= b drawn), its playouts
    `playout`'s with the same `explore`: the root's (index in the roll's results, visits)
    in the order tried, and the twister after."""

def sources() -> str:
    """The SHA-256 of the C files this kernel was compiled from (setup.py stamps it)."""
