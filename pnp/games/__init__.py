"""The registry: every game pnp knows, in one explicit list."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from pnp.errors import PnpError


@dataclass(frozen=True)
class GameDef:
    slug: str
    title: str
    blurb: str
    default_params: Callable[[], Any]
    build_kit: Callable[..., Any]  # (params, printing) -> Kit
    checks: Callable[..., list]  # (kit) -> list[Finding]
    engine: Any = None  # the game's simulation module (pnp.outcome contract), if any
    solver: Any = None  # a module with solve(model, players, budget) -> SolveResult, if any
    documents: tuple[tuple[str, str], ...] = ()  # (name, title) of PDFs beyond the main one
    variants: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Named configs (config keys -> values) the golden files also cover, as Boxes.py's
    examples do: what a designer is likely to change, kept from drifting unseen."""


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
    from pnp.games.exploding_dice import game as exploding_dice
    from pnp.games.home_in_one_piece import game as home_in_one_piece
    from pnp.games.parcheesi import game as parcheesi

    games = [
        exploding_dice.GAME,
        building_community.GAME,
        parcheesi.GAME,
        home_in_one_piece.GAME,
    ]
    return {g.slug: g for g in games} | _EXTRA


def get_game(slug: str) -> GameDef:
    games = registry()
    if slug not in games:
        raise PnpError(f"unknown game '{slug}': choose one of {', '.join(games)} (see 'pnp list')")
    return games[slug]
