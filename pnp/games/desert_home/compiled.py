"""Desert Home's compiled kernel (`_kernel.c`) and its board, shared by the engine (whole
games) and the state (`State.playout`, random play from any position for a tree search).
`_kernel` is None when pnp was built without a C compiler."""

from __future__ import annotations

from pnp.games.desert_home import rules
from pnp.games.desert_home.model import PlayModel
from pnp.memo import PerModel

try:
    from pnp.games.desert_home import _kernel  # type: ignore[attr-defined]
except ImportError:  # built without a C compiler: the readable rules play every game
    _kernel = None


def kernel_board_args(model: PlayModel) -> tuple:
    """What `_kernel.board` takes: the board, the supply, the rules' constants, the greedy
    bot's and the value's (its powers of `value.NEAR` as a table, so that both sides weigh
    with the very same numbers)."""
    from pnp.games.desert_home.bots import (  # bots import the state
        KEEP_POINTS,
        PLAYOUT_RANDOM,
        REFUGE_SIZE,
    )
    from pnp.games.desert_home.value import NEAR, SCALE, UNPLACED_STEP

    m = model
    return (
        (
            *(m.cells, m.width, m.rows, m.path_columns, m.blue, m.goal, m.tent_value),
            *(m.deck_safe, m.deck_thirst, m.protection_cards, m.figures, m.tents),
        ),
        (
            *(rules.THIRST_GRACE, rules.SMALL_ROAD, rules.BIG_ROAD, rules.PROTECT_COST),
            *(rules.INFLUX_PUSH, rules.ROAD_TILES_CHAIN, rules.REFUGE_ENDS_DUTY),
            m.road_optional,
            m.whole_groups,
        ),
        (UNPLACED_STEP, KEEP_POINTS, REFUGE_SIZE, PLAYOUT_RANDOM),
        (SCALE, [NEAR**d for d in range(UNPLACED_STEP * m.cells + 2)]),
        [[rules.action_points(n, k) for k in range(1, 7)] for n in range(1, 7)],
        *(m.kind, m.step, m.reach, m.path_next, m.path_cells, m.camp_cells, m.refuge_entries),
    )


def _build_kernel_board(model: PlayModel) -> object:
    assert _kernel is not None
    return _kernel.board(*kernel_board_args(model))


kernel_board: PerModel[PlayModel, object] = PerModel(_build_kernel_board)
"""The kernel's board for a play model, built once per model and process."""
