"""The compiled kernel's handle, its copy of each board, and the hooks it attaches to the
readable rules (`pnp.fastpath`: the search's playout and the search).

`_kernel.c` is built at install time when a C compiler is there; without one `kernel` is
None and everything plays on the readable rules. The board the kernel reads is built
once per play model, from the model (each colour's path, the safe nodes, the strips).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pnp import fastpath
from pnp.games.parcheesi import state as readable
from pnp.games.parcheesi.model import PlayModel
from pnp.games.parcheesi.rules import COUNTERS, MAX_TURNS, Position
from pnp.games.parcheesi.state import State, Termination
from pnp.memo import PerModel

try:
    from pnp.games.parcheesi import _kernel as kernel
except ImportError:  # built without a C compiler: the readable rules play
    kernel = None  # type: ignore[assignment]


def _board(model: PlayModel) -> kernel.Board:
    """The kernel's copy of the board: each colour's path of nodes, safe nodes, strips."""
    assert kernel is not None
    home = model.home
    strips = [path.index(model.home_entry[c]) + 1 for c, path in enumerate(model.paths)]
    return kernel.board([path[:home] for path in model.paths], model.safe, strips)


board: PerModel[PlayModel, kernel.Board] = PerModel(_board)
"""The kernel's board of a play model (built once per model and process)."""


KernelPosition = tuple[
    "kernel.Board", Sequence[int], Sequence[Sequence[int]], int, int, int, int, int, bool
]
"""A position as the kernel's `playout` and `tree_search` take it: the board, seats, pawns,
the seat to move, turns, doubles, the dice (0, 0 before a roll) and the rules."""


def _position(state: State) -> KernelPosition:
    a, b = state.dice or (0, 0)
    s = state
    return (board(s.model), s.seats, s.pawns, s.seat, s.turns, s.doubles, a, b, s.standard)


def results(state: State) -> tuple[Position, ...] | None:
    """A roll of both dice's results as the kernel lists them: `State.legal_actions`, in
    the same order (the tests hold the two roll by roll; the readable rules list their
    own); None for a roll of one die (the kernel rolls two)."""
    assert kernel is not None
    if state.dice is None or len(state.dice) != 2:
        return None
    found = kernel.results(
        board(state.model), state.seats, state.pawns, state.colour, *state.dice, state.standard
    )
    return tuple([Position(own, captured) for own, captured in found])


def playout(state: State, rng: random.Random, stop: int) -> bool:
    """`State.playout` in the kernel: the guided player's game from `random.Random(n)`,
    n one draw of `rng`; False (no draw) where the mover may roll one die (the kernel
    rolls both)."""
    assert kernel is not None
    if state.model.dice == "choose":
        return False
    seed = rng.getrandbits(64)
    if state.ended is not None or state.turns >= stop:
        return True
    pawns, seat, turns, ended, winner, leaders, counts = kernel.playout(
        *_position(state),
        stop,
        MAX_TURNS,
        seed,
        readable.PLAYOUT_EXPLORE,
    )
    state.pawns = list(pawns)
    state.seat, state.turns, state.dice, state.doubles = seat, turns, None, 0
    state._offered = None
    state.leaders.extend(leaders)
    for name, count in zip(COUNTERS, counts, strict=True):
        state.counters[name] += count
    if ended is not None:
        state.ended, state.winner = Termination(ended), None if winner < 0 else winner
    return True


def tree_search(
    state: State,
    rng: random.Random,
    budget: int,
    playout_turns: int,
    exploration: float,
    cooperative: bool,
) -> dict[Position, int] | None:
    """`pnp.mcts.MctsBot.search` from this decision in the kernel (`_tree.h`): the same
    visits, `rng` left where the readable search leaves it; None, `rng` untouched, where
    the mover may roll one die (the kernel rolls both) or the position is no decision."""
    assert kernel is not None
    if state.dice is None or state.ended is not None or state.model.dice == "choose":
        return None
    run_on = kernel
    return fastpath.compiled_visits(
        rng,
        state.legal_actions(),
        lambda words: run_on.tree_search(
            *_position(state),
            MAX_TURNS,
            words,
            budget,
            playout_turns,
            exploration,
            cooperative,
            readable.PLAYOUT_EXPLORE,
        ),
    )


KERNEL = fastpath.attach(
    State,
    fastpath.Implementation("kernel", kernel is not None, playout=playout, tree_search=tree_search),
)
