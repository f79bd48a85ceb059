"""Desert Home's compiled kernel (`_kernel.c`) and its board, for the engine (whole games),
and the speed-ups it attaches to the readable `State` through `pnp.play.fastpath` (the
search's shuffle, playout and tree search). `_kernel` is None when pnp was built without a
C compiler."""

from __future__ import annotations

import random
from typing import Any

from pnp.games.desert_home import rules
from pnp.games.desert_home.rules.model import PlayModel
from pnp.games.desert_home.rules.state import State
from pnp.play import fastpath
from pnp.play.memo import PerModel

try:
    from pnp.games.desert_home.fast import _kernel
except ImportError:  # built without a C compiler: the readable rules play every game
    _kernel = None  # type: ignore[assignment]


def _table(rows: tuple[tuple[int, ...], ...]) -> list[int]:
    """A table of up to four fields a cell as four numbers a cell, -1 after a row's last."""
    return [n for row in rows for n in (*row, *(-1,) * (4 - len(row)))]


def board_fields(model: PlayModel) -> dict[str, Any]:
    """The kernel's board by name (`_kernel.c`'s ``BOARD``): the model's numbers and tables,
    the rules' constants, the greedy bot's and the value's (its powers of `value.NEAR` as
    a table, so that both sides weigh with the very same numbers, and its thirst weights,
    `value.THIRST_KEEP`)."""
    from pnp.games.desert_home.rules.bots import (  # bots import the state
        KEEP_POINTS,
        PLAYOUT_RANDOM,
        REFUGE_SIZE,
    )
    from pnp.games.desert_home.rules.value import NEAR, SCALE, THIRST_KEEP, UNPLACED_STEP

    m = model
    own = (
        *("cells", "width", "rows", "path_columns", "blue", "goal", "tent_value"),
        *("deck_safe", "deck_thirst", "protection_cards", "figures", "tents", "kind"),
        *("path_cells", "camp_cells", "refuge_entries", "road_optional", "whole_groups"),
    )
    return {
        **{name: getattr(m, name) for name in own},
        "step": [n for row in m.step for n in row],  # four a cell, -1 off the board
        "reach": _table(m.reach),
        "path_next": _table(m.path_next),
        "thirst_grace": rules.THIRST_GRACE,
        "small_road": rules.SMALL_ROAD,
        "big_road": rules.BIG_ROAD,
        "protect_cost": rules.PROTECT_COST,
        "influx_push": rules.INFLUX_PUSH,
        "road_tiles_chain": rules.ROAD_TILES_CHAIN,
        "refuge_ends_duty": rules.REFUGE_ENDS_DUTY,
        "unplaced_step": UNPLACED_STEP,
        "keep_points": KEEP_POINTS,
        "refuge_size": REFUGE_SIZE,
        "playout_random": PLAYOUT_RANDOM,
        "scale": SCALE,
        "near": [NEAR**d for d in range(UNPLACED_STEP * m.cells + 2)],
        "thirst_keep": THIRST_KEEP,
        "points": [rules.action_points(n, k) for n in range(1, 7) for k in range(1, 7)],
    }


def _build_kernel_board(model: PlayModel) -> object:
    assert _kernel is not None
    return _kernel.board(board_fields(model))


kernel_board: PerModel[PlayModel, object] = PerModel(_build_kernel_board)
"""The kernel's board for a play model, built once per model and process."""


def resample(state: State, rng: random.Random) -> bool:
    """`State.resample` in the kernel: the same shuffle of the same draws."""
    assert _kernel is not None
    state.deck.sort()
    state.deck[:] = _kernel.shuffle({"items": state.deck, "seed": rng.getrandbits(64)})
    return True


ENDED = (None, rules.End.REFUGE, rules.End.DECK, rules.End.TIMEOUT)
"""How a playout ended, by the kernel's code."""

