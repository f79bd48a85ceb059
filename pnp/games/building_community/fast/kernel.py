"""Building Community's random play from any position on the compiled kernel, for the tree
search's rollouts (`pnp.play.state`'s optional ``playout`` hook), and the tree search itself
compiled beside it (``tree_search``, `_tree.h`).

The kernel (`_search.c`'s `playout`) is the fast path's `FastBoard.options` in C on the
same padded axial bits, so it fits boards up to radius 3 (the bits of a 64-bit word);
a larger board, or pnp built without a C compiler, has no playout and the search plays
the readable rules. It draws as `rng.choice` does over the canonical move list, on a
generator seeded from one draw of the search's: the readable rules' random player's law,
and its very draws from `random.Random(n)`.
"""

from __future__ import annotations

import random
from typing import Any

from pnp.games.building_community import rules
from pnp.games.building_community.engine import FastBoard, fast_board
from pnp.games.building_community.rules.model import PlayModel
from pnp.play import fastpath
from pnp.play.memo import PerModel

try:
    from pnp.games.building_community.fast import _search
except ImportError:  # built without a C compiler: the search plays the readable rules
    _search = None  # type: ignore[assignment]

ENDS = (None, rules.End.WIN, rules.End.STUCK, rules.End.REPEAT, rules.End.TIMEOUT)
"""The kernel's end codes (0: still playing) as the rules' ends."""
PASSED = b"\xff\xff\xff"
"""A pass in the kernel's trail of turns."""


class Tables:
    """The kernel's copy of one board's fast tables, and the maps between cells and bits."""

    def __init__(self, model: PlayModel, board: FastBoard) -> None:
        index = {p[:2]: j for j, p in enumerate(board.pairs)}
        span = range(64)
        near = [[index[p[:2]] for p in board.near[b]] if b < len(board.near) else [] for b in span]
        close = [
            [index[p[:2]] for p in board.close[b]] if b < len(board.close) else [] for b in span
        ]
        pairs = [p[:2] for p in board.pairs]
        self.kernel = _search.playboard(board.W, board.board, pairs, near, close, board.near_scope)
        self.fast = board
        self.board = board.board
        self.bit_of = board.bit_of
        self.cell_of = board.cell_of
        self.moves: dict[bytes, rules.Move] = {}
        self.keys: dict[rules.Position, tuple[int, int, int]] = {}
        """Positions already keyed: a search keys its root's history once, not each playout."""
        self.turns: dict[rules.Position, tuple[bool, list[rules.Move]]] = {}
        """Positions' turn options already listed: a search meets its tree's again and again."""

    def move(self, step: bytes) -> rules.Action:
        """A turn of the kernel's trail (its three bits, or a pass) as the rules' action."""
        if step == PASSED:
            return rules.PASS
        move = self.moves.get(step)
        if move is None:
            cell: Any = self.cell_of
            move = self.moves[step] = rules.Move((cell[step[0]], cell[step[1]]), cell[step[2]])
        return move

    def masks(self, tiles: tuple[int, ...] | list[int]) -> list[int]:
        """The three colour masks of a row of tiles."""
        masks = [0, 0, 0]
        for bit, colour in zip(self.bit_of, tiles, strict=True):
            masks[colour] |= 1 << bit
        return masks

    def key(self, position: rules.Position) -> tuple[int, int, int]:
        """A position as the kernel keys it: two colour masks, the pawns and the mover."""
        key = self.keys.get(position)
        if key is None:
            if len(self.keys) > 1 << 16:  # a long run's memory stays bounded
                self.keys.clear()
            key = self.keys[position] = self._key(position)
        return key

    def _key(self, position: rules.Position) -> tuple[int, int, int]:
        tiles, pawns, to_move = position
        m0, m1, _ = self.masks(tiles)
        packed = to_move << 36
        for k, cell in enumerate(pawns):
            packed |= self.bit_of[cell] << (6 * k)
        return m0, m1, packed


def _tables(model: PlayModel) -> Tables | None:
    board = fast_board(model)
    if _search is None or max(board.bit_of) >= 64:
        return None
    return Tables(model, board)


_built: PerModel[PlayModel, Tables | None] = PerModel(_tables)


def tables(model: PlayModel) -> Tables | None:
    """The kernel's tables for this board, or None without a kernel for it."""
    return None if _search is None else _built(model)


