"""The solver's lower bound on the turns left to a win, and why it never overestimates.

**The bound.** Group the isolated tiles into clusters: two isolated tiles are in one
cluster when a chain of isolated tiles links them, each within 3 steps of the next. A
cluster of n tiles counts max(ceil(n / 6), k), where k is the size of a set of its tiles
pairwise 4 or more steps apart (picked greedily, lowest cell first); the sum over the
clusters is `cluster_bound`. Then the round to come (`near` scope only), with the seats
in turn order from the pawn to move: the bound is the least T >= the cluster bound such
that T >= the cluster bound + the seats among the first T with no isolated tile within
2 steps of their pawn, and, if T is no more than the seats, every isolated tile lies
within 2 steps of one of the first T pawns. `turns_needed` computes it; the compiled
search (`_search.c`) computes the same, and the tests check both against exhaustive
breadth-first distances.

**Why it is admissible** (never more than the true number of turns left):

1. *Which swap can join up a tile.* Only a swap changes colours (a pass or a pawn's move
   changes none). A tile x stops being isolated only if its colour or a neighbour's colour
   changes, so the swap (a, b) must have a or b in x's closed neighbourhood: x lies in
   N[a] | N[b], the swap's *reach*. Two cells of a reach are at most 3 steps apart
   (a and b are neighbours), so a reach never holds two tiles 4 or more steps apart, and
   never holds tiles of two different clusters (those are 4 or more steps apart).
2. *At most six per swap.* Say a had colour A and b colour B (A != B). A tile next to
   both a and b sees the same colours after the swap (a and b trade places), so it does
   not change. A tile next to a alone and of colour B may join a; around a those are
   the three cells of a's ring that are neither b nor next to b, a path u1 - u2 - u3.
   Tiles of colour B isolated before the swap are never neighbours of each other, so at
   most u1 and u3 were; likewise at most two around b. With a and b themselves: at most
   six tiles stop being isolated in one swap (`MAX_DROP`; tested exhaustively over
   colourings too).
3. *Summing up.* Every tile isolated now must stop being isolated at some turn still to
   come (the last change of its status). A swap reaches one cluster at most and joins up
   six of its tiles at most, so a cluster of n needs ceil(n / 6) turns of its own, and k
   turns of its own for k tiles pairwise 4 steps apart (no reach holds two of them). A
   turn serves at most one cluster, so the counts add up. Each turn makes one swap at
   most, so turns >= swaps >= the cluster bound. (The rules' limits -- the pawn's ring,
   the isolation test, occupied tiles -- only remove swaps, so they keep it a lower
   bound.)
4. *Turns that serve no cluster.* In the round to come each pawn plays from the cell it
   stands on now (only a pawn's own turn moves it). With the `near` scope its swap is
   two tiles of its ring, so the swap's reach lies within 2 steps of its cell; if no
   isolated tile does, that turn (a pass included) serves no cluster. So if a win takes
   T turns, T >= cluster bound + the number of such idle turns among turns 1 .. T; the
   least T that satisfies this is what the round adds up to (seats in order, each idle
   one counted while its index is within the T so far). With the `anywhere` scope a
   special move may swap anywhere, so the round adds nothing there.
5. *A win within the round.* If T is no more than the number of seats, all T turns are
   in the round to come, so every isolated tile must lie within the reach of one of the
   first T pawns (within 2 steps of its cell). The bound is the least T that meets
   points 3, 4 and 5: each is necessary for a win in T turns, and each, once met, stays
   met for T + 1.

The bound is 0 exactly on a won board, and ceil(i / 6) <= bound for i isolated tiles (the
bound of the breadth-first phase, kept as `by_count`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from geometry import hexgrid
from pnp.games.building_community.rules.model import PlayModel

MAX_DROP = 6  # isolated tiles one swap can join up, at most
APART = 4  # tiles this many steps apart never share a swap's reach


def by_count(isolated: int) -> int:
    """ceil(isolated / MAX_DROP): the bound from the count alone."""
    return -(-isolated // MAX_DROP)


@lru_cache(maxsize=16)
def near_masks(model: PlayModel) -> tuple[int, ...]:
    """Per cell index: the mask of cells fewer than `APART` steps away (itself included)."""
    cells = model.cells
    return tuple(
        sum(1 << j for j, d in enumerate(cells) if hexgrid.distance(c, d) < APART) for c in cells
    )


@lru_cache(maxsize=16)
def reach_masks(model: PlayModel) -> tuple[int, ...]:
    """Per cell index: where a swap by a pawn on that cell can join up tiles -- cells
    within 2 steps with the `near` scope, the whole board with `anywhere`."""
    if model.scope != "near":
        return ((1 << model.size) - 1,) * model.size
    cells = model.cells
    return tuple(
        sum(1 << j for j, d in enumerate(cells) if hexgrid.distance(c, d) <= 2) for c in cells
    )


def turns_needed(model: PlayModel, isolated: int, movers: Sequence[int] = ()) -> int:
    """The lower bound for a mask of isolated tiles (bit i = cell i), with the pawns'
    cells `movers` in turn order from the pawn to move (none: the clusters alone)."""
    base = cluster_bound(model, isolated)
    if not base:
        return 0
    reach = [reach_masks(model)[cell] for cell in movers]
    total = base
    while True:
        first = reach[:total]  # the turns of the round to come within `total`
        idle = sum(not r & isolated for r in first)
        covered = 0
        for r in first:
            covered |= r
        if total >= base + idle and (total >= len(reach) or not isolated & ~covered):
            return total
        total += 1


def cluster_bound(model: PlayModel, isolated: int) -> int:
    """The bound from the isolated tiles alone (points 1-3)."""
    close = near_masks(model)
    total = 0
    while isolated:
        cluster = front = isolated & -isolated
        while front:
            low = front & -front
            front ^= low
            add = close[low.bit_length() - 1] & isolated & ~cluster
            cluster |= add
            front |= add
        isolated &= ~cluster
        apart, rest = 0, cluster
        while rest:
            rest &= ~close[(rest & -rest).bit_length() - 1]
            apart += 1
        total += max(by_count(cluster.bit_count()), apart)
    return total
