"""Home in One Piece on the compiled kernel (`_kernel.c`): whole games, handed back as the
readable rules' final `State`.

The kernel takes the play model once (`kernel_model`), then plays a game drawing from the
caller's `random.Random` state (its Mersenne Twister words handed over and taken back), so
the game and the generator end as the readable rules leave them. What the kernel returns
(turns, the end, the leaders, the counters, every blob) becomes a `State`, whose own
`record()` makes the game's record: one place for scores and records.

`playout` is the tree search's rollout (`pnp.state`'s optional hook): the random player
from a given position, on a generator the kernel seeds from one draw of the search's.
`tree_search` is the whole search (`pnp/_uct.h` over the kernel's positions, `_tree.h`).
"""

from __future__ import annotations

import math
import random
from typing import Any

from pnp import mcts
from pnp.games.home_in_one_piece import bots, model, rules
from pnp.games.home_in_one_piece.blobs import Blob
from pnp.games.home_in_one_piece.state import State
from pnp.memo import PerModel

try:
    from pnp.games.home_in_one_piece import _kernel  # type: ignore[attr-defined]
except ImportError:  # built without a C compiler: the readable rules play
    _kernel = None


def available() -> bool:
    """Was the kernel built at install time?"""
    return _kernel is not None


def _build(play_model: model.PlayModel) -> object:
    """The kernel's copy of the model and of the rules' and greedy player's constants."""
    assert _kernel is not None
    m = play_model
    return _kernel.model(
        m.width,
        m.height,
        m.home,
        m.reach,
        m.radii,
        m.rally,
        m.starts,
        m.dice,
        bots.FAN,
        bots.STRIDES,
        bots.RING,
        bots.SIDESTEP_TRIES,
        model.APART,
        model.APART_SLACK,
        model.EPS,
        2 * math.pi,
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


def playout(state: State, rng: random.Random, stop: int) -> None:
    """Random play from `state` (between turns, or at a seat's decision with nothing
    touched) until the game ends or `stop` turns are played, in place: the random player's
    law and the very draws `random.Random(n)` gives the readable rules, n being the one
    draw taken from `rng`."""
    assert _kernel is not None and not (state.rolled and state.touched), "a turn's start"
    if state.ended is not None or state.turns >= stop:
        return
    turns, end, winner, leaders, counts, blobs = _kernel.playout(
        kernel_model(state.model),
        [[(b.x, b.y, b.units, b.r, b.ax, b.ay) for b in seat] for seat in state.blobs],
        state.seat,
        state.turns,
        state.rolled,
        state.budget,
        state.max_turns,
        [state.counters[c] for c in rules.COUNTERS],
        stop,
        rng.getrandbits(64),
    )
    state.blobs = [[Blob(*b) for b in seat] for seat in blobs]
    state.seat ^= (turns - state.turns) & 1
    state.turns, state.rolled, state.touched, state.moves = turns, False, [], []
    state.ended = rules.Termination(end) if end else None
    state.winner = None if winner < 0 else winner
    state.leaders += leaders
    state.counters = dict(zip(rules.COUNTERS, counts, strict=True))


def tree_search(
    state: State,
    rng: random.Random,
    budget: int,
    playout_turns: int,
    exploration: float,
    cooperative: bool,
) -> dict[Any, int]:
    """`pnp.mcts.MctsBot.search` from `state` (between turns, or at a seat's decision with
    nothing touched) on the kernel: the same visits, and `rng` left where it leaves it."""
    assert _kernel is not None and not (state.rolled and state.touched), "a turn's start"
    ended = 0 if state.ended is None else 1 if state.ended is rules.Termination.HOME else 2
    position = (
        kernel_model(state.model),
        [[(b.x, b.y, b.units, b.r, b.ax, b.ay) for b in seat] for seat in state.blobs],
        state.seat,
        state.turns,
        state.rolled,
        state.budget,
        state.max_turns,
        ended,
        -1 if state.winner is None else state.winner,
        callable(getattr(state, "standing", None)),  # as `pnp.mcts.MctsBot.reward` asks
    )
    # the root's children: a decision's actions by index, else the rolls (blobs showing)
    legal: list[Any] = state.legal_actions() if state.rolled and state.ended is None else []
    if not state.rolled:
        legal = list(range(len(state.model.dice) + 1))

    def run(words: tuple[int, ...]) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
        assert _kernel is not None
        children, after = _kernel.tree_search(
            *position, words, budget, playout_turns, exploration, cooperative
        )
        return children, after

    return mcts.compiled_visits(rng, legal, run)
