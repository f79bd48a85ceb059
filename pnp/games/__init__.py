"""The registry: every game pnp knows: the built-in ones in one explicit list, then those
other installed packages declare (`pnp.games.plugins`)."""

from __future__ import annotations

import importlib
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


BUILT_IN = (
    "exploding_dice",
    "building_community",
    "parcheesi",
    "home_in_one_piece",
    "desert_home",
)
"""The built-in games in `pnp list` order: one line a game, naming its package under
`pnp.games`, whose `game` module holds its `GameDef` as `GAME`."""


def registry() -> dict[str, GameDef]:
    games = [importlib.import_module(f"pnp.games.{pkg}.game").GAME for pkg in BUILT_IN]
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
