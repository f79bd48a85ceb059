"""Building Community solver: can the team win from the start, and how fast at best?

The game is cooperative with no chance and no hidden facts, so a win is a path through
the positions (tiles, pawns, pawn to move) from the start to one with no isolated tile.
A shortest path never meets a position twice, so it never breaks the repeat rule (nor
the stuck rule: a round of passes comes back to the same position). The search runs in
two phases within one budget of nodes (positions generated, a move applied to a
position, duplicates included):

1. Best-first passes (`PASSES`): the first orders positions by isolated tiles (fewest
   first) and finds a winning line quickly where random play almost never does; running
   out of positions proves that no win exists (`no-win`). Later passes add the depth,
   weighted, to the order and look only for lines shorter than the best so far; each
   may spend half of the budget left (with the compiled proof: of `PASS_NODES`, or of
   half the budget if less).
2. The proof. Boards of up to 64 cells (R <= 4) go to `solver_proof`: iterative
   deepening (IDA*) in C with the admissible bound of `solver_bound` (isolated tiles in
   clusters a swap's reach cannot span, six joined at most per swap; pawns of the round
   to come with nothing within reach), a transposition
   table keyed by the position up to the board's symmetries, colour names and the seat
   to move, and children tried fewest-bound first. Its first threshold that holds a win
   is the shortest line. Other boards (or no C compiler): a breadth-first search to one
   turn below the line in hand, pruned with ceil(isolated / 6).

Phases that store positions (best-first, breadth-first) keep at most `STORED_POSITIONS`
of them, whatever the budget: memory. The proof keeps only its fixed table.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Any

from pnp.contract.hooks import SolverHooks
from pnp.games.building_community import rules
from pnp.games.building_community.fast import solver_proof
from pnp.games.building_community.fast.bitboard import FastBoard, fast_board
from pnp.games.building_community.fast.solver_bound import MAX_DROP, by_count, turns_needed
from pnp.games.building_community.params import MAX_SOLVER_BUDGET, STORED_POSITIONS
from pnp.games.building_community.rules.model import PlayModel
from pnp.games.building_community.rules.notation import label_line
from pnp.play.outcome import SolveResult, SolveVerdict

# Best-first passes: (weight, deepest first). A pass ranks positions by isolated tiles +
# weight * depth, ties by depth. Deepest first finds some line soonest on large boards;
# the later passes shorten it.
PASSES = ((0, True), (0, False), (1, False), (2, False), (3, False))

Step = tuple[int, int, int] | None  # swap bits a < b, destination bit; None = a pass
Progress = Callable[[int, int], None]  # (nodes so far, budget)
REPORT_EVERY = 1 << 15  # nodes between two calls of a progress callback
PASS_NODES = 1_000_000
"""With the compiled proof, the best-first passes stop here (or at half the budget): a
short line for a small budget, the rest of a large one for the proof."""
MAX_BUDGET = MAX_SOLVER_BUDGET  # the most nodes a search may be given: bounds its time
DEFAULT_BUDGET = 250_000_000
"""`pnp solve`'s budget when none is given: it proves the default board (radius 3) shortest
at every player count. The proof took 9-210 million nodes (3 players the most: 210 M,
about 30 CPU seconds), measured on 2026-11-28; `tests/test_bc_proof.py` holds it."""
BYTES_PER_NODE = 150
"""Peak memory per stored position, measured (ru_maxrss) at radius 3 and 8, 2 to 6 players:
each new position keeps its key in the parent table and a heap or layer entry. A position
is stored only when first generated, so n nodes of those phases store at most n positions
(they stop at `STORED_POSITIONS`)."""


class _Search:
    """Positions as single ints, child generation, node counting and both phases.

    A key packs the colour-0 mask, the colour-1 mask (colour 2 is the rest of the
    board), the pawn to move and every pawn's bit: ``m0 | m1 << S | k << 2S | p_i << ...``.
    A parent table maps each key to the key it was first reached from; the turn between
    the two is read back from their difference.
    """

    def __init__(
        self, board: FastBoard, players: int, budget: int, progress: Progress | None = None
    ) -> None:
        self.t = board
        self.players = players
        self.budget = budget
        self.nodes = 0
        self.progress = progress
        self.report_at = REPORT_EVERY
        self.S = span = max(board.bit_of) + 1
        self.mask = (1 << span) - 1
        self.B = span.bit_length()  # bits per pawn cell
        m0, m1, m2 = board.start_masks
        self.start = self.encode(m0, m1, board.starts(players), 0)
        self.start_left = board.isolated(m0, m1, m2).bit_count()
        self.cap = min(budget, STORED_POSITIONS)  # nodes the storing phases may spend

    def encode(self, m0: int, m1: int, pawns: tuple[int, ...], k: int) -> int:
        rest = k
        for i, p in enumerate(pawns):
            rest |= p << (3 + i * self.B)
        return m0 | m1 << self.S | rest << 2 * self.S

    def decode(self, key: int) -> tuple[int, int, list[int], int]:
        rest = key >> 2 * self.S
        cell = (1 << self.B) - 1
        pawns = [rest >> (3 + i * self.B) & cell for i in range(self.players)]
        return key & self.mask, key >> self.S & self.mask, pawns, rest & 7

    def children(self, key: int, left: int) -> list[tuple[int, int]]:
        """Every position one turn on from `key` (which has `left` isolated tiles), each
        with its isolated-tile count."""
        t, players, span = self.t, self.players, self.S
        m0, m1, pawns, k = self.decode(key)
        m2 = t.board ^ m0 ^ m1
        p = pawns[k]
        pb = 1 << p
        occ = 0
        for q in pawns:
            occ |= 1 << q
        own = m0 if m0 & pb else m1 if m1 & pb else m2
        special = bool(t.flood(pb, own) & occ & ~pb)
        opts = t.options(m0, m1, m2, occ, p, special)
        k2 = k + 1 if k + 1 < players else 0
        rest = key >> 2 * span
        if not opts:
            self.nodes += 1
            return [(m0 | m1 << span | (rest ^ k ^ k2) << 2 * span, left)]
        shift = 2 * span + 3 + k * self.B
        base = (rest ^ k ^ k2) << 2 * span & ~(((1 << self.B) - 1) << shift)
        out = []
        for _, _, ab, ca, cb, dest, after in opts:
            x0 = m0 ^ ab if ca == 0 or cb == 0 else m0
            x1 = m1 ^ ab if ca == 1 or cb == 1 else m1
            head = x0 | x1 << span | base
            while dest:
                low = dest & -dest
                dest ^= low
                out.append((head | (low.bit_length() - 1) << shift, after))
        self.nodes += len(out)
        return out

    def report(self) -> None:
        """Tell the progress callback how far the search is (every `REPORT_EVERY` nodes)."""
        if self.progress is not None:
            self.progress(self.nodes, self.budget)
        self.report_at = self.nodes + REPORT_EVERY

    def step(self, before: int, after: int) -> Step:
        """The turn that leads from position `before` to position `after`."""
        m0, m1, pawns, k = self.decode(before)
        x0, x1, moved, _ = self.decode(after)
        if (m0, m1) == (x0, x1):
            return None
        board = self.t.board
        changed = (m0 ^ x0) | (m1 ^ x1) | ((board ^ m0 ^ m1) ^ (board ^ x0 ^ x1))
        a = (changed & -changed).bit_length() - 1
        return a, changed.bit_length() - 1, moved[k]

    def line(self, parent: dict[int, int], end: int) -> list[Step]:
        keys = [end]
        while keys[-1] != self.start:
            keys.append(parent[keys[-1]])
        keys.reverse()
        return [self.step(a, b) for a, b in zip(keys, keys[1:], strict=False)]

    def best_first(
        self, weight: int, deep: bool, bound: int | None, until: int
    ) -> tuple[list[Step] | None, bool]:
        """A best-first pass for a line shorter than `bound` turns (any line if None),
        stopping when the node count reaches `until`.

        Returns the line or None, and whether the pass ran out of positions. Without a
        bound, running out means no reachable position wins; with one it proves
        nothing (a position first met by a long path is not searched again).
        """
        limit = rules.MAX_TURNS + 1 if bound is None else bound
        until = min(until, self.cap)
        parent = {self.start: self.start}
        heap = [(self.start_left, 0, 0, self.start, 0, self.start_left)]
        tie = -1 if deep else 1
        order = 0
        capped = False
        while heap:
            if self.nodes >= until:
                return None, False
            if self.nodes >= self.report_at:
                self.report()
            _, _, _, key, depth, left_here = heapq.heappop(heap)
            for child, left in self.children(key, left_here):
                if child in parent:
                    continue
                if left == 0:
                    parent[child] = key
                    return self.line(parent, child), True
                if depth + 1 + by_count(left) >= limit:
                    capped = True
                    continue
                parent[child] = key
                order += 1
                rank = left + weight * (depth + 1)
                heapq.heappush(heap, (rank, tie * (depth + 1), order, child, depth + 1, left))
        return None, not capped

    def shortest_within(self, limit: int) -> tuple[list[Step] | None, bool]:
        """Breadth-first to depth `limit`: (the shortest win within it or None, whether
        the search finished)."""
        parent = {self.start: self.start}
        layer = [(self.start, self.start_left)]
        for depth in range(1, limit + 1):
            reach = (limit - depth) * MAX_DROP  # isolated tiles a child may keep
            nxt = []
            for key, left_here in layer:
                if self.nodes >= self.cap:
                    return None, False
                if self.nodes >= self.report_at:
                    self.report()
                for child, left in self.children(key, left_here):
                    if left == 0:
                        parent[child] = key
                        return self.line(parent, child), True
                    if left <= reach and child not in parent:
                        parent[child] = key
                        nxt.append((child, left))
            layer = nxt
        return None, True


def line_json(model: PlayModel, players: int, steps: list[Step]) -> list[dict[str, Any]]:
    """The spec's per-turn dicts for a line of steps (bits) from the start."""
    t = fast_board(model)
    out = []
    for i, step in enumerate(steps):
        move = None
        if step is not None:
            a, b, to = step
            move = rules.Move((t.cell_of[a], t.cell_of[b]), t.cell_of[to])
        out.append(rules.turn_json(model, i % players, move))
    return out


