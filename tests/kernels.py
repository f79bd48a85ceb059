"""Test helpers for the compiled implementations a game attaches through `pnp.fastpath`."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from pnp import fastpath


def kernel_of(kind: type) -> fastpath.Implementation:
    """The implementation attached to `kind` (the game's kernel)."""
    found = fastpath._attached.get(kind)
    assert found is not None, f"nothing attached to {kind.__name__}"
    return found


def without_compiler(monkeypatch: pytest.MonkeyPatch, kind: type) -> None:
    """As installed without a C compiler: `kind`'s kernel is attached but not built."""
    unbuilt = dataclasses.replace(kernel_of(kind), built=False)
    monkeypatch.setitem(fastpath._attached, kind, unbuilt)


def with_hook(monkeypatch: pytest.MonkeyPatch, kind: type, **hooks: Any) -> None:
    """`kind`'s kernel with some hooks replaced (None takes one away)."""
    changed = dataclasses.replace(kernel_of(kind), **hooks)
    monkeypatch.setitem(fastpath._attached, kind, changed)