CELLS = ("tile", "deadline", "colour", "figs", "tents", "bearer")
"""A position's per-cell lists (`_kernel.c`'s ``POSITION`` names them as `State` does)."""
COUNTS = ("camp_figs", "camp_tents", "arrived", "dice")
"""Its other lists of numbers of a fixed length."""
NUMBERS = (
    *("cards", "seat", "round", "turns", "points", "tiles_placed", "deaths"),
    *("water_missions", "decisions", "legal_moves", "phase", "thrown"),
    *("road_left", "road_last", "drawn"),
)
"""Its numbers that a playout hands back."""


def position(state: State) -> dict[str, Any]:
    """`state` as the kernel names a position (`_kernel.c`'s ``POSITION``): `State`'s fields
    by their names, each refuge row after the other, the swaps still due by seat, and how
    the search scores a cut-off (`scoring`: 2 on `win_chances`, 1 on `standing`, 0 on
    nothing, as `pnp.play.mcts` asks the state for it)."""
    swaps_left = [0] * len(state.arrived)
    for seat, figures in state.swaps:
        swaps_left[seat] = figures
    kind = type(state)
    packed: dict[str, Any] = {name: getattr(state, name) for name in (*CELLS, *COUNTS, *NUMBERS)}
    packed.update(
        refuge_figs=[n for row in state.refuge_figs for n in row],
        refuge_tents=[n for row in state.refuge_tents for n in row],
        usable=state.usable,
        deck=state.deck,
        may_stop=state.may_stop,
        max_rounds=state.max_rounds,
        back_phase=state.back_phase,
        rolling=state.rolling,
        pending=state.pending,
        swaps_left=swaps_left,
        scoring=2 if hasattr(kind, "win_chances") else 1 if hasattr(kind, "standing") else 0,
    )
    return packed


def _write_back(state: State, after: dict[str, Any]) -> None:
    """A playout's position (`_kernel.c`'s ``AFTER``) into `state`, in place: a playout
    stops between turns or at the game's end, so nothing of a turn under way is left."""
    for name in (*CELLS, *COUNTS):
        getattr(state, name)[:] = after[name]
    for name in NUMBERS:
        setattr(state, name, after[name])
    state.usable[:] = [bool(n) for n in after["usable"]]
    for name in ("refuge_figs", "refuge_tents"):
        rows, flat = getattr(state, name), after[name]
        width = len(flat) // len(rows)
        for seat, row in enumerate(rows):
            row[:] = flat[seat * width : (seat + 1) * width]
    state.deck = state.deck[: after["ndeck"]]  # a playout draws from the top only
    state.may_stop = after["may_stop"]
    state.rolling, state.pending, state.swaps = list(after["rolling"]), list(after["pending"]), []
    state.leaders.extend(after["leaders"])


def playout(state: State, rng: random.Random, stop: int) -> bool:
    """`State.playout` in the kernel: the same game from `random.Random(n)`, n one draw of
    `rng` (tests/test_dh_playout.py)."""
    assert _kernel is not None
    seed = rng.getrandbits(64)
    if state.ended is not None or state.turns >= stop:
        return True
    after = _kernel.playout(kernel_board(state.model), position(state), stop, seed)
    if not after["played"]:
        return True
    _write_back(state, after)
    end = ENDED[after["ended"]]
    if end is not None:
        state.ended, state.winners = end, after["winners"]
    state.steps += after["steps"]
    state.legal = None
    state.memo.clear()
    return True


def tree_search(
    state: State,
    rng: random.Random,
    settings: fastpath.SearchSettings,
) -> dict[Any, int] | None:
    """`pnp.play.mcts.MctsBot.search` from this decision, compiled (`_tree.h`): the same visits,
    and `rng` left where the readable search leaves it; None (`rng` untouched) where the
    position is no decision."""
    assert _kernel is not None
    if state.ended is not None or state.phase == rules.P_ROLL:
        return None
    board, packed = kernel_board(state.model), position(state)
    search = settings.fields()
    run_on = _kernel
    return fastpath.compiled_visits(
        rng, state.legal_actions(), lambda words: run_on.tree_search(board, packed, search, words)
    )


KERNEL = fastpath.attach(
    State,
    fastpath.Implementation(
        "kernel",
        _kernel is not None,
        playout=playout,
        tree_search=tree_search,
        resample=resample,
    ),
)