def turn_options(state: rules.State) -> tuple[bool, list[rules.Move]] | None:
    """`rules.State.turn_options` on the kernel: does the turn begin special, and the
    legal moves in canonical order (a position met again is answered from memory); None
    where there is no kernel for this board."""
    t = tables(state.model)
    if t is None:
        return None
    position = state.position()
    known = t.turns.get(position)
    if known is None:
        if len(t.turns) > 1 << 14:  # a long run's memory stays bounded
            t.turns.clear()
        cell = t.cell_of
        special, steps = _search.moves(
            t.kernel, t.masks(position[0]), [t.bit_of[p] for p in state.pawns], state.to_move
        )
        moves = [rules.Move((cell[a], cell[b]), cell[to]) for a, b, to in steps]
        known = t.turns[position] = (special, moves)
    return known


def playout(state: rules.State, rng: random.Random, stop: int) -> bool:
    """`pnp.play.mcts.playout` on the kernel: random play from `state` until the game ends or
    `stop` turns are played, in place: the position, the counters, the history and the
    positions seen, as the readable rules leave them when played from `random.Random(n)`,
    n being the one draw from `rng`; False (no draw) where there is no kernel for this
    board."""
    t = tables(state.model)
    if t is None:
        return False
    if state.ended is not None or state.turns >= stop:
        return True
    c = state.counters
    m0, m1, _ = t.key(state.position())
    turns, end, masks, pawns, to_move, in_a_row, counts, trail = _search.playout(
        t.kernel,
        (m0, m1, t.board & ~(m0 | m1)),
        [t.bit_of[p] for p in state.pawns],
        state.to_move,
        state.turns,
        state.passes_in_a_row,
        (c["passes"], c["legal_moves"], c["decisions"], c["special_turns"]),
        [t.key(p) for p in state.seen],
        rules.MAX_TURNS,
        stop,
        rng.getrandbits(64),
    )
    _replay(state, t, trail)
    assert (state.turns, state.to_move) == (turns, to_move), "the kernel's turns"
    state.passes_in_a_row, state.ended = in_a_row, ENDS[end]
    state._turn = None
    c["passes"], c["legal_moves"], c["decisions"], c["special_turns"] = counts
    if state.ended is not None:
        c["isolated_left"] = t.fast.isolated(*masks).bit_count()
    return True


def tree_search(
    state: rules.State,
    rng: random.Random,
    budget: int,
    playout_turns: int,
    exploration: float,
    cooperative: bool,
) -> dict[rules.Action, int] | None:
    """`state.tree_search`: `pnp.play.mcts.MctsBot.search` from this decision on the kernel
    (`_tree.h`), the same visits and `rng` left where the readable search leaves it; None,
    `rng` untouched, where there is no kernel for this board or the game is over."""
    t = tables(state.model)
    if t is None or state.ended is not None:
        return None
    m0, m1, _ = t.key(state.position())
    masks = (m0, m1, t.board & ~(m0 | m1))
    pawns = [t.bit_of[p] for p in state.pawns]
    seen = [t.key(p) for p in state.seen]

    def run(words: tuple[int, ...]) -> tuple[list[tuple[int, int]], tuple[int, ...]]:
        return _search.tree_search(
            t.kernel,
            masks,
            pawns,
            state.to_move,
            state.turns,
            state.passes_in_a_row,
            seen,
            rules.MAX_TURNS,
            words,
            budget,
            playout_turns,
            exploration,
            cooperative,
        )

    return fastpath.compiled_visits(rng, state.legal_actions(), run)


def _replay(state: rules.State, t: Tables, trail: bytes) -> None:
    """The kernel's turns into the state's tiles, pawns, history and positions seen."""
    tiles, pawns, players = list(state.tiles), state.pawns, state.players
    to_move, move_of = state.to_move, t.move
    played, seen = state.history.append, state.seen.add
    for i in range(0, len(trail), 3):
        move = move_of(trail[i : i + 3])
        if move is not rules.PASS:
            (a, b), to = move
            tiles[a], tiles[b] = tiles[b], tiles[a]
            pawns[to_move] = to
        played(move)
        to_move = (to_move + 1) % players
        seen((tuple(tiles), tuple(pawns), to_move))
    state.tiles, state.to_move = tiles, to_move
    state.turns += len(trail) // 3


KERNEL = fastpath.attach(
    rules.State,
    fastpath.Implementation(
        "kernel",
        _search is not None,
        playout=playout,
        tree_search=tree_search,
    ),
)
