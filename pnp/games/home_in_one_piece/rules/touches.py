"""The touches a decision lists: each blob's steps and each group's join spots.

Where a blob may go is a region of the plane, so a decision lists a finite set of touches
drawn from it, one that holds every touch the greedy player makes and at least one of every
kind of turn the rules allow:

- a step of each blob not touched yet this turn: the greedy player's fan (`TURNS` off the
  line from where the blob began the turn to its rally point, at each of `STRIDES` of its
  reach that way, the way past the other player's dough counted) and a ring (`RING`,
  every eighth of a turn, at the same strides), each held to the board, where it lands
  clear of all other dough (`clear`); when none of those is clear, the clear spot of
  its reach nearest the rally (`model.nearest_clear`);
- a join of each group of untouched blobs the roll lets touch that can meet: where the
  greedy player looks (aimed at the rally, at the group's centre, at a ring of points
  around it, each spot clear of all dough), and when the spot aimed at the rally is not
  clear, the spot nearest the rally of the whole clear part of the blobs' common reach
  (`model.nearest_clear`, a search that finds one whenever there is one). A join is
  allowed exactly when that part is not empty (one landing on the other player's dough is
  moved into it, see `rules.landing`), so every group that may join is listed.

A blob already touched is not listed again, nor a join with a touched blob in it: its
reach is still measured from where it began the turn, so a second touch reaches only what
one touch could, and a join leaves where its blobs lay before it out of account.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pnp.games.home_in_one_piece.rules import (
    Join,
    Move,
    Position,
    Shift,
    clear_spot,
    discs_except,
    fresh,
    joined_radius,
    touches_left,
    within_reach,
)
from pnp.games.home_in_one_piece.rules.blobs import Blob, centroid, groups, reach
from pnp.games.home_in_one_piece.rules.model import (
    APART,
    bridged_reach,
    clamp,
    clear,
    nearest_clear,
)

TURNS = (0, 30, -30, 60, -60, 90, -90)  # degrees off the straight line a greedy step tries
FAN = tuple((math.cos(math.radians(t)), math.sin(math.radians(t))) for t in TURNS)
STRIDES = (1.0, 0.5)  # shares of the reach a step tries
RING = tuple((math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)) for k in range(8))

Point = tuple[float, float]


def fan_spots(state: Position, blob: Blob, rally: Point) -> list[Point]:
    """The greedy player's tries for `blob`, in its order: straight at the rally first, a
    full stride (the reach that way, bridges counted, or less when the rally is nearer)
    then half of it, each held to the board; none when the blob began the turn on the
    rally point."""
    model = state.model
    rx, ry = rally
    to_go = math.hypot(rx - blob.ax, ry - blob.ay)
    if to_go == 0:
        return []
    rho = reach(model, blob.r, blob.r)
    others = [b.disc() for b in state.other] if model.bridge > 0 else []
    ux, uy = (rx - blob.ax) / to_go, (ry - blob.ay) / to_go
    out = []
    for c, s in FAN:
        vx, vy = c * ux - s * uy, s * ux + c * uy
        most = bridged_reach(model, blob.ax, blob.ay, blob.r, vx, vy, others) if others else rho
        stride = min(most, to_go)
        for share in STRIDES:
            d = share * stride
            out.append(_on_board(state, blob, blob.ax + d * vx, blob.ay + d * vy))
    return out


def ring_spots(state: Position, blob: Blob) -> list[Point]:
    """Every eighth of a turn around where `blob` began the turn, at each stride of its
    reach that way (bridges counted), held to the board."""
    model = state.model
    rho = reach(model, blob.r, blob.r)
    others = [b.disc() for b in state.other] if model.bridge > 0 else []
    out = []
    for c, s in RING:
        most = bridged_reach(model, blob.ax, blob.ay, blob.r, c, s, others) if others else rho
        for share in STRIDES:
            d = share * most
            out.append(_on_board(state, blob, blob.ax + d * c, blob.ay + d * s))
    return out


def _on_board(state: Position, blob: Blob, x: float, y: float) -> Point:
    """(x, y) held to the board; with bridges, a spot the board moved is then held to the
    reach of its own line (`rules.shift_target` sets a blob down there)."""
    spot = clamp(state.model, x, y, blob.r)
    if state.model.bridge > 0 and spot != (x, y):
        return within_reach(state, blob, *spot)
    return spot


def step_spots(state: Position, blob: Blob) -> list[Point]:
    """The listed steps of `blob`: fan, then ring, those clear of all other dough, each
    once; when none is clear, the clear spot within its reach nearest the rally (there is
    one: the blob's own spot is clear)."""
    others = discs_except(state, [blob])
    rally = state.model.rally[state.seat]
    rho = reach(state.model, blob.r, blob.r)
    spots = fan_spots(state, blob, rally) + ring_spots(state, blob)
    # without bridges every spot lies within the reach of the turn-start spot (held to the
    # board it only comes nearer), so dough further off than the reach and both radii
    # cannot block it (a millimetre to spare: the same answers as testing every disc, sooner)
    near = [
        d
        for d in others
        if state.model.bridge > 0
        or (d[0] - blob.ax) ** 2 + (d[1] - blob.ay) ** 2 < (rho + blob.r + d[2] + APART + 1) ** 2
    ]
    found = list(dict.fromkeys(p for p in spots if clear(p[0], p[1], blob.r, near)))
    if found:
        return found
    spot = nearest_clear(state.model, *rally, blob.r, others, [(blob.ax, blob.ay, rho)])
    return [] if spot is None else [spot]


def join_targets(state: Position, group: Sequence[Blob]) -> list[Point]:
    """Where the greedy player aims a join: the rally, the group's centre (from where its
    blobs began the turn), and a ring of points two joined radii around that centre."""
    cx, cy = centroid(group)
    away = 2 * joined_radius(state, group)
    return [state.model.rally[state.seat], (cx, cy)] + [
        (cx + away * c, cy + away * s) for c, s in RING
    ]


def join_spots(state: Position, group: Sequence[Blob]) -> list[Point]:
    """The listed spots of a join of `group`: the greedy player's, clear of all dough, each
    once; and when the spot aimed at the rally is not clear, the clear spot of the blobs'
    common reach nearest the rally, if there is one."""
    at_rally, *rest = [clear_spot(state, group, t, of_all=True) for t in join_targets(state, group)]
    if at_rally is None:
        big = joined_radius(state, group)
        anchors = [(b.ax, b.ay, reach(state.model, b.r, big)) for b in group]
        rx, ry = state.model.rally[state.seat]
        at_rally = nearest_clear(state.model, rx, ry, big, discs_except(state, group), anchors)
    return list(dict.fromkeys(p for p in [at_rally, *rest] if p is not None))


def options(state: Position) -> list[Move]:
    """Every listed touch at this decision: each untouched blob's steps in blob order,
    then each group's joins, pairs before triples (see the module docstring)."""
    own, left = state.own, touches_left(state)
    if left == 0:
        return []
    untouched = fresh(state)
    place = {id(b): i for i, b in enumerate(own)}
    out: list[Move] = []
    for blob in untouched:
        out += [Shift(place[id(blob)], x, y) for x, y in step_spots(state, blob)]
    for size in range(2, min(left, len(untouched)) + 1):
        for group in groups(state.model, untouched, size):
            named = tuple(place[id(b)] for b in group)
            out += [Join(named, x, y) for x, y in join_spots(state, group)]
    return out
