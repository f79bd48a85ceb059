"""What a game derives from its play model (tables, a compiled board), built once per model.

A simulation asks for the same model's tables before every game, and a play model is a
frozen dataclass of nested tuples whose hash is worked out anew on every lookup; so the
last model asked for is recognised by identity first. A sweep over kits keeps at most
`most` models.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

M = TypeVar("M", bound=Hashable)
T = TypeVar("T")


class PerModel(Generic[M, T]):
    """`build(model)`, remembered per model: call it with the model."""

    def __init__(self, build: Callable[[M], T], most: int = 16) -> None:
        self.build = build
        self.most = most
        self._cache: dict[M, T] = {}
        self._last: tuple[M, T] | None = None

    def __call__(self, model: M) -> T:
        last = self._last
        if last is not None and last[0] is model:
            return last[1]
        if model in self._cache:
            value = self._cache[model]
        else:
            if len(self._cache) >= self.most:  # a sweep over kits: keep the memory bounded
                self._cache.clear()
            value = self._cache[model] = self.build(model)
        self._last = (model, value)
        return value
