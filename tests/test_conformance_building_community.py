"""Building Community against its conformance data (tests/conformance/building-community.json,
written by tests/conformance/make_building_community.py): the readable rules replay every
recorded game and meet every perft count, the generic bots make the recorded choices, the
fast path ends each game the same way, and the solver's lines replay to a win."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from pnp.conformance import Mismatch, Recorded, line_str, perft, record_game, replay
from pnp.games.building_community import engine, rules, solver
from pnp.games.building_community.model import PlayModel, play_model
from pnp.games.building_community.params import BuildingCommunityParams
from pnp.outcome import GameRecord
from pnp.state import State

DATA = json.loads(
    (Path(__file__).parent / "conformance" / "building-community.json").read_text("utf-8")
)


def model_of(entry: dict[str, Any]) -> PlayModel:
    return play_model(BuildingCommunityParams(**entry["params"]))


def game_of(entry: dict[str, Any]) -> Recorded:
    fields = ("seed", "actions", "legal", "end", "winners", "turns", "scores")
    return Recorded.from_json({k: entry[k] for k in fields})


def start(entry: dict[str, Any]) -> rules.State:
    return engine.new_state(
        model_of(entry), entry["players"], random.Random(entry.get("seed", DATA["game"]))
    )


def walk(state: State[Any], names: list[str]) -> None:
    """Play actions given in the game's notation, each one legal where it is played."""
    for step, name in enumerate(names):
        by_name = {state.action_str(a): a for a in state.legal_actions()}
        if name not in by_name:
            raise Mismatch(f"step {step}: {name} is not legal")
        state.apply(by_name[name])


def same_end(who: str, record: GameRecord, recorded: Recorded) -> None:
    """`record` ends `recorded`'s game the same way, or a `Mismatch` naming `who`."""
    got = (record.end, list(record.winners), record.turns, list(record.scores))
    want = (recorded.end, recorded.winners, recorded.turns, recorded.scores)
    if got != want:
        raise Mismatch(
            f"{who}, seed {recorded.seed}: ended (end, winners, turns, scores) {got}, "
            f"recorded {want}"
        )


def label(entry: dict[str, Any]) -> str:
    params = ",".join(f"{k}={v}" for k, v in entry["params"].items()) or "default"
    return f"{params}-{entry['players']}p-{entry.get('bot', '')}-{entry.get('seed', '')}"


GAMES = pytest.mark.parametrize("entry", DATA["games"], ids=label)


def test_the_data_covers_every_finish_both_bots_and_several_player_counts():
    games = DATA["games"]
    finishes = {t.value for t in engine.TERMINATION if t.finish}
    assert {g["end"] for g in games} == finishes
    assert {g["bot"] for g in games} == set(engine.BOTS)
    assert len({g["players"] for g in games}) >= 3


@GAMES
def test_the_readable_rules_replay_the_recorded_game(entry):
    replay(start(entry), game_of(entry))


@GAMES
def test_the_generic_bots_make_the_recorded_choices(entry):
    model, players = model_of(entry), entry["players"]
    bots = [engine.make_bot(entry["bot"], model)] * players
    assert record_game(start(entry), bots, entry["seed"]) == game_of(entry)


@GAMES
@pytest.mark.parametrize("reference", [False, True], ids=["fast path", "readable rules"])
def test_every_implementation_ends_the_recorded_game_the_same_way(entry, reference):
    record = engine.play_one(
        model_of(entry), entry["players"], entry["bot"], entry["seed"], reference=reference
    )
    same_end("readable rules" if reference else "fast path", record, game_of(entry))


def test_a_changed_game_is_reported_with_who_and_where():
    entry = DATA["games"][0]
    wrong = game_of(entry)
    wrong.legal[1] += 1
    with pytest.raises(Mismatch, match="readable rules, seed .*, step 1: .* legal actions"):
        replay(start(entry), wrong)
    wrong = game_of(entry)
    wrong.turns += 1
    record = engine.play_one(model_of(entry), entry["players"], entry["bot"], entry["seed"])
    with pytest.raises(Mismatch, match="fast path, seed"):
        same_end("fast path", record, wrong)


@pytest.mark.parametrize("entry", DATA["perft"], ids=label)
def test_perft_counts_from_the_recorded_positions(entry):
    state = start(entry)
    walk(state, entry["prefix"])
    assert perft(state, entry["depth"]) == entry["nodes"]


@pytest.mark.parametrize("entry", DATA["solve"], ids=label)
def test_the_solvers_line_replays_to_a_win_through_the_state_api(entry):
    model, players = model_of(entry), entry["players"]
    result = solver.solve(model, players, entry["budget"])
    actions = [rules.turn_from_json(model, turn) for turn in result.line]
    assert result.result == entry["result"]
    assert line_str(start(entry), actions) == entry["line"]
    state = start(entry)
    walk(state, entry["line"])
    outcome = state.outcome()
    assert outcome is not None and outcome.finished
    assert outcome.winners == tuple(range(players)) and state.turns == len(entry["line"])
