"""Home in One Piece on the compiled kernel (`_kernel.c`): whole games, handed back as the
readable rules' final `State`.

Everything crosses `pnp/play/_seam.h` as named fields: the kernel takes the play model once
(`kernel_model`, from `model_fields`), then plays a game drawing from the caller's
`random.Random` state (its Mersenne Twister words handed over and taken back), so the game
and the generator end as the readable rules leave them, or a batch of games from seed texts
(`play_seeded`), each on what `random.Random(text)` draws. What the kernel returns (turns,
the end, the leaders, the counters, every blob) becomes a `State`, whose own `record()`
makes the game's record: one place for scores and records.

`playout` is the tree search's rollout (`pnp.play.mcts.playout`): the greedy player
(`State.rollout_action`) from a given position, a turn under way included, on a generator
the kernel seeds from one draw of the search's. `tree_search` is the whole search (`pnp/play/_uct.h`
over the kernel's positions, `_tree.h`). Both attach to the readable `State` through
`pnp.play.fastpath`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
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


def model_fields(play_model: model.PlayModel) -> dict[str, Any]:
    """A play model and the rules', the listed steps' and the outlook's constants as the
    kernel names them (`_kernel.c`'s ``MODEL``): points as x, y pairs one after the
    other, the dice as their faces die after die and each die's number of sides."""
    m = play_model
    return {
        "width": m.width,
        "height": m.height,
        "home": m.home,
        "reach": m.reach,
        "bridge": m.bridge,
        "radii": m.radii,
        "rally": _flat(m.rally),
        "starts": [v for seat in m.starts for v in _flat(seat)],
        "faces": [face for die in m.dice for face in die],
        "sides": [len(die) for die in m.dice],
        "fan": _flat(touches.FAN),
        "strides": touches.STRIDES,
        "ring": _flat(touches.RING),
        "apart": model.APART,
        "apart_slack": model.APART_SLACK,
        "eps": model.EPS,
        "two_pi": 2 * math.pi,
        "weights": outlook.WEIGHTS,
        "tempo": outlook.TEMPO,
        "most_pairs": outlook.MOST_PAIRS,
    }


def _flat(points: Sequence[Sequence[float]]) -> list[float]:
    """Points as the kernel takes them: x, y, x, y, ..."""
    return [v for point in points for v in point]


def _build(play_model: model.PlayModel) -> _kernel.Model:
    """The kernel's copy of the model and of the rules' constants."""
    assert _kernel is not None
    return _kernel.model(model_fields(play_model))


kernel_model: PerModel[model.PlayModel, _kernel.Model] = PerModel(_build)

ENDED = (None, rules.Termination.HOME, rules.Termination.TIMEOUT)
"""How a game ended, by the kernel's code."""


def settings(greedy: bool, max_turns: int) -> dict[str, Any]:
    """A whole game's settings as the kernel names them (`_kernel.c`'s ``SETTINGS``)."""
    return {"greedy": greedy, "max_turns": max_turns}


def _blobs(after: dict[str, Any]) -> list[list[Blob]]:
    """Each seat's blobs from what the kernel hands back (seat 0's first)."""
    attributes = (after[name] for name in ("x", "y", "units", "r", "ax", "ay"))  # Blob's order
    found = [Blob(*b) for b in zip(*attributes, strict=True)]
    first = after["blobs"][0]
    return [found[:first], found[first:]]


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
    after, words = _kernel.play(kernel_model(play_model), settings(greedy, max_turns), words)
    rng.setstate((version, words, gauss))
    return _final(play_model, after, max_turns)


def play_seeded(
    play_model: model.PlayModel,
    greedy: bool,
    seeds: Sequence[str],
    max_turns: int = rules.MAX_TURNS,
) -> list[State]:
    """`play` on `random.Random(text)` for each seed text, all in one call: the kernel
    seeds its generator from each text itself."""
    assert _kernel is not None
    games = _kernel.play_seeded(kernel_model(play_model), settings(greedy, max_turns), seeds)
    return [_final(play_model, after, max_turns) for after in games]


def _final(play_model: model.PlayModel, after: dict[str, Any], max_turns: int) -> State:
    """A whole game's record from the kernel (`_kernel.c`'s ``AFTER``, by name) as the
    readable rules' final `State`."""
    return State(
        model=play_model,
        blobs=_blobs(after),
        seat=after["seat"],
        turns=after["turns"],
        ended=ENDED[after["ended"]],
        winner=None if after["winner"] < 0 else after["winner"],
        max_turns=max_turns,
        leaders=list(after["leaders"]),
        counters={c: after[c] for c in rules.COUNTERS},
    )


def hypot(play_model: model.PlayModel, x: float, y: float) -> float:
    """`math.hypot` as the kernel computes it (for the tests)."""
    assert _kernel is not None
    return _kernel.hypot(kernel_model(play_model), {"x": x, "y": y})


def _touched(position: State) -> list[int]:
    """The places of the own blobs the turn under way has touched."""
    return [position.own.index(b) for b in position.touched] if position.rolled else []


def position(state: State) -> dict[str, Any]:
    """`state` as the kernel names a position (`_kernel.c`'s ``POSITION``): every blob
    (seat 0's, then seat 1's), the seat, the turn, the roll under way and what it has
    touched, the turn limit, the end, the winner, what a search's cut-off is scored on
    (as `pnp.play.mcts.MctsBot.reward` asks) and the counters."""
    flat = [b for seat in state.blobs for b in seat]
    scoring = (
        2
        if callable(getattr(state, "win_chances", None))
        else 1
        if callable(getattr(state, "standing", None))
        else 0
    )
    return {
        "x": [b.x for b in flat],
        "y": [b.y for b in flat],
        "units": [b.units for b in flat],
        "r": [b.r for b in flat],
        "ax": [b.ax for b in flat],
        "ay": [b.ay for b in flat],
        "blobs": [len(seat) for seat in state.blobs],
        "seat": state.seat,
        "turns": state.turns,
        "rolled": state.rolled,
        "budget": state.budget,
        "touched": _touched(state),
        "max_turns": state.max_turns,
        "ended": ENDED.index(state.ended),
        "winner": -1 if state.winner is None else state.winner,
        "scoring": scoring,
        **{c: state.counters[c] for c in rules.COUNTERS},
    }


def playout(state: State, rng: random.Random, stop: int) -> bool:
    """The search's rollout policy (the greedy player, `State.rollout_action`) from
    `state` (between turns, or at a seat's decision, a turn under way included) until
    the game ends or `stop` turns are played, in place: its law and the very draws
    `random.Random(n)` gives the readable rules, n being the one draw taken from `rng`."""
    assert _kernel is not None
    if state.ended is not None or state.turns >= stop:
        return True
    after = _kernel.playout(kernel_model(state.model), position(state), stop, rng.getrandbits(64))
    state.blobs = _blobs(after)
    state.seat, state.turns = after["seat"], after["turns"]
    state.rolled, state.touched, state.moves = False, [], []
    state.ended = ENDED[after["ended"]]
    state.winner = None if after["winner"] < 0 else after["winner"]
    state.leaders += after["leaders"]
    state.counters = {c: after[c] for c in rules.COUNTERS}
    return True


def tree_search(
    state: State,
    rng: random.Random,
    settings: fastpath.SearchSettings,
) -> dict[Any, int]:
    """`pnp.play.mcts.MctsBot.search` from `state` (between turns, or at a seat's
    decision, a turn under way included) on the kernel: the same visits, and `rng` left
    where it leaves it."""
    assert _kernel is not None
    on, packed = kernel_model(state.model), position(state)
    search = settings.fields()
    # the root's children: a decision's actions by index, else the rolls (blobs showing)
    live = state.rolled and state.ended is None
    legal: list[Any] = state.legal_actions() if live else []
    if not state.rolled:
        legal = list(range(len(state.model.dice) + 1))
    run_on = _kernel
    return fastpath.compiled_visits(
        rng, legal, lambda words: run_on.tree_search(on, packed, search, words)
    )


KERNEL = fastpath.attach(
    State,
    fastpath.Implementation(
        "kernel", _kernel is not None, playout=playout, tree_search=tree_search
    ),
)
