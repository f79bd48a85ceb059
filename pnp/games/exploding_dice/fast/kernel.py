"""Exploding Dice's compiled kernel (`_kernel.c`) as the engine calls it.

The kernel plays whole games, random or greedy, with the same draws as the readable rules
(`rules.py`) and the table-driven fast path (`engine._play_fast`); its board is the play
model's (lines, neighbours, zones, start points, faces, reserve). It covers kits whose dice
of one colour share their faces on grids up to `MAX_N` x `MAX_N`; a larger grid plays on the
fast path, per-die faces on the readable rules (as without the kernel). Without a C
compiler pnp installs without it, plays on the fast path and says so once.

`playout` is `State.playout` (a tree search's rollout: random play from a position of
the readable rules, on a generator seeded by one draw of the search's) and `tree_search`
the whole search of `pnp.play.mcts` in the kernel (`_tree.h`), those rollouts included; both
attach to the readable `State` through `pnp.play.fastpath`, the rules importing nothing here.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pnp.games.exploding_dice import rules
from pnp.games.exploding_dice.params import PlayModel
from pnp.games.exploding_dice.rules import State, Step, Termination
from pnp.games.exploding_dice.rules.grid import Board
from pnp.play import fastpath
from pnp.play.memo import PerModel
from pnp.play.outcome import GameRecord
from pnp.play.state import CHANCE
from pnp.runtime import notice

try:
    from pnp.games.exploding_dice.fast import _kernel
except ImportError:  # built without a C compiler: the Python fast path plays
    _kernel = None  # type: ignore[assignment]

MAX_N = 8
"""The largest grid side the kernel holds (a cell is a bit of a 64-bit word)."""
ENDS = tuple(t.value for t in (Termination.FIFTY, Termination.FULL, Termination.RESERVE))
ENDS += (Termination.STALLED.value, Termination.TIMEOUT.value)
"""How the kernel's games end, by its end codes (`_kernel.c`'s order): code 1, END_FIFTY,
first."""
ENDS_BY_CODE: tuple[Termination | None, ...] = (None, *(Termination(e) for e in ENDS))
"""A playout's end code (0: still playing) as the rules' `Termination`."""
NO_KERNEL = (
    "warning: Exploding Dice's compiled kernel is not built (no C compiler at install): "
    "playing on the Python fast path, slower"
)


def covers(model: PlayModel) -> bool:
    """Does the kernel play this kit? Dice of one colour must share their faces (else a
    draw among them is a chance step of its own) and the grid be at most `MAX_N` wide."""
    colours = range(len(model.colours))
    uniform = all(len({d.faces for d in model.dice if d.colour == c}) == 1 for c in colours)
    return uniform and len(model.colours) == 4 and model.n <= MAX_N


def board_fields(model: PlayModel) -> dict[str, Any]:
    """The kernel's board by name (`_kernel.c`'s ``BOARD``): the grid side, each entry's
    line (row after row), each cell's neighbour mask, each zone's mask, the start cells,
    each colour's faces (row after row) and reserve, the stall rule."""
    board = Board.of(model)
    colours = range(len(model.colours))
    return {
        "n": model.n,
        "lines": [cell for line in board.lines for cell in line],
        "neighbours": [sum(1 << j for j in nbs) for nbs in board.neighbours],
        "zones": [sum(1 << c for c in cells) for cells in board.zones],
        "starts": list(board.starts),
        "faces": [f for c in colours for f in next(d.faces for d in model.dice if d.colour == c)],
        "reserve": [sum(d.colour == c for d in model.dice) - 1 for c in colours],
        "skip": model.stall == "skip",
    }


def _board(model: PlayModel) -> Any:
    """The kernel's copy of the board, or None for a kit it does not cover."""
    if _kernel is None or not covers(model):
        return None
    return _kernel.board(board_fields(model))


boards: PerModel[PlayModel, Any] = PerModel(_board)


def missing() -> bool:
    """True when the kernel does not play here: not built (said once per process), or
    another implementation chosen (`pnp.play.fastpath.using`)."""
    if _kernel is None:
        notice.once(NO_KERNEL)
        return True
    return fastpath.active(State) is None


def _records(
    model: PlayModel, players: int, each: int, games: Sequence[_kernel.Game]
) -> list[GameRecord]:
    """The kernel's games, by name, as `rules.game_record` makes them (the kernel adds up
    the seats' scores and finds the winners; the tests hold both to the same records)."""
    deals = rules._deals(len(model.colours), players, each)
    names = [rules._names(model.colours, owners) for owners in deals]
    return [
        GameRecord(
            game["turns"],
            ENDS[game["end"] - 1],
            game["scores"],
            game["winners"],
            names[game["deal"]],
            game["leaders"],
        )
        for game in games
    ]


def settings(players: int, each: int, greedy: bool) -> dict[str, Any]:
    """A whole game's settings as the kernel names them (`_kernel.c`'s ``SETTINGS``)."""
    return {
        "players": players,
        "each": each,
        "greedy": greedy,
        "max_turns": rules.MAX_TURNS,
        "target": rules.TARGET,
    }


