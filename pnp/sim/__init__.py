"""Solitaire-testing: the engine contract every game's simulation implements.

A game's engine is a module (or any object) with:

- ``BOTS``: tuple of bot names it knows (``"random"`` must be one of them);
- ``MIN_PLAYERS``, ``MAX_PLAYERS``: the player counts it accepts;
- ``prepare(params, players, two_colours=False) -> model``: validate once and build the
  picklable play model from the same params the kit is printed from (raises
  ``PnpError`` with one clear line for a kit that cannot be played);
- ``play_one(model, players, bot, seed, two_colours=False) -> GameRecord``: play one game;
  ``seed`` is anything ``random.Random`` accepts, or a ``random.Random`` to reuse;
- optionally ``warm(model)``: build lookup tables once in the parent process, so the
  forked workers inherit them instead of each building its own.

The runner (`pnp.sim.runner`) only ever talks to that contract, so every later game
plugs in by setting ``GameDef.engine``.
"""

from __future__ import annotations

from typing import NamedTuple


class GameRecord(NamedTuple):
    """What one finished game tells the metrics.

    Seats are in turn order: seat 0 played first. ``leaders`` holds, after each turn, the
    seat that leads alone, or -1 when the top score is shared. A named tuple, not a
    dataclass: a simulation makes one per game and builds them by the million.
    """

    turns: int
    end: str  # end reason, e.g. "fifty", "full", "stalled", "timeout"
    scores: tuple[int, ...]  # per seat
    winners: tuple[int, ...]  # seats sharing the win
    colours: tuple[tuple[str, ...], ...]  # per seat: the colours (sides) it played
    leaders: tuple[int, ...]


# End reasons that are not a real end of the rules: the metrics' `completion` leaves them out.
UNFINISHED = ("timeout", "stalled")
