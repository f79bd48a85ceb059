"""Every built-in game against its conformance data (tests/conformance/<slug>.json, one
schema; see `pnp.conformance`; regenerate with ``make conformance GAME=slug``), through the
checks `pnp.testing.conformance` gives a plugin game's suite too.

For each built-in game with an engine: the readable rules replay every recorded game step
by step (legal-action counts, actions, the ending); the game's bots on the readable rules
make the recorded choices; `engine.play_one` (its fast path or kernel, where it has one)
ends each seed's game as recorded; and the perft counts hold. A failure names the
implementation, the case and the step. A plugin game installed beside pnp is left to its
own suite.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from toy_game import GAME as TOY
from toy_game import Engine as ToyEngine

from pnp.conformance import FAST, Mismatch, regenerate
from pnp.errors import PnpError
from pnp.gamedef import GameDef
from pnp.games import built_in_slugs, get_game
from pnp.testing.conformance import (
    check_bots,
    check_data,
    check_perft,
    check_play_one,
    entries,
    label,
    load,
    readable_rules,
    replay,
)

FOLDER = Path(__file__).parent / "conformance"
GAMES = {s: g for s in built_in_slugs() if (g := get_game(s)).engine is not None}
DATA = {slug: load(FOLDER, slug) for slug in GAMES}


def cases(key: str) -> list[Any]:
    """(game, entry) pairs of every file's `key` list, with readable ids."""
    return [
        pytest.param(GAMES[slug], entry, id=f"{slug}: {label(entry)}")
        for slug, data in DATA.items()
        for entry in entries(data, key)
    ]


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_ships_its_data_covering_every_bot_and_finish(slug):
    check_data(GAMES[slug], FOLDER)


@pytest.fixture
def readable(game):
    """The readable rules alone (`readable_rules`) for the case's game."""
    with readable_rules(game):
        yield


@pytest.mark.parametrize(("game", "entry"), cases("games"))
def test_the_readable_rules_replay_each_recorded_game(game, entry, readable):
    replay(game, entry)


@pytest.mark.parametrize(("game", "entry"), cases("games"))
def test_the_games_bots_make_the_recorded_choices(game, entry, readable):
    check_bots(game, entry)


@pytest.mark.parametrize(("game", "entry"), cases("games"))
def test_play_one_ends_each_recorded_game_as_recorded(game, entry):
    check_play_one(game, entry)


@pytest.mark.parametrize(("game", "case"), cases("perft"))
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


class TwoSeats(ToyEngine):
    """The toy's engine after its designer made it a two-player game: more seats refused."""

    MIN_PLAYERS = MAX_PLAYERS = DEFAULT_PLAYERS = 2

    def prepare(self, params, players):
        if players != 2:
            raise PnpError(f"lamps is a game for two, not {players}")
        return super().prepare(params, players)


class UpToFour(ToyEngine):
    MAX_PLAYERS = 4


def test_regenerating_after_a_change_of_player_counts_keeps_what_still_plays(tmp_path):
    """`make conformance GAME=slug` after the player counts change: the cases the engine no
    longer plays are dropped (the check names them until then), the others are kept as they
    were, and a player count no case has gets the default cases."""
    old = regenerate(TOY, None)
    assert {g["players"] for g in old["games"]} == {1, 2, 3}
    two = dataclasses.replace(TOY, engine=TwoSeats())
    (tmp_path / "lamps.json").write_text(json.dumps(old))
    with pytest.raises(AssertionError, match="no longer plays .*make conformance GAME=lamps"):
        check_data(two, tmp_path)

    new = regenerate(two, old)
    assert {g["players"] for g in new["games"]} == {2}
    assert new["games"] == [g for g in old["games"] if g["players"] == 2]
    assert [c["players"] for c in new["perft"]] == [2]
    (tmp_path / "lamps.json").write_text(json.dumps(new))
    check_data(two, tmp_path)

    wider = regenerate(dataclasses.replace(TOY, engine=UpToFour()), old)
    assert wider["games"][: len(old["games"])] == old["games"]
    assert {g["players"] for g in wider["games"][len(old["games"]) :]} == {4}
