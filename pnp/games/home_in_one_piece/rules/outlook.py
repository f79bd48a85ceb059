"""How likely each seat is to win from a position: the tree search's cut-off evaluation.

A playout the search cuts off before the end is scored by `win_chances`: the chance that
the seat to move wins, from a logistic model of a few features of each seat's dough (how
many joins are left, how far its dough lies from its rally point on average and at the
most, how many of its blobs are more than one touch from it, how many pairs could join
next turn, how spread out it lies, how much is home already) and a term for the tempo of
moving next. The weights were fitted to the winners of greedy games (`outlook_fit.py`,
whose docstring gives the command, the data and the fit's quality).

The arithmetic is written out term by term, in a fixed order, because the compiled search
(`_tree.h`) computes the very same floats.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pnp.games.home_in_one_piece.rules import Position, at_home
from pnp.games.home_in_one_piece.rules.blobs import Blob, reach
from pnp.games.home_in_one_piece.rules.model import PlayModel

FEATURES = ("joins_left", "mean_far", "most_far", "pairs", "spread", "far_blobs", "home")
WEIGHTS = (-1.468, -1.811, -0.681, 0.417, -1.537, 0.363, 0.336)
"""Log-odds per unit of each feature, the seat to move's minus the other's."""
TEMPO = 0.340
"""Log-odds of moving next, all else level."""
MOST_PAIRS = 3
"""Pairs that could join next turn count up to this many (one join a turn is the limit)."""


def features(model: PlayModel, blobs: Sequence[Blob], seat: int) -> tuple[float, ...]:
    """`FEATURES` of one seat's blobs, distances in decimetres and dough in shares of the
    whole."""
    rx, ry = model.rally[seat]
    total = model.blobs
    mean = most = cx = cy = 0.0
    far = home = 0
    for b in blobs:
        d = math.hypot(b.x - rx, b.y - ry)
        mean += b.units * d
        most = max(most, d)
        far += d > reach(model, b.r, b.r)
        cx += b.units * b.x
        cy += b.units * b.y
        home += b.units if at_home(model, b) else 0
    cx, cy = cx / total, cy / total
    spread = 0.0
    pairs = 0
    for i, a in enumerate(blobs):
        spread += a.units * math.hypot(a.x - cx, a.y - cy)
        for b in blobs[i + 1 :]:
            limit = model.reach * (a.r + b.r + 2 * model.radii[a.units + b.units])
            dx, dy = a.x - b.x, a.y - b.y
            pairs += dx * dx + dy * dy <= limit * limit
    return (
        float(len(blobs) - 1),
        mean / total / 100,
        most / 100,
        float(min(pairs, MOST_PAIRS)),
        spread / total / 100,
        float(far),
        home / total,
    )


def win_chances(state: Position) -> list[float]:
    """Each seat's chance to win from here, by the model (the two sum to 1)."""
    me, other = state.seat, 1 - state.seat
    mine = features(state.model, state.blobs[me], me)
    theirs = features(state.model, state.blobs[other], other)
    z = 0.0
    for w, a, b in zip(WEIGHTS, mine, theirs, strict=True):
        z += w * (a - b)
    z += TEMPO
    p = 1.0 / (1.0 + math.exp(-z))
    out = [0.0, 0.0]
    out[me], out[other] = p, 1.0 - p
    return out
