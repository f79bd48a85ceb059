from collections.abc import Sequence
from typing import Any, NewType

Model = NewType("Model", object)
"""A capsule holding the kernel's copy of a play model: the board of every entry point."""

Fields = dict[str, Any]
"""Named fields: `compiled.model_fields`, `compiled.settings`, `compiled.position`,
`pnp.play.fastpath.search` (`pnp/play/_seam.h`)."""

def model(fields: Fields) -> Model:
    """The kernel's copy of a play model and of the rules' constants."""

def hypot(model: Model, point: Fields) -> float:
    """`math.hypot(x, y)` of the point's x and y as the kernel computes it."""

def play(
    model: Model, settings: Fields, twister: tuple[int, ...]
) -> tuple[Fields, tuple[int, ...]]:
    """One whole game, random or greedy players in both seats: (the blobs (seat 0's then
    seat 1's, how many each in `blobs`), seat, turns, end code (1 home, 2 timeout), winner
    or -1, the leader after each turn and the counters, by name; the twister after)."""

def play_seeded(model: Model, settings: Fields, seeds: Sequence[str]) -> list[Fields]:
    """One whole game per seed text, each on `random.Random(text)`'s draws, as `play`
    gives a game."""

def playout(model: Model, position: Fields, stop: int, seed: int) -> Fields:
    """The search's rollout policy (the greedy player) from a position until the game ends
    or `stop` turns are played, on `random.Random(seed)`'s draws: the position after, by
    name, as `play` gives a game (the leaders of the turns played here only; end code 0
    while the game goes on)."""

def tree_search(
    model: Model, position: Fields, search: Fields, twister: tuple[int, ...]
) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
    """`pnp.play.mcts.MctsBot.search` from a position: the root's (child index, visits) in
    the order tried, and the twister after."""

def sources() -> str:
    """The SHA-256 of the C files this kernel was compiled from (setup.py stamps it)."""
