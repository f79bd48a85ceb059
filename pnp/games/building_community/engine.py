"""Building Community for the simulation runner: the engine contract, and the fast board.

The fast path keeps the tiles as three colour bit masks on a padded axial grid (bit
`(r + R) * W + (q + R)`, W = 2R + 2): a cell's six neighbours are six shifts of its bit,
and the spare column stops a shift from wrapping onto the next row. Communities are flood
fills by shifts, isolation is `mask & ~spread(mask)` per colour. The bit order is the
board's cell order, so moves come out in the reference engine's canonical order and the
same draws pick the same moves: `tests/test_bc_properties.py` and the conformance data
check that game by game. The solver searches with the same `FastBoard.options`. It is the
game's only fast path; `play_one(reference=True)` plays the readable rules instead.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from geometry import hexgrid
from pnp.contract.hooks import EngineHooks
from pnp.games.building_community import rules
from pnp.games.building_community.params import BuildingCommunityParams
from pnp.games.building_community.rules import End
from pnp.games.building_community.rules.bots import BOT_NAMES
from pnp.games.building_community.rules.bots import make_bot as make_bot
from pnp.games.building_community.rules.model import MAX_PLAYERS as MAX_PLAYERS
from pnp.games.building_community.rules.model import MIN_PLAYERS as MIN_PLAYERS
from pnp.games.building_community.rules.model import PlayModel, play_model
from pnp.play import fastpath
from pnp.play.forward import play
from pnp.play.outcome import GameRecord, SimOption
from pnp.runtime.errors import PnpError

BOTS = BOT_NAMES
DEFAULT_PLAYERS = 2
COOPERATIVE = True
MCTS_BUDGET = 3000
"""An mcts seat's playouts a decision: the team's winning lines are narrow, so the search
needs numbers to find them (docs/skilled-play.md: the all-mcts team at R = 3 wins about a
fifth of its games at 1,000 playouts, half at 3,000), and the compiled search (`_tree.h`)
makes 3,000 cost about 11 ms of CPU (`make bench`)."""
COUNTERS = {
    "passes": "turns a pawn with no legal move passed",
    "legal_moves": "legal moves summed over the decisions",
    "decisions": "turns with at least one legal move",
    "special_turns": "turns begun with another pawn in the mover's community",
    "isolated_left": "isolated tiles on the board when the game ended",
}
RATIOS = {"branching_factor": ("legal_moves", "decisions")}
OPTIONS: tuple[SimOption, ...] = ()
ABSTRACTION = ""
TERMINATION = End

FAST = "fast"
"""The Python fast path's name among the implementations (`_play_fast`, whole games)."""

# An option of one turn: the swap's two bits (a < b), its mask, the two colours (of a and
# b before the swap), the destination mask (never empty), the whole board's isolated
# count after the swap.
Option = tuple[int, int, int, int, int, int, int]


def prepare(params: BuildingCommunityParams, players: int) -> PlayModel:
    """Validate the kit for play and build its play model (the printed board)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise PnpError(f"Building Community takes 2 to 6 players, got {players}")
    return play_model(params)


def new_state(model: PlayModel, players: int, rng: random.Random | None = None) -> rules.State:
    """The start position (the game draws nothing before the first turn)."""
    return rules.new_game(model, players)


def warm(model: PlayModel) -> None:
    fast_board(model)


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


def play_one(
    model: PlayModel, players: int, bot: str, rng: Any, reference: bool = False
) -> GameRecord:
    """Play one game on the fast path, or on the readable rules with `reference=True` or
    the readable rules chosen (`pnp.play.fastpath.using`). The player count and bot name are
    the caller's to check (the runner does)."""
    rng = rng if isinstance(rng, random.Random) else random.Random(rng)
    if reference or fastpath.chosen() == fastpath.READABLE:
        state = new_state(model, players, rng)
        # the state keeps the game's own decision counters: none merged from the walk
        return play(state, [make_bot(bot, model)] * players, rng).state.record()
    turns, end, counters = _play_fast(fast_board(model), players, bot == "greedy", rng)
    return rules.game_record(model, players, turns, end, counters)


def _play_fast(
    t: FastBoard, players: int, greedy: bool, rng: random.Random
) -> tuple[int, End, dict[str, int]]:
    """One game with the same rules and the same draws as the readable rules played by
    `pnp.play.forward.play` with the same bot."""
    m0, m1, m2 = t.start_masks
    pawns = list(t.starts(players))
    occ = sum(1 << p for p in pawns)
    seen = {(m0, m1, tuple(pawns), 0)}
    options, flood, choice = t.options, t.flood, rng.choice
    passes = legal = decisions = special_turns = 0
    in_a_row = turns = k = 0
    max_turns = rules.MAX_TURNS
    while True:
        p = pawns[k]
        pb = 1 << p
        own = m0 if m0 & pb else m1 if m1 & pb else m2
        special = bool(flood(pb, own) & occ & ~pb)
        special_turns += special
        opts = options(m0, m1, m2, occ, p, special)
        won = False
        if opts:
            counts = [o[5].bit_count() for o in opts]
            n = sum(counts)
            decisions += 1
            legal += n
            if greedy:
                fewest = min(o[6] for o in opts)
                counts = [c if o[6] == fewest else 0 for c, o in zip(counts, opts, strict=True)]
                n = sum(counts)
            i = choice(range(n))
            j = 0
            while i >= counts[j]:  # the i-th move: option j, its i-th destination
                i -= counts[j]
                j += 1
            _, _, ab, ca, cb, dest, left = opts[j]
            x = (m0, m1, m2)
            m0 = x[0] ^ ab if 0 in (ca, cb) else x[0]
            m1 = x[1] ^ ab if 1 in (ca, cb) else x[1]
            m2 = x[2] ^ ab if 2 in (ca, cb) else x[2]
            to = nth_bit(dest, i)
            occ ^= pb | 1 << to
            pawns[k] = to
            in_a_row = 0
            won = left == 0
        else:
            passes += 1
            in_a_row += 1
        turns += 1
        k = (k + 1) % players
        key = (m0, m1, tuple(pawns), k)
        if won:
            end = End.WIN
        elif in_a_row == players:
            end = End.STUCK
        elif key in seen:
            end = End.REPEAT
        elif turns >= max_turns:
            end = End.TIMEOUT
        else:
            seen.add(key)
            continue
        break
    counters = {
        "passes": passes,
        "legal_moves": legal,
        "decisions": decisions,
        "special_turns": special_turns,
        "isolated_left": t.isolated(m0, m1, m2).bit_count(),
    }
    return turns, end, counters


# the contract's optional members (`pnp.contract.hooks.EngineHooks`), typed where they are named
HOOKS = EngineHooks[PlayModel](ratios=RATIOS, mcts_budget=MCTS_BUDGET, warm=warm)
