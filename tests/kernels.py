"""Test helpers for the compiled implementations a game attaches through `pnp.play.fastpath`,
through its public seam API (`attached`, `replaced`)."""

from __future__ import annotations

import dataclasses
from contextlib import AbstractContextManager
from typing import Any

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
