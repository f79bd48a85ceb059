"""A job's tallies, merged in chunk order whatever order the chunks come back in.

`Accumulator.merge` adds whole numbers, so the totals never depend on the order; but its
Counters keep the order in which keys were first seen, and a summary that walks one (end
reasons, colours, counters) would write its keys in that order. Merging chunk 0, then 1,
then 2... gives the order of a single process playing the games one after the other, so
the JSON of a seed is byte-identical for any backend, number of workers and chunk size.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from pnp.sim.metrics import Accumulator

Chunk = tuple[int, int]  # games start..stop-1 of one job
Task = tuple[int, int, int, int]  # job, chunk number, start, stop


def chunks(games: int, size: int) -> Iterator[Chunk]:
    return ((a, min(games, a + size)) for a in range(0, games, size))


def grid_tasks(games: Sequence[int], sizes: Sequence[int]) -> list[Task]:
    """Every chunk of every job, in job order: job i's games cut in chunks of sizes[i]."""
    return [
        (i, k, a, b)
        for i, (n, size) in enumerate(zip(games, sizes, strict=True))
        for k, (a, b) in enumerate(chunks(n, size))
    ]


class JobTally:
    """The chunks of one job as they arrive: merged as soon as every earlier one is in
    (so memory stays flat), the rest held until then."""

    def __init__(self, players: int, games: int) -> None:
        self.total = Accumulator(players)
        self.wanted = games
        self.games = 0
        self._waiting: dict[int, Accumulator] = {}
        self._next = 0

    def add(self, index: int, acc: Accumulator) -> None:
        """Chunk number `index` (counted from 0 in game order) came back with `acc`."""
        self.games += acc.games
        self._waiting[index] = acc
        while self._next in self._waiting:
            self.total.merge(self._waiting.pop(self._next))
            self._next += 1

    @property
    def complete(self) -> bool:
        return self.games == self.wanted

    def finish(self) -> Accumulator:
        """All the tallies received, in chunk order (gaps, after a stop, skipped)."""
        for index in sorted(self._waiting):
            self.total.merge(self._waiting.pop(index))
        return self.total
