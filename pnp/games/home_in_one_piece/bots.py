"""Home in One Piece bots: the generic random player, and the greedy planner.

`random` is `pnp.forward.RandomBot`: the state's `random_action` draws its whole turn (see
`state.py`). `greedy` heads for its rally point (where its whole dough fits at home,
apart from the other player's): it joins whenever it can, the biggest group that can
meet, as near the rally as they reach, first moving any blob the roll leaves spare; else it
moves the blobs furthest from the rally, each to the nearest clear point towards it. When
none can get nearer and the furthest has no blob near enough to join, it sidesteps that
blob to a random clear spot (the one use of chance), so head-on blocks do not last.

The greedy player is its own `pnp.state.Bot`, not `pnp.forward.GreedyBot(evaluate)`: its
turn is a plan of several touches to points it computes (and a sidestep to a randomly
drawn point), not a pick among the listed sample of turns. It plays its turn on a copy of
the state and hands back the touches it made as one `Turn`.
"""

from __future__ import annotations

import math
import random
from typing import Any

from pnp.forward import RandomBot
from pnp.games.home_in_one_piece.blobs import Blob, centroid, groups, may_meet, reach
from pnp.games.home_in_one_piece.model import PlayModel, clamp, clear
from pnp.games.home_in_one_piece.rules import (
    Position,
    clear_spot,
    discs_except,
    join,
    join_spot,
    joined_radius,
    shift,
)
from pnp.games.home_in_one_piece.state import Action, State
from pnp.state import Bot
from pnp.state import State as GameState

BOT_NAMES = ("random", "greedy")

TURNS = (0, 30, -30, 60, -60, 90, -90)  # degrees off the straight line a greedy step tries
FAN = tuple((math.cos(math.radians(t)), math.sin(math.radians(t))) for t in TURNS)
STRIDES = (1.0, 0.5)  # shares of the reach a greedy step tries
SIDESTEP_TRIES = 8
RING = tuple((math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)) for k in range(8))


class GreedyBot:
    name = "greedy"

    def choose(self, state: GameState[Any], rng: random.Random) -> Action:
        """The turn `take_turn` plays, played on a copy and handed back as one action."""
        assert isinstance(state, State), "the greedy bot plays Home in One Piece only"
        scratch = state.turn_copy()
        self.take_turn(scratch, rng)
        return state.played_on_copy(scratch)

    def take_turn(self, state: Position, rng: random.Random) -> None:
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
    def alone(state: Position, blob: Blob) -> bool:
        """No other own blob is near enough to join it: waiting will not help."""
        return not any(may_meet(state.model, (blob, b)) for b in state.own if b is not blob)

    @staticmethod
    def sidestep(state: Position, blob: Blob, rng: random.Random) -> None:
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
    def laggards(state: Position, rally: tuple[float, float]) -> list[Blob]:
        """Own blobs, furthest from the rally first (stable order for ties)."""
        return sorted(state.own, key=lambda b: -math.hypot(b.x - rally[0], b.y - rally[1]))

    @staticmethod
    def spot(
        state: Position, group: tuple[Blob, ...], rally: tuple[float, float]
    ) -> tuple[float, float] | None:
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

    def best_join(
        self, state: Position, k: int, rally: tuple[float, float]
    ) -> tuple[tuple[Blob, ...], tuple[float, float]] | None:
        """The biggest group that can join now, the one landing nearest the rally."""
        for size in range(min(k, len(state.own)), 1, -1):
            best = None
            for group in groups(state.model, state.own, size):
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
    def step(state: Position, blob: Blob, rally: tuple[float, float]) -> None:
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
        tries: list[tuple[float, float, float]] = []
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


def make_bot(name: str, model: PlayModel | None = None) -> Bot[Any]:
    """A new bot of that name (the model is not needed: both bots read it off the state)."""
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot()
    raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(BOT_NAMES)}")
