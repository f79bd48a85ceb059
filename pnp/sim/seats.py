"""Who plays: the one check of a request's player count and bot against what a game's
engine declares, shared by `pnp simulate`, `pnp solve` and the bench."""

from __future__ import annotations

from pnp.errors import PnpError
from pnp.gamedef import Engine, GameDef


def engine_for(game: GameDef) -> Engine:
    """The game's simulation engine, or one line saying it has none."""
    if game.engine is None:
        raise PnpError(f"{game.slug} has no rules engine yet, so it cannot be simulated")
    return game.engine


def seat_count(game: GameDef, players: int | None = None, bot: str | None = None) -> int:
    """The number of seats to play (the game's default when `players` is None), once it
    and `bot` (when given) are checked: a `PnpError` naming what the game takes."""
    engine = engine_for(game)
    if players is None:
        players = engine.DEFAULT_PLAYERS
    lo, hi = engine.MIN_PLAYERS, engine.MAX_PLAYERS
    if not lo <= players <= hi:
        raise PnpError(f"{game.title} takes {lo} to {hi} players, got {players}")
    if bot is not None and bot not in engine.BOTS:
        raise PnpError(f"unknown bot '{bot}': choose one of {', '.join(engine.BOTS)}")
    return players
