"""Test helpers for the compiled implementations a game attaches through `pnp.play.fastpath`,
through its public seam API (`attached`, `replaced`)."""

from __future__ import annotations

import dataclasses
import random
from contextlib import AbstractContextManager
from typing import Any

import pytest

from pnp.play import fastpath


def kernel_of(kind: type) -> fastpath.Implementation:
    """The implementation attached to `kind` (the game's kernel)."""
    found = fastpath.attached(kind)
    assert found is not None, f"nothing attached to {kind.__name__}"
    return found


def without_compiler(kind: type) -> AbstractContextManager[None]:
    """Within the block, as installed without a C compiler: `kind`'s kernel is attached
    but not built."""
    return fastpath.replaced(kind, dataclasses.replace(kernel_of(kind), built=False))


def with_hook(kind: type, **hooks: Any) -> AbstractContextManager[None]:
    """Within the block, `kind`'s kernel with some hooks replaced (None takes one away)."""
    return fastpath.replaced(kind, dataclasses.replace(kernel_of(kind), **hooks))


def assert_no_batch_on_the_readable_rules(engine: Any, model: Any, players: int) -> None:
    """On the readable rules `engine.play_many` declines (the runner then plays game by game)
    and `play_one` plays the games the kernel's batch played; an unknown bot is still refused."""
    seeds = [f"9:{i}" for i in range(3)]
    batch = engine.play_many(model, players, "greedy", seeds)
    with fastpath.using(fastpath.READABLE):
        assert engine.play_many(model, players, "greedy", seeds) is None
        assert batch == [engine.play_one(model, players, "greedy", random.Random(s)) for s in seeds]
    with pytest.raises(ValueError, match="unknown bot 'mcts'"):
        engine.play_many(model, players, "mcts", seeds)
