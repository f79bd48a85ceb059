"""Every built-in game against its conformance data (tests/conformance/<slug>.json, one
schema; see `pnp.reference.conformance`; regenerate with ``make conformance GAME=slug``),
through the checks `pnp.testing.conformance` gives a plugin game's suite too.

For each built-in game with an engine, on every implementation it declares
(`GameDef.implementations`: the readable rules, its kernel, any Python fast path): each
recorded game replays step by step (legal-action counts, actions, the turns and standings
between them, the ending and its counters), the tree search makes the recorded root
visits at the recorded decisions, and `engine.play_one` ends each seed's game as
recorded. The game's bots on the readable rules make the recorded choices, and the perft
counts hold. A failure names the implementation, the case and the step. A plugin game
installed beside pnp is left to its own suite.
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

from pnp.contract.gamedef import GameDef
from pnp.games import built_in_slugs, get_game
from pnp.play import fastpath
from pnp.reference.conformance import FAST, Mismatch, regenerate
from pnp.runtime.errors import PnpError
from pnp.testing.conformance import (
    check_bots,
    check_data,
    check_implementations,
    check_perft,
    check_play_one,
    check_searches,
    entries,
    implementation,
    label,
    load,
    readable_rules,
    replay,
    state_class,
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


def implemented(key: str, whole_games: bool = True) -> list[Any]:
    """(game, entry, implementation) triples: each case on each declared implementation;
    without `whole_games`, only the readable rules and what attaches to their `State` (an
    engine's Python fast path plays whole games only: stepping on it is the readable rules
    again)."""
    return [
        pytest.param(GAMES[slug], entry, name, id=f"{slug} [{name}]: {label(entry)}")
        for slug, data in DATA.items()
        for entry in entries(data, key)
        for name in GAMES[slug].implementations
        if whole_games or name in fastpath.names(state_class(GAMES[slug]))
    ]


def readable_past(cases: list[Any], first: int) -> list[Any]:
    """`cases` with those on the readable rules past each game's `first` entries marked long."""
    seen: dict[str, int] = {}
    out = []
    for case in cases:
        game, _, name = case.values
        if name == fastpath.READABLE:
            seen[game.slug] = seen.get(game.slug, 0) + 1
            if seen[game.slug] > first:
                case = pytest.param(*case.values, id=case.id, marks=pytest.mark.long)
        out.append(case)
    return out


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_declares_its_implementations(slug):
    check_implementations(GAMES[slug])


@pytest.mark.parametrize(("game", "entry", "name"), implemented("games", whole_games=False))
def test_every_implementation_replays_each_recorded_game_step_by_step(game, entry, name):
    with implementation(game, name):
        replay(game, entry, name)


# A search on the readable rules takes a second or more: CI makes the first two games'
# searches there (and every one on the other implementations, which must give the recorded
# answer, the readable rules' own); the long tier makes all of them.
@pytest.mark.parametrize(
    ("game", "entry", "name"), readable_past(implemented("games", whole_games=False), 2)
)
def test_every_implementation_makes_the_recorded_searches(game, entry, name):
    with implementation(game, name):
        check_searches(game, entry, name)


@pytest.mark.parametrize(("game", "entry", "name"), implemented("games"))
def test_every_implementation_ends_each_recorded_game_as_recorded(game, entry, name):
    with implementation(game, name):
        check_play_one(game, entry, name)


@pytest.mark.parametrize(("game", "entry"), cases("games"))
def test_the_games_bots_make_the_recorded_choices(game, entry, readable):
    check_bots(game, entry)


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

    turn = entry["turn_ends"][0]
    wrong = copy.deepcopy(entry)
    wrong["turn_ends"][0] += 1
    with pytest.raises(Mismatch, match=rf"^readable rules, .*, step {turn}: ended a turn"):
        replay(game, wrong)
    if entry["standings"]:
        wrong = copy.deepcopy(entry)
        wrong["standings"][0][0] += 1
        with pytest.raises(Mismatch, match=rf"^readable rules, .*, step {turn}: standing"):
            replay(game, wrong)
    if entry["counters"]:
        wrong = copy.deepcopy(entry)
        name = next(iter(entry["counters"]))
        wrong["counters"][name] += 1
        with pytest.raises(Mismatch, match=rf"^readable rules, .*: ended with counters {name}"):
            replay(game, wrong)
    at, visits = entry["searches"][0]
    wrong = copy.deepcopy(entry)
    wrong["searches"][0][1][0][1] += 1
    with (
        readable_rules(game),
        pytest.raises(Mismatch, match=rf"^readable, .*, step {at}: the search"),
    ):
        check_searches(game, wrong, "readable")

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
