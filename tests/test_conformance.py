"""Every game against its conformance data (tests/conformance/<slug>.json, one schema; see
`pnp.conformance`; regenerate with ``make conformance``).

For each registered game with an engine: the readable rules replay every recorded game step
by step (legal-action counts, actions, the ending); the game's bots on the readable rules
make the recorded choices; `engine.play_one` (its fast path or kernel, where it has one)
ends each seed's game as recorded; and the perft counts hold. A failure names the
implementation, the case and the step.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from pnp.conformance import (
    FAST,
    MAX_BYTES,
    Mismatch,
    check_bots,
    check_perft,
    check_play_one,
    label,
    replay,
)
from pnp.gamedef import GameDef
from pnp.games import registry

FOLDER = Path(__file__).parent / "conformance"
GAMES = {slug: game for slug, game in registry().items() if game.engine is not None}


def data_of(slug: str) -> dict[str, Any] | None:
    path = FOLDER / f"{slug}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


DATA = {slug: data_of(slug) for slug in GAMES}


def entries(key: str) -> list[Any]:
    """(game, entry) pairs of every file's `key` list, with readable ids."""
    return [
        pytest.param(GAMES[slug], entry, id=f"{slug}: {label(entry)}")
        for slug, data in DATA.items()
        if data is not None
        for entry in data[key]
    ]


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_ships_its_data_covering_every_bot_and_finish(slug):
    path = FOLDER / f"{slug}.json"
    assert path.exists(), f"{slug} has no {path}: run python -m pnp.conformance_data {slug}"
    data = DATA[slug]
    assert data is not None and data["game"] == slug
    assert data["games"] and data["perft"], f"{path}: no recorded games or no perft counts"
    assert {g["bot"] for g in data["games"]} == set(GAMES[slug].engine.BOTS)
    finishes = {t.value for t in GAMES[slug].engine.TERMINATION if t.finish}
    assert finishes <= {g["end"] for g in data["games"]}, "a way to finish no game shows"
    assert path.stat().st_size < MAX_BYTES


@pytest.fixture
def readable(monkeypatch, game):
    """The readable rules alone: an engine whose states take results from its kernel
    (Parcheesi's rolls, for the tree search) makes plain readable-rules states here."""
    module = game.engine  # the GameDef of the case
    if getattr(module, "_kernel", None) is not None:
        monkeypatch.setattr(module, "_kernel", None)


@pytest.mark.parametrize(("game", "entry"), entries("games"))
def test_the_readable_rules_replay_each_recorded_game(game, entry, readable):
    replay(game, entry)


@pytest.mark.parametrize(("game", "entry"), entries("games"))
def test_the_games_bots_make_the_recorded_choices(game, entry, readable):
    check_bots(game, entry)


@pytest.mark.parametrize(("game", "entry"), entries("games"))
def test_play_one_ends_each_recorded_game_as_recorded(game, entry):
    check_play_one(game, entry)


@pytest.mark.parametrize(("game", "case"), entries("perft"))
def test_perft_counts_from_each_recorded_position(game, case, readable):
    check_perft(game, case)


def first_choice(entry: dict[str, Any]) -> int:
    """The first step where a seat chose among several actions."""
    return next(i for i, n in enumerate(entry["legal"]) if n > 1)


@pytest.mark.parametrize("slug", [s for s in GAMES if DATA[s] is not None])
def test_a_changed_step_count_or_ending_is_reported_with_who_and_where(slug):
    """The checks can fail: each fault in the data is named with its implementation and step."""
    game: GameDef = GAMES[slug]
    entry = DATA[slug]["games"][0]  # type: ignore[index]
    step = first_choice(entry)

    wrong = copy.deepcopy(entry)
    wrong["legal"][step] += 1
    with pytest.raises(Mismatch, match=rf"^readable rules, .*, step {step}: \d+ legal actions"):
        replay(game, wrong)

    wrong = copy.deepcopy(entry)
    wrong["actions"][step] = "no such action"
    with pytest.raises(Mismatch, match=rf"^readable rules, .*, step {step}: no such action"):
        replay(game, wrong)
    with pytest.raises(Mismatch, match=rf"^readable rules with the .* bot, .*, step {step}: "):
        check_bots(game, wrong)

    wrong = copy.deepcopy(entry)
    wrong["turns"] += 1
    with pytest.raises(Mismatch, match="^readable rules, .*: ended"):
        replay(game, wrong)
    with pytest.raises(Mismatch, match="^" + re.escape(FAST) + ", .*: ended"):
        check_play_one(game, wrong)

    case = dict(DATA[slug]["perft"][0], nodes=DATA[slug]["perft"][0]["nodes"] + 1)  # type: ignore[index]
    with pytest.raises(Mismatch, match="^readable rules, perft .* recorded"):
        check_perft(game, case)
