"""Building Community's compiled kernel (`_search.c`: `_play.h`, `_tree.h`) as the engine
and the readable rules call it, through the one seam (`pnp/play/_seam.h`): whole games,
random or greedy (`play`, `play_seeded`), random play from any position for the tree
search's rollouts (`playout`, `pnp.play.state`'s optional ``playout`` hook), the tree
search itself (`tree_search`) and a position's moves (`turn_options`). Positions and
settings cross as named fields (`position`, `settings`).

The kernel's turn is the fast path's `FastBoard.options` in C on the same padded axial
bits, so it fits boards up to radius 3 (the bits of a 64-bit word); a larger board, or pnp
built without a C compiler, plays whole games on the Python fast path and searches on the
readable rules. It draws as `rng.choice` does over the canonical move list (greedy: over
the moves leaving the fewest isolated tiles): the readable rules' very draws.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pnp.games.building_community import rules
from pnp.games.building_community.fast.bitboard import FastBoard, fast_board
from pnp.games.building_community.rules.model import PlayModel
from pnp.play import fastpath
from pnp.play.memo import PerModel
from pnp.play.outcome import GameRecord

try:
    from pnp.games.building_community.fast import _search
except ImportError:  # built without a C compiler: the search plays the readable rules
    _search = None  # type: ignore[assignment]

ENDS = (None, rules.End.WIN, rules.End.STUCK, rules.End.REPEAT, rules.End.TIMEOUT)
"""The kernel's end codes (0: still playing) as the rules' ends."""
PASSED = -1
"""A pass among the kernel's moves (a move is a | b << 8 | to << 16, on bits)."""


def playboard_fields(board: FastBoard) -> dict[str, Any]:
    """The fast tables by name (`_play.h`'s ``PLAY_FIELDS``): the row width, the board's
    bits, the swap pairs as bits (two numbers a pair), and per bit the indices of the
    pairs next to it (`near`) and within two steps of it (`close`), each bit's ended by -1."""
    index = {p[:2]: j for j, p in enumerate(board.pairs)}

    def per_bit(lists: Sequence[Sequence[tuple[int, int, int]]]) -> list[int]:
        return [
            j
            for b in range(64)
            for j in (*(index[p[:2]] for p in (lists[b] if b < len(lists) else ())), -1)
        ]

    return {
        "W": board.W,
        "board": board.board,
        "pairs": [bit for p in board.pairs for bit in p[:2]],
        "near": per_bit(board.near),
        "close": per_bit(board.close),
        "near_scope": board.near_scope,
    }


class Tables:
    """The kernel's copy of one board's fast tables, and the maps between cells and bits."""

    def __init__(self, model: PlayModel, board: FastBoard) -> None:
        self.kernel = _search.playboard(playboard_fields(board))
        self.fast = board
        self.board = board.board
        self.bit_of = board.bit_of
        self.cell_of = board.cell_of
        self.moves: dict[int, rules.Move] = {}
        self.keys: dict[rules.Position, tuple[int, int, int]] = {}
        """Positions already keyed: a search keys its root's history once, not each playout."""
        self.turns: dict[rules.Position, tuple[bool, list[rules.Move]]] = {}
        """Positions' turn options already listed: a search meets its tree's again and again."""

    def move(self, code: int) -> rules.Action:
        """A move of the kernel's (its three bits in one number, or a pass) as the rules'
        action."""
        if code == PASSED:
            return rules.PASS
        move = self.moves.get(code)
        if move is None:
            cell: Any = self.cell_of
            a, b, to = code & 0xFF, code >> 8 & 0xFF, code >> 16
            move = self.moves[code] = rules.Move((cell[a], cell[b]), cell[to])
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
        m0, m1, _ = t.masks(position[0])
        mover = {
            "colour0": m0,
            "colour1": m1,
            "pawns": [t.bit_of[p] for p in state.pawns],
            "to_move": state.to_move,
        }
        special, steps = _search.moves(t.kernel, mover)
        moves = [rules.Move((cell[a], cell[b]), cell[to]) for a, b, to in steps]
        known = t.turns[position] = (special, moves)
    return known


def settings(t: Tables, players: int, greedy: bool) -> dict[str, Any]:
    """A whole game's settings as the kernel names them (`_play.h`'s ``SETTINGS``): the
    start position on the board `t` holds, and the bot."""
    m0, m1, _ = t.fast.start_masks
    return {
        "colour0": m0,
        "colour1": m1,
        "pawns": list(t.fast.starts(players)),
        "greedy": greedy,
        "max_turns": rules.MAX_TURNS,
    }


