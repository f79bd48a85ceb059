"""Building Community's fast board: the tiles as three colour bit masks on a padded axial
grid (bit `(r + R) * W + (q + R)`, W = 2R + 2), and one turn's options computed on them.

A cell's six neighbours are six shifts of its bit, and the spare column stops a shift from
wrapping onto the next row. Communities are flood fills by shifts, isolation is
`mask & ~spread(mask)` per colour. The bit order is the board's cell order, so moves come
out in the readable rules' canonical order. The Python fast path (`engine._play_fast`),
the solver and the compiled kernel's tables (`kernel.Tables`) are all built on it.
"""

from __future__ import annotations

from functools import lru_cache

from geometry import hexgrid
from pnp.games.building_community.rules.model import PlayModel

# An option of one turn: the swap's two bits (a < b), its mask, the two colours (of a and
# b before the swap), the destination mask (never empty), the whole board's isolated
# count after the swap.
Option = tuple[int, int, int, int, int, int, int]


class FastBoard:
    """The bit tables of one play model, and one turn's options computed on them."""

    def __init__(self, model: PlayModel) -> None:
        radius = model.radius
        self.W = w = 2 * radius + 2
        self.bit_of = tuple((r + radius) * w + (q + radius) for q, r in model.cells)
        self.cell_of = {b: i for i, b in enumerate(self.bit_of)}
        self.board = sum(1 << b for b in self.bit_of)
        span = max(self.bit_of) + 1
        self.nb = [0] * span  # per bit: its neighbours' mask
        for i, b in enumerate(self.bit_of):
            self.nb[b] = sum(1 << self.bit_of[n] for n in model.neighbours[i])
        masks = [0, 0, 0]
        for i, c in enumerate(model.start_colours):
            masks[c] |= 1 << self.bit_of[i]
        self.start_masks = tuple(masks)
        self.near_scope = model.scope == "near"
        pairs = sorted(
            (self.bit_of[a], self.bit_of[b])
            for a in range(model.size)
            for b in model.neighbours[a]
            if a < b
        )
        self.pairs = tuple((a, b, 1 << a | 1 << b) for a, b in pairs)
        near: list[tuple[tuple[int, int, int], ...]] = [
            ()
        ] * span  # per bit: the pairs both next to it
        close: list[tuple[tuple[int, int, int], ...]] = [
            ()
        ] * span  # per bit: the pairs within two steps of it
        for i, b in enumerate(self.bit_of):
            ring, cells = self.nb[b], model.cells
            near[b] = tuple(p for p in self.pairs if p[2] & ring == p[2])
            close[b] = tuple(
                p
                for p in self.pairs
                if min(
                    hexgrid.distance(cells[i], cells[self.cell_of[p[0]]]),
                    hexgrid.distance(cells[i], cells[self.cell_of[p[1]]]),
                )
                <= 2
            )
        self.near, self.close = near, close
        self.corner_starts = tuple(self.bit_of[c] for c in model.corner_starts)

    def starts(self, players: int) -> tuple[int, ...]:
        return tuple(self.corner_starts[c] for c in hexgrid.START_CORNERS[players])

    def spread(self, m: int) -> int:
        """Every cell next to a cell of `m` (may include off-board bits)."""
        w, w1 = self.W, self.W - 1
        return m << 1 | m >> 1 | m << w | m >> w | m << w1 | m >> w1

    def flood(self, seed: int, mask: int) -> int:
        """The connected part of `mask` holding the bits of `seed`."""
        w, w1 = self.W, self.W - 1
        c = seed
        while True:
            n = (c | c << 1 | c >> 1 | c << w | c >> w | c << w1 | c >> w1) & mask
            if n == c:
                return c
            c = n

    def isolated(self, m0: int, m1: int, m2: int) -> int:
        """The mask of isolated tiles."""
        s = self.spread
        return self.board & ~(m0 & s(m0) | m1 & s(m1) | m2 & s(m2))

    def is_special(self, masks: tuple[int, int, int], occ: int, p: int) -> bool:
        pb = 1 << p
        own = masks[0] if masks[0] & pb else masks[1] if masks[1] & pb else masks[2]
        return bool(self.flood(pb, own) & occ & ~pb)

    def options(self, m0: int, m1: int, m2: int, occ: int, p: int, special: bool) -> list[Option]:
        """The swaps the pawn on bit `p` may make, each with its destination mask, in
        canonical order. `occ` holds every pawn, this one included."""
        w, w1 = self.W, self.W - 1
        board, ring = self.board, self.nb[p]
        pb = 1 << p
        stood = 0 if m0 & pb else 1 if m1 & pb else 2
        n0 = m0 & (m0 << 1 | m0 >> 1 | m0 << w | m0 >> w | m0 << w1 | m0 >> w1)
        n1 = m1 & (m1 << 1 | m1 >> 1 | m1 << w | m1 >> w | m1 << w1 | m1 >> w1)
        n2 = m2 & (m2 << 1 | m2 >> 1 | m2 << w | m2 >> w | m2 << w1 | m2 >> w1)
        before = (ring & ~(n0 | n1 | n2)).bit_count()
        if not before and not special:
            return []  # nothing around the pawn to join up: no swap can reduce
        if self.near_scope:
            pairs = self.near[p]
        else:
            pairs = self.pairs if special else self.close[p]
        out = []
        for a, b, ab in pairs:
            if occ & ab:
                continue
            ca = 0 if m0 >> a & 1 else 1 if m1 >> a & 1 else 2
            cb = 0 if m0 >> b & 1 else 1 if m1 >> b & 1 else 2
            if ca == cb:
                continue
            x0, x1, x2, y0, y1, y2 = m0, m1, m2, n0, n1, n2
            if ca == 0 or cb == 0:
                x0 = m0 ^ ab
                y0 = x0 & (x0 << 1 | x0 >> 1 | x0 << w | x0 >> w | x0 << w1 | x0 >> w1)
            if ca == 1 or cb == 1:
                x1 = m1 ^ ab
                y1 = x1 & (x1 << 1 | x1 >> 1 | x1 << w | x1 >> w | x1 << w1 | x1 >> w1)
            if ca == 2 or cb == 2:
                x2 = m2 ^ ab
                y2 = x2 & (x2 << 1 | x2 >> 1 | x2 << w | x2 >> w | x2 << w1 | x2 >> w1)
            iso = board & ~(y0 | y1 | y2)
            if not special and (iso & ring).bit_count() >= before:
                continue
            # after the swap, a holds colour cb and b holds ca
            first = self.flood(1 << a, x0 if cb == 0 else x1 if cb == 1 else x2)
            second = self.flood(1 << b, x0 if ca == 0 else x1 if ca == 1 else x2)
            if special:
                target = first | second
            else:
                na, nb_ = first.bit_count(), second.bit_count()
                target = first if na > nb_ else second if nb_ > na else first | second
            keep = x0 if stood == 0 else x1 if stood == 1 else x2
            dest = target & ~occ & ~keep
            if dest:
                out.append((a, b, ab, ca, cb, dest, iso.bit_count()))
        return out


@lru_cache(maxsize=16)
def fast_board(model: PlayModel) -> FastBoard:
    return FastBoard(model)


def nth_bit(mask: int, k: int) -> int:
    """The position of the k-th lowest set bit of `mask` (k from 0)."""
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1
