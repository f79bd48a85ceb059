"""The registry: every game pnp knows: the built-in ones in one explicit list, then those
other installed packages declare (`pnp.games.plugins`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from pnp.errors import PnpError
from pnp.gamedef import GameDef
from pnp.games.plugins import plugins
from pnp.templating import use_game_templates

__all__ = ["GameDef", "get_game", "registered", "registry"]


_EXTRA: dict[str, GameDef] = {}


@contextmanager
def registered(game: GameDef) -> Iterator[GameDef]:
    """Register a game for the duration of a `with` block: tests plug a throwaway game into
    the whole product this way, exactly as a real one is plugged in by the list below."""
    _EXTRA[game.slug] = game
    try:
        yield game
    finally:
        del _EXTRA[game.slug]


def registry() -> dict[str, GameDef]:
    from pnp.games.building_community import game as building_community
    from pnp.games.desert_home import game as desert_home
    from pnp.games.exploding_dice import game as exploding_dice
    from pnp.games.home_in_one_piece import game as home_in_one_piece
    from pnp.games.parcheesi import game as parcheesi

    games = [
        exploding_dice.GAME,
        building_community.GAME,
        parcheesi.GAME,
        home_in_one_piece.GAME,
        desert_home.GAME,
    ]
    built_in = {g.slug: g for g in games}
    every = built_in | plugins(frozenset(built_in)) | _EXTRA
    for game in _EXTRA.values():
        use_game_templates(game.slug, game.templates)
    return every


def get_game(slug: str) -> GameDef:
    games = registry()
    if slug not in games:
        raise PnpError(f"unknown game '{slug}': choose one of {', '.join(games)} (see 'pnp list')")
    return games[slug]