def _record(model: PlayModel, players: int, game: dict[str, int]) -> GameRecord:
    """A game of the kernel's as `rules.game_record` makes it."""
    end = ENDS[game["end"]]
    assert end is not None, "a whole game ends"
    counters = {name: game[name] for name in rules.COUNTER_NAMES}
    return rules.game_record(model, players, game["turns"], end, counters)


def _runs(model: PlayModel) -> Tables | None:
    """The kernel's tables where it plays whole games here: built, chosen (not another
    implementation, `pnp.play.fastpath.using`), and the board fits it."""
    return None if fastpath.active(rules.State) is None else tables(model)


def play(model: PlayModel, players: int, greedy: bool, rng: random.Random) -> GameRecord | None:
    """One whole game drawing from `rng`'s own Mersenne Twister state (handed over and
    taken back, so the generator ends as the Python fast path leaves it); None where the
    kernel does not play here."""
    t = _runs(model)
    if t is None:
        return None
    version, words, gauss = rng.getstate()
    game, words = _search.play(t.kernel, settings(t, players, greedy), words)
    rng.setstate((version, words, gauss))
    return _record(model, players, game)


def play_seeded(
    model: PlayModel, players: int, greedy: bool, seeds: Sequence[str]
) -> list[GameRecord] | None:
    """One whole game per seed text, each on what `random.Random(text)` would draw (the
    kernel seeds its own generator); None where the kernel does not play here."""
    t = _runs(model)
    if t is None:
        return None
    games = _search.play_seeded(t.kernel, settings(t, players, greedy), seeds)
    return [_record(model, players, game) for game in games]


def position(state: rules.State, t: Tables) -> dict[str, Any]:
    """`state` as the kernel names a position (`_play.h`'s ``POSITION``): the tiles of
    colours 0 and 1 and the pawns as bits, whose turn, the turns, the passes in a row, the
    turn cap, and the keys of the positions seen (three numbers each)."""
    m0, m1, _ = t.key(state.position())
    seen = [word for p in state.seen for word in t.key(p)]
    return {
        "colour0": m0,
        "colour1": m1,
        "pawns": [t.bit_of[p] for p in state.pawns],
        "to_move": state.to_move,
        "turns": state.turns,
        "in_a_row": state.passes_in_a_row,
        "max_turns": rules.MAX_TURNS,
        "seen": seen,
    }


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
    after = _search.playout(t.kernel, position(state, t), stop, rng.getrandbits(64))
    _replay(state, t, after["moves"])
    assert (state.turns, state.to_move) == (after["turns"], after["to_move"]), "the kernel's turns"
    state.passes_in_a_row, state.ended = after["in_a_row"], ENDS[after["end"]]
    state._turn = None
    c = state.counters
    for name in ("passes", "legal_moves", "decisions", "special_turns"):
        c[name] += after[name]
    if state.ended is not None:
        c["isolated_left"] = after["isolated_left"]
    return True


def tree_search(
    state: rules.State,
    rng: random.Random,
    settings: fastpath.SearchSettings,
) -> dict[rules.Action, int] | None:
    """`state.tree_search`: `pnp.play.mcts.MctsBot.search` from this decision on the kernel
    (`_tree.h`), the same visits and `rng` left where the readable search leaves it; None,
    `rng` untouched, where there is no kernel for this board or the game is over."""
    t = tables(state.model)
    if t is None or state.ended is not None:
        return None
    packed = position(state, t)
    search = settings.fields()
    return fastpath.compiled_visits(
        rng,
        state.legal_actions(),
        lambda words: _search.tree_search(t.kernel, packed, search, words),
    )


def _replay(state: rules.State, t: Tables, moves: Sequence[int]) -> None:
    """The kernel's turns into the state's tiles, pawns, history and positions seen."""
    tiles, pawns, players = list(state.tiles), state.pawns, state.players
    to_move, move_of = state.to_move, t.move
    played, seen = state.history.append, state.seen.add
    for code in moves:
        move = move_of(code)
        if move is not rules.PASS:
            (a, b), to = move
            tiles[a], tiles[b] = tiles[b], tiles[a]
            pawns[to_move] = to
        played(move)
        to_move = (to_move + 1) % players
        seen((tuple(tiles), tuple(pawns), to_move))
    state.tiles, state.to_move = tiles, to_move
    state.turns += len(moves)


KERNEL = fastpath.attach(
    rules.State,
    fastpath.Implementation(
        "kernel",
        _search is not None,
        playout=playout,
        tree_search=tree_search,
    ),
)
