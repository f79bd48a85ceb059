"""How the benchmarks time work: wall-clock and CPU seconds side by side, and a count per
second of each, measured and printed one way in every bench.

CPU seconds count this process and its finished children (a pool's workers, a command
run as a subprocess), so a rate per CPU second says what the work cost on a loaded
machine, where the wall clock says how long someone waited.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass


def cpu_seconds(children: bool = True) -> float:
    """CPU seconds (user and system) of this process, with its finished children's."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    cpu = me.ru_utime + me.ru_stime
    if children:
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu += kids.ru_utime + kids.ru_stime
    return cpu


@dataclass
class Span:
    """Wall-clock and CPU seconds of a block (`timed`), filled in when it ends."""

    wall: float = 0.0
    cpu: float = 0.0

    def rate(self, count: float) -> Rate:
        """`count` per wall-clock second and per CPU second of this span."""
        return Rate(count / max(self.wall, 1e-9), count / max(self.cpu, 1e-9))


@contextmanager
def timed(children: bool = True) -> Iterator[Span]:
    """``with timed() as span:``: the block's wall-clock and CPU seconds."""
    span = Span()
    wall, cpu = time.perf_counter(), cpu_seconds(children)
    try:
        yield span
    finally:
        span.wall, span.cpu = time.perf_counter() - wall, cpu_seconds(children) - cpu


@dataclass(frozen=True)
class Rate:
    """A count per wall-clock second and per CPU second."""

    wall: float
    cpu: float

    def text(self, unit: str = "games") -> str:
        """'1,234 games/s (2,345 per CPU second)'."""
        return f"{self.wall:,.0f} {unit}/s ({self.cpu:,.0f} per CPU second)"


def rate_of(work: Callable[[], int], children: bool = True) -> Rate:
    """Run `work` (it returns how many it did) and give its rate."""
    with timed(children) as span:
        count = work()
    return span.rate(count)
