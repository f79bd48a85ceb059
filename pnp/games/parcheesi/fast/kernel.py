"""The compiled kernel's handle, its copy of each board, and the hooks it attaches to the
readable rules (`pnp.play.fastpath`: the search's playout and the search).

`_kernel.c` is built at install time when a C compiler is there; without one `kernel` is
None and everything plays on the readable rules. The board the kernel reads is built
once per play model, from the model (each colour's path, the safe nodes, the strips).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pnp.games.parcheesi.rules import COUNTERS, MAX_TURNS, NEST, PAWNS, Position, outlook
from pnp.games.parcheesi.rules import state as readable
from pnp.games.parcheesi.rules.model import PlayModel
from pnp.games.parcheesi.rules.state import State, Termination
from pnp.play import fastpath
from pnp.play.memo import PerModel

try:
    from pnp.games.parcheesi.fast import _kernel as kernel
except ImportError:  # built without a C compiler: the readable rules play
    kernel = None  # type: ignore[assignment]


def board_fields(model: PlayModel) -> dict[str, Any]:
    """The kernel's board by name (`_kernel.c`'s ``BOARD``): each colour's path of nodes
    (colour after colour), the safe nodes, the strips, and `outlook.win_chances`' weights
    then tempi at 2, 3, 4 players (row after row, 0 past the last seat)."""
    home = model.home
    colours = len(model.paths)
    return {
        "paths": [node for path in model.paths for node in path[:home]],
        "safe": list(model.safe),
        "strips": [model.strip(c) for c in range(colours)],
        "outlook": [
            w
            for n in range(2, colours + 1)
            for w in (*outlook.WEIGHTS[n], *outlook.TEMPO[n], *(0.0,) * (colours - n))
        ],
    }


def _board(model: PlayModel) -> kernel.Board:
    """The kernel's copy of the board (`board_fields`)."""
    assert kernel is not None
    return kernel.board(board_fields(model))


board: PerModel[PlayModel, kernel.Board] = PerModel(_board)
"""The kernel's board of a play model (built once per model and process)."""

ENDED = (None, "home", "timeout")
"""How a game or playout ended, by the kernel's code."""


def by_colour(flat: Sequence[int], seats: Sequence[int]) -> list[list[int]]:
    """The kernel's pawns (four a colour, colour after colour) as `State.pawns` holds
    them: a list a colour, an unplayed colour's empty."""
    return [
        list(flat[c * PAWNS : (c + 1) * PAWNS]) if c in seats else []
        for c in range(len(flat) // PAWNS)
    ]


def position(state: State) -> dict[str, Any]:
    """`state` as the kernel names a position (`_kernel.c`'s ``POSITION``): the seats'
    colours, each colour's four pawns (an unplayed colour's in the nest), the seat to
    move, turns, doubles, the roll (0, 0 before it), the rules, the turn limit and the
    playouts' player (`readable.PLAYOUT_EXPLORE`)."""
    a, b = state.dice or (0, 0)
    return {
        "seats": state.seats,
        "pawns": [p for own in state.pawns for p in (own or [NEST] * PAWNS)],
        "seat": state.seat,
        "turns": state.turns,
        "doubles": state.doubles,
        "a": a,
        "b": b,
        "standard": state.standard,
        "max_turns": MAX_TURNS,
        "explore": readable.PLAYOUT_EXPLORE,
    }


def query(state: State, dice: tuple[int, ...]) -> dict[str, Any]:
    """A roll of both dice from `state` as the kernel's ``QUERY`` names it: the seats'
    colours, each colour's four pawns (an unplayed colour's in the nest), the mover, the
    dice, the rules."""
    a, b = dice
    return {
        "seats": state.seats,
        "pawns": [p for own in state.pawns for p in (own or [NEST] * PAWNS)],
        "colour": state.colour,
        "a": a,
        "b": b,
        "standard": state.standard,
    }


def results(state: State) -> tuple[Position, ...] | None:
    """A roll of both dice's results as the kernel lists them: `State.legal_actions`, in
    the same order (the tests hold the two roll by roll; the readable rules list their
    own); None for a roll of one die (the kernel rolls two)."""
    assert kernel is not None
    if state.dice is None or len(state.dice) != 2:
        return None
    found = kernel.results(board(state.model), query(state, state.dice))
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
    after = kernel.playout(board(state.model), position(state), stop, seed)
    pawns, seat, turns = by_colour(after["pawns"], state.seats), after["seat"], after["turns"]
    ended, winner, leaders = ENDED[after["ended"]], after["winner"], after["leaders"]
    counts = (after["captures"], after["entries"], after["passes"])
    state.pawns = pawns
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
    settings: fastpath.SearchSettings,
) -> dict[Position, int] | None:
    """`pnp.play.mcts.MctsBot.search` from this decision in the kernel (`_tree.h`): the same
    visits, `rng` left where the readable search leaves it; None, `rng` untouched, where
    the mover may roll one die (the kernel rolls both) or the position is no decision."""
    assert kernel is not None
    if state.dice is None or state.ended is not None or state.model.dice == "choose":
        return None
    packed, on = position(state), board(state.model)
    search = settings.fields()
    run_on = kernel
    return fastpath.compiled_visits(
        rng,
        state.legal_actions(),
        lambda words: run_on.tree_search(on, packed, search, words),
    )


KERNEL = fastpath.attach(
    State,
    fastpath.Implementation("kernel", kernel is not None, playout=playout, tree_search=tree_search),
)
