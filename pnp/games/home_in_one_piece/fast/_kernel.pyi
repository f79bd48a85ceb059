"""The compiled kernel's interface (`_kernel.c`, its tree search in `_tree.h`): what
`kernel.py` and the tests call."""

from collections.abc import Sequence

BlobTuple = tuple[float, float, int, float, float, float]
"""x, y, units, r, ax, ay"""
Blobs = tuple[list[BlobTuple], list[BlobTuple]]
"""each seat's blobs"""
Run = tuple[int, str, int, tuple[int, ...], tuple[int, ...], Blobs]
"""turns, the end ('' while playing, 'home', 'timeout'), winner (-1 for none), the leader
after each turn played, the counters, the blobs"""

def model(
    width: float,
    height: float,
    home: Sequence[float],
    reach: float,
    bridge: float,
    radii: Sequence[float],
    rally: Sequence[object],
    starts: Sequence[object],
    dice: Sequence[object],
    fan: Sequence[object],
    strides: Sequence[object],
    ring: Sequence[object],
    apart: float,
    apart_slack: float,
    eps: float,
    two_pi: float,
    weights: Sequence[float],
    tempo: float,
    most_pairs: int,
) -> object:
    """The kernel's copy of a play model and of the rules' constants (a capsule)."""

def play(
    model: object, greedy: bool, max_turns: int, twister: Sequence[int]
) -> tuple[int, str, int, tuple[int, ...], tuple[int, ...], Blobs, tuple[int, ...]]:
    """One whole game, random or greedy players in both seats: a `Run` and the twister
    after."""

def playout(
    model: object,
    blobs: Sequence[Sequence[BlobTuple]],
    seat: int,
    turns: int,
    rolled: bool,
    budget: int,
    touched: Sequence[int],
    max_turns: int,
    counters: Sequence[int],
    stop: int,
    seed: int,
) -> Run:
    """The search's rollout policy from a position until the game ends or `stop` turns are
    played (the leaders of the turns played here only)."""

def hypot(model: object, x: float, y: float) -> float:
    """`math.hypot(x, y)` as the kernel computes it."""

def tree_search(
    model: object,
    blobs: Sequence[Sequence[BlobTuple]],
    seat: int,
    turns: int,
    rolled: bool,
    budget: int,
    touched: Sequence[int],
    max_turns: int,
    ended: int,
    winner: int,
    scoring: int,
    twister: Sequence[int],
    playouts: int,
    horizon: int,
    exploration: float,
    cooperative: bool,
) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
    """`pnp.play.mcts`' search from a position: (the root's visits by child index, the
    twister after)."""
