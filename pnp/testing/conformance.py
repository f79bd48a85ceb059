"""A game against its conformance data (`<folder>/<slug>.json`, the schema of
`pnp.conformance`): the file is there and covers every bot and way to finish, each recorded
game replays on the readable rules, the bots make the recorded choices, `play_one` (fast
path or kernel) ends each seed's game as recorded, and the perft counts hold.

`python -m pnp.conformance_data SLUG` (`make conformance GAME=slug` in pnp's checkout)
rewrites a file after a deliberate change of the rules; review its diff.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from pnp.conformance import MAX_BYTES, check_bots, check_perft, check_play_one, label, replay
from pnp.gamedef import GameDef

__all__ = [
    "check_bots",
    "check_data",
    "check_perft",
    "check_play_one",
    "entries",
    "label",
    "load",
    "readable_rules",
    "replay",
]


def rewrite_hint(slug: str) -> str:
    return f"python -m pnp.conformance_data {slug} (make conformance GAME={slug}) rewrites it"


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
    """The readable rules alone: an engine whose states take results from its kernel
    (Parcheesi's rolls, for the tree search) makes plain readable-rules states inside."""
    with pytest.MonkeyPatch.context() as patch:
        if getattr(game.engine, "_kernel", None) is not None:
            patch.setattr(game.engine, "_kernel", None)
        yield
