"""The one seam where a game's compiled code meets its readable rules.

A game's readable `State` is the reference, and its module imports nothing compiled. A
compiled implementation of it attaches here (`attach`), for the state's class and under a
name (a game's C kernel is ``"kernel"``), with the hooks it speeds up. Each hook does what
the readable rules do, draw for draw, so a seed plays the same game whichever one runs:

- ``playout(state, rng, stop) -> bool``: the readable `State.playout` (see `pnp.play.state`),
  in place; False, with `rng` untouched, where it does not take the position or kit.
- ``tree_search(state, rng, settings)``: the root visits of `pnp.play.mcts.MctsBot`'s
  readable search with those `SearchSettings`, `rng` left where that search leaves it;
  None, `rng` untouched, where it does not take the position. A game hands the settings
  on whole (`SearchSettings.fields`), so a new setting of the search changes no game.
- ``resample(state, rng) -> bool``: the readable `State.resample` (a hidden order drawn
  anew); False, `rng` untouched, where it does not take the state.

A game's engine asks `active(State)` before it plays a whole game in its kernel, so one
switch (`using`, or ``PNP_IMPLEMENTATION`` in the environment, which worker processes
inherit) runs a process on the readable rules alone or on a named implementation: the
conformance data is replayed through each (`pnp.reference.conformance`), and a user can compare a
figure with and without the kernels. By default a state's implementation runs where it
was built (``built``: its extension imported; False where pnp was installed without a C
compiler).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from pnp.runtime import notice

READABLE = "readable"
"""The readable rules alone: no compiled hook runs."""
ENVIRONMENT = "PNP_IMPLEMENTATION"
"""The variable that names the implementation to run (``readable``, or ``kernel``)."""

Playout = Callable[[Any, random.Random, int], bool]
TreeSearch = Callable[[Any, random.Random, "SearchSettings"], "dict[Any, int] | None"]
Resample = Callable[[Any, random.Random], bool]


@dataclass(frozen=True)
class Implementation:
    """A compiled (or otherwise fast) implementation of one game's readable `State`."""

    name: str
    built: bool
    playout: Playout | None = None
    tree_search: TreeSearch | None = None
    resample: Resample | None = None


_attached: dict[type, Implementation] = {}
_chosen: list[str | None] = [None]  # `using`'s choice, over the environment's


def attach(kind: type, implementation: Implementation) -> Implementation:
    """Make `implementation` the fast path of the states of class `kind` (and return it,
    for the game's registration to name)."""
    if implementation.name == READABLE:
        raise ValueError(f"{READABLE!r} names the readable rules, not a fast path")
    _attached[kind] = implementation
    return implementation


def chosen() -> str | None:
    """The implementation this process is asked to run (None: each state's own, if built)."""
    return _chosen[0] if _chosen[0] is not None else os.environ.get(ENVIRONMENT) or None


def names(kind: type) -> tuple[str, ...]:
    """The implementations of `kind`'s rules by name, the readable one first."""
    attached = _attached.get(kind)
    return (READABLE,) if attached is None else (READABLE, attached.name)


def active(state: Any) -> Implementation | None:
    """The fast path that runs for `state` (or a state class): its attached implementation
    when it was built and the process runs it; None where the readable rules run."""
    kind = state if isinstance(state, type) else type(state)
    found = _attached.get(kind)
    if found is None or not found.built:
        return None
    want = chosen()
    return found if want is None or want == found.name else None


def attached(kind: type) -> Implementation | None:
    """The implementation attached to `kind`, built or not (None: the readable rules only)."""
    return _attached.get(kind)


@contextmanager
def replaced(kind: type, implementation: Implementation | None) -> Iterator[None]:
    """Within the block, `implementation` is `kind`'s fast path (None: it has none), as a
    test puts an unbuilt kernel or a changed hook in its place; the attached one comes back
    after."""
    previous = _attached.get(kind)
    if implementation is None:
        _attached.pop(kind, None)
    else:
        _attached[kind] = implementation
    try:
        yield
    finally:
        if previous is None:
            _attached.pop(kind, None)
        else:
            _attached[kind] = previous


def runs(kind: type, missing: str = "") -> bool:
    """Does `kind`'s attached implementation run here? Where it was not built, `missing`
    (a warning) is said once per process; a choice of another implementation is not."""
    found = _attached.get(kind)
    if found is not None and not found.built and missing and chosen() != READABLE:
        notice.once(missing)
    return active(kind) is not None


def available(kind: type, name: str) -> bool:
    """Can implementation `name` of `kind`'s rules run here: the readable rules, an
    attached one that was built, or a name this seam does not hold (an engine's own
    Python fast path for whole games, always there)?"""
    found = _attached.get(kind)
    if found is None or found.name != name:
        return True
    return found.built


@contextmanager
def using(name: str | None) -> Iterator[None]:
    """Run implementation `name` (`READABLE`: the readable rules alone) within the block,
    in this process; None restores the default."""
    previous = _chosen[0]
    _chosen[0] = name
    try:
        yield
    finally:
        _chosen[0] = previous


@dataclass(frozen=True)
class SearchSettings:
    """One decision's tree search, as `pnp.play.mcts.MctsBot` runs it: its playouts, how
    many turns a playout plays before it is scored, the exploration constant and whether
    the seats share one score."""

    budget: int
    horizon: int
    exploration: float
    cooperative: bool

    def fields(self) -> dict[str, Any]:
        """The settings as every kernel's ``tree_search`` names them
        (`pnp/play/_seam.h`'s ``SEAM_SEARCH``)."""
        return {
            "budget": self.budget,
            "horizon": self.horizon,
            "exploration": self.exploration,
            "cooperative": self.cooperative,
        }


def compiled_visits(
    rng: random.Random,
    legal: Sequence[Any],
    run: Callable[[tuple[int, ...]], tuple[list[tuple[int, int]], tuple[int, ...]]],
    keys: Sequence[int] | None = None,
) -> dict[Any, int]:
    """A state's `tree_search` glue: `run` takes `rng`'s twister (its 625 numbers), runs a
    kernel's `uct_search` (`pnp/play/_uct.h`) on it and hands back the root's (key, visits)
    pairs and the twister moved on, which `rng` then takes, as if the readable search had
    drawn from it. A key is the action's index in `legal`, or, for a game that names its
    actions by keys (one that hides something), the entry of `keys` beside it."""
    version, words, gauss = rng.getstate()
    children, words = run(words)
    rng.setstate((version, words, gauss))
    action: Mapping[int, Any] | Sequence[Any] = (
        legal if keys is None else dict(zip(keys, legal, strict=True))
    )
    return {action[k]: n for k, n in children}
