"""The engines' random draws: every choice a rules engine leaves to chance goes through here.

Spelled out from `getrandbits`, not `Random.randrange` or `choice`, so that a fast engine
can inline the very same draws, and a compiled kernel can make them in C from the
generator's state (`pnp/play/_twister.h`), and stay in step with the readable rules whatever
the Python version does inside its own helpers. A seed then fixes a game in every engine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def below(rng: random.Random, n: int) -> int:
    """A uniform int in [0, n): `getrandbits((n - 1).bit_length())` until it is below n.
    n <= 1 gives 0 and spends no randomness."""
    if n <= 1:
        return 0
    k = (n - 1).bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def pick(rng: random.Random, options: Sequence[T]) -> T:
    """A uniform choice that spends no randomness when there is nothing to choose."""
    return options[0] if len(options) == 1 else options[below(rng, len(options))]
