"""The compiled proof search's interface (`_search.c`): what `solver_proof.py` and the
tests call."""

from collections.abc import Callable, Sequence

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
