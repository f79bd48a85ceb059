"""A game against its conformance data (`<folder>/<slug>.json`, the schema of
`pnp.reference.conformance`): the file is there and covers every bot and way to finish, each
recorded game replays step by step (its trace and its searches too) on every implementation the
game declares (`GameDef.implementations`), the bots make the recorded choices, `play_one`
ends each seed's game as recorded on each implementation, and the perft counts hold.

`python -m pnp.reference.conformance_data SLUG` (`make conformance GAME=slug` in pnp's checkout)
rewrites a file after a deliberate change of the rules; review its diff.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from pnp.contract.gamedef import GameDef
from pnp.play import fastpath
from pnp.reference.conformance import (
    MAX_BYTES,
    check_bots,
    check_perft,
    check_play_one,
    check_searches,
    default_games,
    label,
    replay,
    start,
)

__all__ = [
    "check_bots",
    "check_data",
    "check_perft",
    "check_play_one",
    "check_searches",
    "check_implementations",
    "entries",
    "implementation",
    "label",
    "load",
    "readable_rules",
    "replay",
    "state_class",
]


def rewrite_hint(slug: str) -> str:
    return (
        f"python -m pnp.reference.conformance_data {slug} (make conformance GAME={slug}) "
        "rewrites it"
    )


def load(folder: Path, slug: str) -> dict[str, Any] | None:
    """A game's data file, or None where it has none."""
    path = folder / f"{slug}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def entries(data: dict[str, Any] | None, key: str) -> list[dict[str, Any]]:
    """A data file's recorded games (`key` "games") or perft positions ("perft")."""
    return list(data[key]) if data is not None else []


def check_data(game: GameDef, folder: Path) -> None:
    """The game ships its data: recorded games and perft counts, every bot and every way
    to finish shown, every case one the engine still plays (its player counts and bots),
    and small enough to review."""
    engine = game.engine
    assert engine is not None, f"{game.slug} has no rules engine"
    path = folder / f"{game.slug}.json"
    assert path.exists(), f"{game.slug} has no {path}: {rewrite_hint(game.slug)}"
    data = load(folder, game.slug)
    assert data is not None and data["game"] == game.slug
    assert data["games"] and data["perft"], f"{path}: no recorded games or no perft counts"
    players = range(engine.MIN_PLAYERS, engine.MAX_PLAYERS + 1)
    stale = [
        label(case)
        for case in [*data["games"], *data["perft"]]
        if case["players"] not in players or case.get("bot", engine.BOTS[0]) not in engine.BOTS
    ]
    assert not stale, f"{path}: cases the engine no longer plays ({stale[:3]}): " + rewrite_hint(
        game.slug
    )
    assert {g["bot"] for g in data["games"]} == set(engine.BOTS)
    finishes = {t.value for t in engine.TERMINATION if t.finish}
    assert finishes <= {g["end"] for g in data["games"]}, "a way to finish no game shows"
    assert path.stat().st_size < MAX_BYTES


@contextmanager
def readable_rules(game: GameDef) -> Iterator[None]:
    """The readable rules alone: no compiled hook runs and no engine plays on a kernel
    (`pnp.play.fastpath.using`)."""
    with fastpath.using(fastpath.READABLE):
        yield


def state_class(game: GameDef) -> type:
    """The class of the game's readable `State` (what its implementations attach to)."""
    case = default_games(game)[0]
    return type(start(game, case, random.Random(case["seed"]))[1])


def check_implementations(game: GameDef) -> None:
    """The game declares its implementations, the readable rules first, and every one
    attached to its `State` through `pnp.play.fastpath` among them."""
    declared = game.implementations
    assert declared and declared[0] == fastpath.READABLE, (
        f"{game.slug}: implementations must begin with {fastpath.READABLE!r}, got {declared}"
    )
    assert len(set(declared)) == len(declared), f"{game.slug}: a name twice in {declared}"
    attached = fastpath.names(state_class(game))
    missing = [name for name in attached if name not in declared]
    assert not missing, f"{game.slug}: {missing} attached but not in its implementations"


@contextmanager
def implementation(game: GameDef, name: str) -> Iterator[None]:
    """Run the game on implementation `name`; a test is skipped where it was not built
    here (pnp installed without a C compiler), except in CI, where that fails."""
    if not fastpath.available(state_class(game), name):
        if os.environ.get("CI"):
            pytest.fail(f"{game.slug}'s {name} implementation was not built")
        pytest.skip(f"{game.slug}'s {name} implementation was not built here")
    with fastpath.using(name):
        yield