def solve(
    model: PlayModel, players: int, budget: int, progress: Progress | None = None
) -> SolveResult:
    """Search for a winning line within `budget` nodes; prove it shortest if budget allows.
    Memory: at most `STORED_POSITIONS` positions of about `BYTES_PER_NODE` bytes, plus the
    proof's fixed table. `progress(nodes, budget)` is called every `REPORT_EVERY` nodes."""
    search = _Search(fast_board(model), players, budget, progress)
    proof = solver_proof.available(model)
    passes = min(budget // 2, PASS_NODES) if proof else budget  # the rest for the proof
    best, complete = search.best_first(*PASSES[0], None, passes)
    floor = turns_needed(model, isolated_cells(model), model.starts(players))
    best = _shorten(search, best, floor, passes)
    if proof:
        best, shortest = _prove(search, model, best, complete, floor)
    else:
        best, shortest = _breadth_first(search, best, floor)
    result: SolveVerdict
    if best is not None:
        result = "win"
    else:
        result = "no-win" if complete else "unknown"
    return SolveResult(
        result=result,
        nodes=search.nodes,
        line=tuple(line_json(model, players, best or [])),
        shortest=shortest,
        start=rules.start_json(model, players),
        info={"radius": model.radius, "players": players, "scope": model.scope},
    )


def isolated_cells(model: PlayModel) -> int:
    """The start's isolated tiles as a mask of cell indices (bit i = cell i)."""
    return sum(1 << c for c in rules.isolated_cells(model, model.start_colours))


def _prove(
    search: _Search, model: PlayModel, best: list[Step] | None, complete: bool, floor: int
) -> tuple[list[Step] | None, bool]:
    """IDA* from the start's bound to one turn below the line in hand (or on, with none)
    with the budget left: (the best line, whether it is proven shortest)."""
    if best is not None and len(best) <= floor:
        return best, True
    if (best is None and complete) or search.nodes >= search.budget:
        return best, False
    hi = len(best) - 1 if best is not None else solver_proof.MAX_THRESHOLD
    offset = search.nodes

    def tick(nodes: int, _: int) -> None:
        if search.progress is not None:
            search.progress(offset + nodes, search.budget)

    line, nodes, proven, _ = solver_proof.prove(
        model, search.players, floor, hi, search.budget - offset, tick, REPORT_EVERY
    )
    search.nodes += nodes
    if line is not None:
        bit = search.t.bit_of
        return [None if s is None else (bit[s[0]], bit[s[1]], bit[s[2]]) for s in line], True
    return best, best is not None and proven >= len(best) - 1


def _shorten(search: _Search, best: list[Step] | None, floor: int, until: int) -> list[Step] | None:
    """Shorter lines by the later best-first passes, until the nodes reach `until`."""
    until = min(until, search.cap)
    for weight, deep in PASSES[1:]:  # shorter lines, each pass bounded by the best so far
        if best is None or len(best) <= floor or search.nodes >= until:
            break
        share = search.nodes + (until - search.nodes) // 2  # keep half for what follows
        line, _ = search.best_first(weight, deep, len(best), share)
        best = line or best
    return best


def _breadth_first(
    search: _Search, best: list[Step] | None, floor: int
) -> tuple[list[Step] | None, bool]:
    """Without the compiled proof: the breadth-first proof below the best line (within
    `STORED_POSITIONS`)."""
    if best is None:
        return None, False
    if len(best) <= floor:
        return best, True
    line, shortest = search.shortest_within(len(best) - 1)
    return line or best, shortest


# the contract's optional members (`pnp.contract.hooks.SolverHooks`), typed where they are named
HOOKS = SolverHooks[PlayModel](
    max_budget=MAX_BUDGET, default_budget=DEFAULT_BUDGET, label_line=label_line
)