def play(
    model: PlayModel, players: int, each: int, greedy: bool, rng: random.Random
) -> GameRecord | None:
    """One game drawing from `rng`'s own Mersenne Twister state (handed over and taken
    back, so the generator ends as the readable rules leave it); None when the kernel does
    not play this kit."""
    board = None if missing() else boards(model)
    if board is None:
        return None
    version, words, gauss = rng.getstate()
    game, words = _kernel.play(board, settings(players, each, greedy), words)
    rng.setstate((version, words, gauss))
    return _records(model, players, each, [game])[0]


def play_seeded(
    model: PlayModel, players: int, each: int, greedy: bool, seeds: Sequence[str]
) -> list[GameRecord] | None:
    """One game per seed text, each on what `random.Random(text)` would draw (the kernel
    seeds its own generator); None when the kernel does not play this kit."""
    board = None if missing() else boards(model)
    if board is None:
        return None
    games = _kernel.play_seeded(board, settings(players, each, greedy), seeds)
    return _records(model, players, each, games)


def _dice_by_colour(model: PlayModel) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Each die's colour, and each colour's dice in id order."""
    colour_of = tuple(d.colour for d in model.dice)
    colours = range(len(model.colours))
    return colour_of, tuple(tuple(d for d, c in enumerate(colour_of) if c == k) for k in colours)


_colours: PerModel[PlayModel, tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]] = PerModel(
    _dice_by_colour
)


def position(state: State) -> dict[str, Any]:
    """`state` as the kernel names a position (`_kernel.c`'s ``POSITION``): each colour's
    dice as one (they share their faces in a kit the kernel plays), the cells as colour *
    8 + face or -1, the reserve by colour, the step by its order in `rules.Step`."""
    model = state.model
    colour_of, _ = _colours(model)
    held = [0] * len(model.colours)
    for d in state.reserve:
        held[colour_of[d]] += 1
    first_die, first_face = state.first
    return {
        "players": state.players,
        "each": len(state.owners[0]),
        "max_turns": rules.MAX_TURNS,
        "target": rules.TARGET,
        "standing": getattr(state, "standing", None) is not None,
        "owners": [c for mine in state.owners for c in mine],
        "cells": [
            -1 if d is None else colour_of[d] * 8 + f
            for d, f in zip(state.grid, state.shown, strict=True)
        ],
        "reserve": held,
        "scores": state.scores,
        "seat": state.seat,
        "turns": state.turns,
        "quiet": state.quiet_turns,
        "leader": state.leaders[-1] if state.leaders else -1,
        "step": list(Step).index(state.step),
        "options": state.options,
        "tried": state.tried,
        "colour": state.colour,
        "face": state.face,
        "first_colour": colour_of[first_die] if first_die >= 0 else -1,
        "first_face": first_face,
    }


def playout(state: State, rng: random.Random, stop: int) -> bool:
    """`State.playout` on the kernel: random play from `state` until the game ends or
    `stop` turns are played, in place, on `random.Random(n)`'s draws, n being one draw of
    `rng`; False (no draw) for a kit the kernel does not play. The kernel takes a turn
    under way from its first colour drawn; a redraw under way (the `redraw` stall rule) is
    finished on the readable rules first, drawing from `rng`. Dice of one colour share
    their faces in a kit the kernel plays, so the kernel keeps colours, not dice: the grid
    written back holds each colour's dice in id order, an equal position (the rules never
    tell two dice of a colour apart)."""
    if boards(state.model) is None:
        return False
    while state.ended is None and state.turns < stop and state.redrawing():
        chance = state.current_player() == CHANCE
        state.apply(state.sample_chance(rng) if chance else state.random_action(rng))
    if state.ended is not None or state.turns >= stop:
        return True
    model = state.model
    after = _kernel.playout(boards(model), position(state), stop, rng.getrandbits(64))
    _, dice_of = _colours(model)
    dice = [list(ids) for ids in dice_of]
    cells = after["cells"]
    state.grid, state.shown = [None] * len(cells), [0] * len(cells)
    for cell, code in enumerate(cells):
        if code >= 0:
            state.grid[cell], state.shown[cell] = dice[code >> 3].pop(0), code & 7
    state.reserve = sorted(d for left in dice for d in left)
    state.scores, state.seat = list(after["scores"]), after["seat"]
    state.turns, state.quiet_turns = after["turns"], after["quiet"]
    state.leaders += after["leaders"]
    state.ended = ENDS_BY_CODE[after["end"]]
    if state.ended is None:
        rules.begin_turn(state)
    return True


def tree_search(
    state: State,
    rng: random.Random,
    settings: fastpath.SearchSettings,
) -> dict[int, int] | None:
    """`state.tree_search`: `pnp.play.mcts.MctsBot.search` from this decision, compiled
    (`_tree.h`), the same visits in the same order, `rng` left where the readable search
    leaves it; None (rng untouched) where the kernel is not built or does not play this
    kit, or the position is not a decision."""
    board = None if _kernel is None else boards(state.model)
    if board is None or state.current_player() < 0:
        return None
    packed = position(state)
    search = settings.fields()
    return fastpath.compiled_visits(
        rng,
        state.legal_actions(),
        lambda words: _kernel.tree_search(board, packed, search, words),
    )


KERNEL = fastpath.attach(
    State,
    fastpath.Implementation(
        "kernel", _kernel is not None, playout=playout, tree_search=tree_search
    ),
)
