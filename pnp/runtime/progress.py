"""A long computation says what it is doing: one stderr line every few seconds, none for a
quick one (a default `pnp check` stays silent)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

EVERY = 3.0  # seconds between two lines, and before the first


class Ticker:
    """`tick(done, total)` from a loop; prints `label: done of total unit…` at most once
    every `every` seconds, the first time only after `every` seconds have passed."""

    def __init__(
        self, label: str, unit: str, every: float | None = None, stream: TextIO | None = None
    ) -> None:
        self.label = label
        self.unit = unit
        self.every = EVERY if every is None else every
        self.stream = stream
        self.next = time.monotonic() + self.every

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now < self.next:
            return
        self.next = now + self.every
        out = self.stream or sys.stderr
        print(f"{self.label}: {done:,} of {total:,} {self.unit}\u2026", file=out, flush=True)
