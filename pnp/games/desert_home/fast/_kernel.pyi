"""The compiled kernel's interface (`_kernel.c`, its tree search in `_tree.h`, its entry
points `pnp/play/_seam.h`'s): what `kernel.py`, `engine.py` and the tests call."""

from collections.abc import Sequence
from typing import Any

Fields = dict[str, Any]
"""Named fields: `engine.settings`, `kernel.position`, `pnp.play.fastpath.search`
(`pnp/play/_seam.h`)."""

Game = dict[str, Any]
"""A whole game's record by name (`_kernel.c`'s ``RECORD``): `turns`, `end` (its name),
`winners`, `scores` (each seat's progress), `leaders` (after each turn) and the counters
under `engine.COUNTERS`' names (`duration_rounds`, `deaths`, `tiles_placed`, ...)."""

def board(fields: Fields) -> object:
    """The board for the entry points below (a capsule), by name: `kernel.board_fields`."""

def play(board: object, settings: Fields, twister: Sequence[int]) -> tuple[Game, tuple[int, ...]]:
    """One whole game, random or greedy, from the twister's words: (the game, the words
    after)."""

def play_seeded(board: object, settings: Fields, seeds: Sequence[str]) -> list[Game]:
    """One whole game per seed text, each on `random.Random(text)`'s draws."""

def shuffle(fields: Fields) -> tuple[int, ...]:
    """The `items` (whole numbers) in a random order, drawn from `random.Random(seed)` as
    `State.resample` draws."""

def playout(board: object, position: Fields, stop: int, seed: int) -> Fields:
    """`bots.PlayoutBot`'s play from a position (`kernel.position`) on `random.Random(seed)`'s
    draws: whether it played, the position after, the end's code (0 going, 1 refuge, 2
    deck, 3 timeout), winners, the leader after each turn played and the steps taken, by
    name."""

def tree_search(
    board: object, position: Fields, search: Fields, twister: Sequence[int]
) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
    """`pnp.play.mcts`' search from a decision (`kernel.position`): (the root's visits by
    action index, the twister after)."""

def sources() -> str:
    """The SHA-256 of the C files this kernel was compiled from (setup.py stamps it)."""
