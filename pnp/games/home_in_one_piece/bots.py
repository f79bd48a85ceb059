"""Home in One Piece bots: they play a turn by calling the rules' `shift` and `join`.

`random` is the baseline: half the time a roll of two or more lets it join, it joins a
uniformly chosen group of blobs that can meet, near a uniformly random point of the board;
otherwise it touches as many random blobs as it may and sends each to a uniform point
within its reach. `greedy` heads for its rally point (where its whole dough fits at home,
apart from the other player's): it joins whenever it can, the biggest group that can
meet, as near the rally as they reach, first moving any blob the roll leaves spare; else it
moves the blobs furthest from the rally, each to the nearest clear point towards it. When
none can get nearer and the furthest has no blob near enough to join, it sidesteps that
blob to a random clear spot (the one use of chance), so head-on blocks do not last.
"""

from __future__ import annotations

import itertools
import math
import random

from pnp.games.home_in_one_piece.model import clamp, clear
from pnp.games.home_in_one_piece.rules import (
    Blob,
    State,
    discs_except,
    join,
    join_spot,
    joined_radius,
    reach,
    shift,
)
from pnp.outcome import bot_maker

BOT_NAMES = ("random", "greedy")

TURNS = (0, 30, -30, 60, -60, 90, -90)  # degrees off the straight line a greedy step tries
FAN = tuple((math.cos(math.radians(t)), math.sin(math.radians(t))) for t in TURNS)
STRIDES = (1.0, 0.5)  # shares of the reach a greedy step tries
SIDESTEP_TRIES = 8
RING = tuple((math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)) for k in range(8))


def centroid(group: list[Blob]) -> tuple[float, float]:
    """The group's centre of dough, from where each blob began the turn."""
    units = sum(b.units for b in group)
    return (
        sum(b.ax * b.units for b in group) / units,
        sum(b.ay * b.units for b in group) / units,
    )


def may_meet(state: State, group: tuple[Blob, ...]) -> bool:
    """A quick necessary test: every pair's turn-start discs within joint reach."""
    share, big2 = state.model.reach, 2 * joined_radius(state, group)
    for a, b in itertools.combinations(group, 2):
        limit = share * (a.r + b.r + big2)
        dx, dy = a.ax - b.ax, a.ay - b.ay
        if dx * dx + dy * dy > limit * limit:
            return False
    return True


def clear_spot(
    state: State, group: tuple[Blob, ...], target: tuple[float, float], of_all: bool
) -> tuple[float, float] | None:
    """The group's join spot near `target` if it keeps clear of the player's other blobs
    (and of the other player's too when `of_all`), else None."""
    spot = join_spot(state, group, *target)
    if spot is None:
        return None
    around = (
        discs_except(state, group) if of_all else [b.disc() for b in state.own if b not in group]
    )
    return spot if clear(spot[0], spot[1], joined_radius(state, group), around) else None


def groups(state: State, size: int) -> list[tuple[Blob, ...]]:
    """Groups of `size` own blobs that may meet, in a fixed order. For bigger groups,
    pairs too far apart to meet even as the whole dough are dropped first (cheap)."""
    own = state.own
    share, radii = state.model.reach, state.model.radii
    if size == 2:
        out = []
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
        and may_meet(state, tuple(own[i] for i in g))
    ]


class RandomBot:
    name = "random"

    def take_turn(self, state: State, rng: random.Random) -> None:
        own, k = state.own, state.budget
        if k >= 2 and len(own) >= 2 and rng.random() < 0.5:
            options = [
                g
                for size in range(2, min(k, len(own)) + 1)
                for g in groups(state, size)
                if clear_spot(state, g, centroid(list(g)), of_all=False)
            ]
            if options:
                group = options[rng.randrange(len(options))]
                target = (rng.uniform(0, state.model.width), rng.uniform(0, state.model.height))
                if clear_spot(state, group, target, of_all=False) is None:
                    target = centroid(list(group))
                join(state, group, *target)
                return
        for blob in rng.sample(own, min(k, len(own))):
            if state.turn_over:
                return
            rho = reach(state.model, blob.r, blob.r) * math.sqrt(rng.random())
            angle = rng.uniform(0, 2 * math.pi)
            shift(state, blob, blob.ax + rho * math.cos(angle), blob.ay + rho * math.sin(angle))


