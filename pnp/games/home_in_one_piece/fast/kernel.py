"""Home in One Piece on the compiled kernel (`_kernel.c`): whole games, handed back as the
readable rules' final `State`.

The kernel takes the play model once (`kernel_model`), then plays a game drawing from the
caller's `random.Random` state (its Mersenne Twister words handed over and taken back), so
the game and the generator end as the readable rules leave them. What the kernel returns
(turns, the end, the leaders, the counters, every blob) becomes a `State`, whose own
`record()` makes the game's record: one place for scores and records.

`playout` is the tree search's rollout (`pnp.play.mcts.playout`): the greedy player
(`State.rollout_action`) from a given position, a turn under way included, on a generator
the kernel seeds from one draw of the search's. `tree_search` is the whole search (`pnp/play/_uct.h`
over the kernel's positions, `_tree.h`). Both attach to the readable `State` through
`pnp.play.fastpath`.
"""

from __future__ import annotations

import math
import random
from typing import Any

from pnp.games.home_in_one_piece import rules
from pnp.games.home_in_one_piece.rules import model, outlook, touches
from pnp.games.home_in_one_piece.rules.blobs import Blob
from pnp.games.home_in_one_piece.rules.state import State
from pnp.play import fastpath
from pnp.play.memo import PerModel

try:
    from pnp.games.home_in_one_piece.fast import _kernel
except ImportError:  # built without a C compiler: the readable rules play
    _kernel = None  # type: ignore[assignment]


NO_KERNEL = (
    "warning: Home in One Piece's compiled kernel is not built (no C compiler at install): "
    "playing on the readable rules, slower"
)


def available() -> bool:
    """Does the kernel play here? Not where it was not built at install time (said once
    per process) or another implementation is chosen (`pnp.play.fastpath.using`)."""
    return fastpath.runs(State, NO_KERNEL)


def _build(play_model: model.PlayModel) -> object:
    """The kernel's copy of the model and of the rules', the listed steps' and the
    outlook's constants."""
    assert _kernel is not None
    m = play_model
    return _kernel.model(
        m.width,
        m.height,
        m.home,
        m.reach,
        m.bridge,
        m.radii,
        m.rally,
        m.starts,
        m.dice,
        touches.FAN,
        touches.STRIDES,
        touches.RING,
        model.APART,
        model.APART_SLACK,
        model.EPS,
        2 * math.pi,
        outlook.WEIGHTS,
        outlook.TEMPO,
        outlook.MOST_PAIRS,
    )


kernel_model: PerModel[model.PlayModel, object] = PerModel(_build)


def play(
    play_model: model.PlayModel,
    greedy: bool,
    rng: random.Random,
    max_turns: int = rules.MAX_TURNS,
) -> State:
    """One whole game on the kernel (random or greedy players in both seats): its final
    position as a readable `State`."""
    assert _kernel is not None
    version, words, gauss = rng.getstate()
    turns, end, winner, leaders, counts, blobs, words = _kernel.play(
        kernel_model(play_model), greedy, max_turns, words
    )
    rng.setstate((version, words, gauss))
    return State(
        model=play_model,
        blobs=[[Blob(*b) for b in seat] for seat in blobs],
        seat=turns % 2,
        turns=turns,
        ended=rules.Termination(end),
        winner=None if winner < 0 else winner,
        max_turns=max_turns,
        leaders=list(leaders),
        counters=dict(zip(rules.COUNTERS, counts, strict=True)),
    )


def hypot(play_model: model.PlayModel, x: float, y: float) -> float:
    """`math.hypot` as the kernel computes it (for the tests)."""
    assert _kernel is not None
    return float(_kernel.hypot(kernel_model(play_model), x, y))


def _touched(position: State) -> list[int]:
    """The places of the own blobs the turn under way has touched."""
    return [position.own.index(b) for b in position.touched] if position.rolled else []


Position = tuple[
    object,
    list[list[tuple[float, float, int, float, float, float]]],
    int,
    int,
    bool,
    int,
    list[int],
    int,
]
"""What `_position` hands the kernel, field for field as `_kernel.pyi` declares it."""


def _position(position: State) -> Position:
    """A position as the kernel's `playout` and `tree_search` take it: the model, the
    blobs, the seat, the turn, the roll under way and what it has touched, the turn limit."""
    return (
        kernel_model(position.model),
        [[(b.x, b.y, b.units, b.r, b.ax, b.ay) for b in seat] for seat in position.blobs],
        position.seat,
        position.turns,
        position.rolled,
        position.budget,
        _touched(position),
        position.max_turns,
    )


def playout(position: State, rng: random.Random, stop: int) -> bool:
    """The search's rollout policy (the greedy player, `State.rollout_action`) from
    `position` (between turns, or at a seat's decision, a turn under way included) until
    the game ends or `stop` turns are played, in place: its law and the very draws
    `random.Random(n)` gives the readable rules, n being the one draw taken from `rng`."""
    assert _kernel is not None
    if position.ended is not None or position.turns >= stop:
        return True
    turns, end, winner, leaders, counts, blobs = _kernel.playout(
        *_position(position),
        [position.counters[c] for c in rules.COUNTERS],
        stop,
        rng.getrandbits(64),
    )
    position.blobs = [[Blob(*b) for b in seat] for seat in blobs]
    position.seat ^= (turns - position.turns) & 1
    position.turns, position.rolled, position.touched, position.moves = turns, False, [], []
    position.ended = rules.Termination(end) if end else None
    position.winner = None if winner < 0 else winner
    position.leaders += leaders
    position.counters = dict(zip(rules.COUNTERS, counts, strict=True))
    return True


def tree_search(
    position: State,
    rng: random.Random,
    budget: int,
    playout_turns: int,
    exploration: float,
    cooperative: bool,
) -> dict[Any, int]:
    """`pnp.play.mcts.MctsBot.search` from `position` (between turns, or at a seat's decision, a
    turn under way included) on the kernel: the same visits, and `rng` left where it
    leaves it."""
    assert _kernel is not None
    ended = 0 if position.ended is None else 1 if position.ended is rules.Termination.HOME else 2
    scoring = (
        2
        if callable(getattr(position, "win_chances", None))
        else 1
        if callable(getattr(position, "standing", None))
        else 0
    )  # as `pnp.play.mcts.MctsBot.reward` asks
    args = (
        *_position(position),
        ended,
        -1 if position.winner is None else position.winner,
        scoring,
    )
    # the root's children: a decision's actions by index, else the rolls (blobs showing)
    live = position.rolled and position.ended is None
    legal: list[Any] = position.legal_actions() if live else []
    if not position.rolled:
        legal = list(range(len(position.model.dice) + 1))

    def run(words: tuple[int, ...]) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
        assert _kernel is not None
        children, after = _kernel.tree_search(
            *args, words, budget, playout_turns, exploration, cooperative
        )
        return children, after

    return fastpath.compiled_visits(rng, legal, run)


KERNEL = fastpath.attach(
    State,
    fastpath.Implementation(
        "kernel", _kernel is not None, playout=playout, tree_search=tree_search
    ),
)
