"""The registry: every game pnp knows: the built-in ones in one explicit list, then those
other installed packages declare (`pnp.games.plugins`).

A built-in game's slug is its package name with dashes, so a command that names one game
imports that game's `game` module alone, and no plugin (a plugin may not take a built-in
slug). A `game` module holds the registration only: its print side (components, layout,
rendering) is imported by `build_kit` and the checks when a kit is made, so resolving a
game to simulate it loads its rules and nothing that draws."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager

from pnp.contract.gamedef import GameDef
from pnp.runtime.errors import PnpError

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


def built_in_slugs() -> dict[str, str]:
    """{slug: package} of the built-in games, known without importing any of them."""
    return {pkg.replace("_", "-"): pkg for pkg in BUILT_IN}


def _built_in(slug: str, pkg: str) -> GameDef:
    game: GameDef = importlib.import_module(f"pnp.games.{pkg}.game").GAME
    if game.slug != slug:
        raise PnpError(f"pnp.games.{pkg} registers '{game.slug}': its slug must be '{slug}'")
    return game


def _extra(game: GameDef) -> GameDef:
    from pnp.draw.templating import use_game_templates

    use_game_templates(game.slug, game.templates)
    return game


def registry() -> dict[str, GameDef]:
    from pnp.games.plugins import plugins

    built_in = {slug: _built_in(slug, pkg) for slug, pkg in built_in_slugs().items()}
    every = built_in | plugins(frozenset(built_in)) | _EXTRA
    for game in _EXTRA.values():
        _extra(game)
    return every


def get_game(slug: str) -> GameDef:
    """One game: a built-in one without importing the others or looking for plugins."""
    if slug in _EXTRA:
        return _extra(_EXTRA[slug])
    known = built_in_slugs()
    if slug in known:
        return _built_in(slug, known[slug])
    games = registry()
    if slug not in games:
        raise PnpError(f"unknown game '{slug}': choose one of {', '.join(games)} (see 'pnp list')")
    return games[slug]
