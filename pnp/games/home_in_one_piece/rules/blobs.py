"""Blobs as discs, and which groups of a player's blobs could meet in one turn.

A blob's reach is measured from where it began the turn (its anchor), so whether a group
may join depends only on the anchors and the dough: these tests need no board.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from pnp.games.home_in_one_piece.rules.model import Disc, PlayModel


@dataclass(eq=False, slots=True)
class Blob:
    """One blob: a disc of `units` start blobs' dough. `ax, ay`: where its turn began."""

    x: float
    y: float
    units: int
    r: float
    ax: float
    ay: float

    def disc(self) -> Disc:
        return self.x, self.y, self.r


def reach(model: PlayModel, r_from: float, r_to: float) -> float:
    """How far a blob's centre may end from where it began the turn."""
    return model.reach * (r_from + r_to)


def centroid(group: Sequence[Blob]) -> tuple[float, float]:
    """The group's centre of dough, from where each blob began the turn."""
    units = sum(b.units for b in group)
    return (
        sum(b.ax * b.units for b in group) / units,
        sum(b.ay * b.units for b in group) / units,
    )


def may_meet(model: PlayModel, group: Sequence[Blob]) -> bool:
    """A quick necessary test: every pair's turn-start discs within joint reach."""
    share, big2 = model.reach, 2 * model.radii[sum(b.units for b in group)]
    for a, b in itertools.combinations(group, 2):
        limit = share * (a.r + b.r + big2)
        dx, dy = a.ax - b.ax, a.ay - b.ay
        if dx * dx + dy * dy > limit * limit:
            return False
    return True


def groups(model: PlayModel, own: Sequence[Blob], size: int) -> list[tuple[Blob, ...]]:
    """Groups of `size` of the blobs `own` that may meet, in a fixed order. For bigger
    groups, pairs too far apart to meet even as the whole dough are dropped first (cheap)."""
    share, radii = model.reach, model.radii
    if size == 2:
        out: list[tuple[Blob, ...]] = []
        for a, b in itertools.combinations(own, 2):
            limit = share * (a.r + b.r + 2 * radii[a.units + b.units])
            dx, dy = a.ax - b.ax, a.ay - b.ay
            if dx * dx + dy * dy <= limit * limit:
                out.append((a, b))
        return out
    most = 2 * radii[-1]
    near = [
        [(a.ax - b.ax) ** 2 + (a.ay - b.ay) ** 2 <= (share * (a.r + b.r + most)) ** 2 for b in own]
        for a in own
    ]
    return [
        tuple(own[i] for i in g)
        for g in itertools.combinations(range(len(own)), size)
        if all(near[i][j] for i, j in itertools.combinations(g, 2))
        and may_meet(model, tuple(own[i] for i in g))
    ]
