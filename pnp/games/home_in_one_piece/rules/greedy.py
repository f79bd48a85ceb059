"""Home in One Piece's greedy planner: the rest of a seat's turn, played on a position.

It heads for its rally point (where its whole dough fits at home, apart from the other
player's): it joins whenever it can, the biggest group of untouched blobs that can meet,
as near the rally as they reach, first moving any blob the roll leaves spare; else it
moves the blobs furthest from the rally, each to the nearest clear point of its fan of
steps towards it. When none can get nearer and the furthest has no blob near enough to
join, it sidesteps that blob to a random clear point of its ring of steps (the one use of
chance), so head-on blocks do not last. Every touch it makes is one the state lists
(`touches.py`). The greedy bot (`bots.py`) and the search's rollouts (`State.rollout_action`)
play it.
"""

from __future__ import annotations

import math
import random

from pnp.games.home_in_one_piece.rules import (
    Position,
    clear_spot,
    discs_except,
    fresh,
    join,
    join_spot,
    joined_radius,
    shift,
    touches_left,
)
from pnp.games.home_in_one_piece.rules.blobs import Blob, centroid, groups, may_meet
from pnp.games.home_in_one_piece.rules.model import clear
from pnp.games.home_in_one_piece.rules.touches import RING, fan_spots, ring_spots

Point = tuple[float, float]


def take_turn(state: Position, rng: random.Random) -> None:
    """Play the rest of the turn on `state`, with the blobs not touched yet."""
    rally = state.model.rally[state.seat]
    k = touches_left(state)
    plan = best_join(state, k, rally) if k >= 2 and len(fresh(state)) >= 2 else None
    spare = k - len(plan[0]) if plan else k
    movers = [b for b in laggards(state, rally) if not plan or b not in plan[0]]
    for blob in movers[:spare]:
        step(state, blob, rally)
    if not plan and not state.touched and movers and alone(state, movers[0]):
        sidestep(state, movers[0], rng)
    if plan:
        spot = join_spot_near(state, plan[0], rally)  # the moves may have changed it
        if spot is not None:
            join(state, plan[0], *spot)


def alone(state: Position, blob: Blob) -> bool:
    """No other own blob is near enough to join it: waiting will not help."""
    return not any(may_meet(state.model, (blob, b)) for b in state.own if b is not blob)


def sidestep(state: Position, blob: Blob, rng: random.Random) -> None:
    """A random clear point of the blob's ring of steps: blobs that block each other
    head-on (neither can get nearer its rally) would otherwise wait forever."""
    others = discs_except(state, [blob])
    spots = [p for p in ring_spots(state, blob) if clear(p[0], p[1], blob.r, others)]
    if spots:
        shift(state, blob, *spots[rng.randrange(len(spots))])


def laggards(state: Position, rally: Point) -> list[Blob]:
    """Untouched own blobs, furthest from the rally first (stable order for ties)."""
    return sorted(fresh(state), key=lambda b: -math.hypot(b.x - rally[0], b.y - rally[1]))


def join_spot_near(state: Position, group: tuple[Blob, ...], rally: Point) -> Point | None:
    """Where the group can join clear of all dough: as near the rally as it reaches,
    else near its centre, else near a ring of points around the centre (dough in the
    way is walked around), the one of those nearest the rally."""
    if join_spot(state, group, *rally) is None:
        return None  # the blobs cannot meet anywhere, whatever the target
    spot = clear_spot(state, group, rally, of_all=True)
    if spot is not None:
        return spot
    cx, cy = centroid(group)
    away = 2 * joined_radius(state, group)
    targets = [(cx, cy)] + [(cx + away * c, cy + away * s) for c, s in RING]
    spots = [clear_spot(state, group, t, of_all=True) for t in targets]
    found = [p for p in spots if p is not None]
    if not found:
        return None
    return min(found, key=lambda p: (p[0] - rally[0]) ** 2 + (p[1] - rally[1]) ** 2)


def best_join(state: Position, k: int, rally: Point) -> tuple[tuple[Blob, ...], Point] | None:
    """The biggest group of untouched blobs that can join now, landing nearest the rally."""
    own = fresh(state)
    for size in range(min(k, len(own)), 1, -1):
        best = None
        for group in groups(state.model, own, size):
            spot = join_spot_near(state, group, rally)
            if spot is None:
                continue
            d = math.hypot(spot[0] - rally[0], spot[1] - rally[1])
            if best is None or d < best[0]:
                best = (d, group, spot)
        if best is not None:
            return best[1], best[2]
    return None


def step(state: Position, blob: Blob, rally: Point) -> None:
    """Move `blob` to the clear point nearest the rally among its fan of steps; stay put
    when none is nearer than where it is."""
    rx, ry = rally
    now = math.hypot(blob.x - rx, blob.y - ry)
    others = discs_except(state, [blob])
    tries: list[tuple[float, float, float]] = []
    for x, y in fan_spots(state, blob, rally):
        dist = math.hypot(x - rx, y - ry)
        if not tries and dist < now - 1e-9 and clear(x, y, blob.r, others):
            shift(state, blob, x, y)  # straight on, full stride: nearest of all
            return
        tries.append((dist, x, y))
    tries.sort(key=lambda t: t[0])
    for dist, x, y in tries:
        if dist >= now - 1e-9:
            return
        if clear(x, y, blob.r, others):
            shift(state, blob, x, y)
            return