class GreedyBot:
    name = "greedy"

    def take_turn(self, state: State, rng: random.Random) -> None:
        rally = state.model.rally[state.seat]
        k = state.budget
        plan = self.best_join(state, k, rally) if k >= 2 and len(state.own) >= 2 else None
        spare = k - len(plan[0]) if plan else k
        movers = [b for b in self.laggards(state, rally) if not plan or b not in plan[0]]
        for blob in movers[:spare]:
            self.step(state, blob, rally)
        if not plan and not state.touched and movers and self.alone(state, movers[0]):
            self.sidestep(state, movers[0], rng)
        if plan:
            spot = self.spot(state, plan[0], rally)  # the moves may have changed it
            if spot is not None:
                join(state, plan[0], *spot)

    @staticmethod
    def alone(state: State, blob: Blob) -> bool:
        """No other own blob is near enough to join it: waiting will not help."""
        return not any(may_meet(state, (blob, b)) for b in state.own if b is not blob)

    @staticmethod
    def sidestep(state: State, blob: Blob, rng: random.Random) -> None:
        """A random clear spot within reach: blobs that block each other head-on (neither
        can get nearer its rally) would otherwise wait forever."""
        rho = reach(state.model, blob.r, blob.r)
        others = discs_except(state, [blob])
        for _ in range(SIDESTEP_TRIES):
            d, a = rho * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
            x, y = clamp(state.model, blob.ax + d * math.cos(a), blob.ay + d * math.sin(a), blob.r)
            if clear(x, y, blob.r, others):
                shift(state, blob, x, y)
                return

    @staticmethod
    def laggards(state: State, rally: tuple[float, float]) -> list[Blob]:
        """Own blobs, furthest from the rally first (stable order for ties)."""
        return sorted(state.own, key=lambda b: -math.hypot(b.x - rally[0], b.y - rally[1]))

    @staticmethod
    def spot(
        state: State, group: tuple[Blob, ...], rally: tuple[float, float]
    ) -> tuple[float, float] | None:
        """Where the group can join clear of all dough: as near the rally as it reaches,
        else near its centre, else near a ring of points around the centre (dough in the
        way is walked around), the one of those nearest the rally."""
        if join_spot(state, group, *rally) is None:
            return None  # the blobs cannot meet anywhere, whatever the target
        spot = clear_spot(state, group, rally, of_all=True)
        if spot is not None:
            return spot
        cx, cy = centroid(list(group))
        away = 2 * joined_radius(state, group)
        targets = [(cx, cy)] + [(cx + away * c, cy + away * s) for c, s in RING]
        spots = [clear_spot(state, group, t, of_all=True) for t in targets]
        found = [p for p in spots if p is not None]
        if not found:
            return None
        return min(found, key=lambda p: (p[0] - rally[0]) ** 2 + (p[1] - rally[1]) ** 2)

    def best_join(
        self, state: State, k: int, rally: tuple[float, float]
    ) -> tuple[tuple[Blob, ...], tuple[float, float]] | None:
        """The biggest group that can join now, the one landing nearest the rally."""
        for size in range(min(k, len(state.own)), 1, -1):
            best = None
            for group in groups(state, size):
                spot = self.spot(state, group, rally)
                if spot is None:
                    continue
                d = math.hypot(spot[0] - rally[0], spot[1] - rally[1])
                if best is None or d < best[0]:
                    best = (d, group, spot)
            if best is not None:
                return best[1], best[2]
        return None

    @staticmethod
    def step(state: State, blob: Blob, rally: tuple[float, float]) -> None:
        """Move `blob` to the clear point nearest the rally among a fan of tries; stay put
        when none is nearer than where it is."""
        model = state.model
        rx, ry = rally
        now = math.hypot(blob.x - rx, blob.y - ry)
        to_go = math.hypot(rx - blob.ax, ry - blob.ay)
        if to_go == 0:
            return
        stride = min(reach(model, blob.r, blob.r), to_go)
        ux, uy = (rx - blob.ax) / to_go, (ry - blob.ay) / to_go
        others = discs_except(state, [blob])
        tries = []
        for c, s in FAN:
            for share in STRIDES:
                d = share * stride
                x, y = clamp(
                    model, blob.ax + d * (c * ux - s * uy), blob.ay + d * (s * ux + c * uy), blob.r
                )
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


make_bot = bot_maker({"random": RandomBot, "greedy": GreedyBot})
