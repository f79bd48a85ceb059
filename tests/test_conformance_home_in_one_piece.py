"""Home in One Piece conformance: the recorded games and perft counts of
tests/conformance/home-in-one-piece.json, replayed through the readable rules, and every
game replayed by the engine's play path for the same seed.

A turn's targets are continuous, so a recorded action is not looked up among
`legal_actions()` (a canonical sample) as `pnp.conformance.replay` does: it is read back
with `parse_action` (exact floats), must be legal, and the sample's size must match.
Regenerate the file with tests/conformance/make_home-in-one-piece.py.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from pnp.conformance import Mismatch, Recorded, perft
from pnp.games.home_in_one_piece import engine
from pnp.games.home_in_one_piece.params import HomeInOnePieceParams
from pnp.games.home_in_one_piece.state import State, parse_action
from pnp.state import CHANCE, TERMINAL

DATA = json.loads(
    (Path(__file__).parent / "conformance" / "home-in-one-piece.json").read_text("utf-8")
)


def kit(blobs: int, reach: str) -> Any:
    params = dataclasses.replace(HomeInOnePieceParams(), blobs_per_player=blobs)
    return engine.prepare(params, 2, reach=reach)


def replay(state: State, rec: Recorded, who: str = "readable rules") -> None:
    """Replay `rec` through `state`, raising `Mismatch` at the first difference."""
    for step, (text, legal) in enumerate(zip(rec.actions, rec.legal, strict=True)):
        where = f"{who}, seed {rec.seed}, step {step}"
        player = state.current_player()
        if player == TERMINAL:
            raise Mismatch(f"{where}: the game is over before {text}")
        if player != CHANCE and len(state.legal_actions()) != legal:
            raise Mismatch(f"{where}: {len(state.legal_actions())} listed turns, recorded {legal}")
        action = parse_action(text)
        if not state.is_legal(action):
            raise Mismatch(f"{where}: {text} is not legal")
        state.apply(action)
    got = state.record()
    outcome = state.outcome()
    if outcome is None:
        raise Mismatch(f"{who}, seed {rec.seed}: not over after the recorded actions")
    ended = (got.end, list(got.winners), got.turns, list(got.scores))
    want = (rec.end, rec.winners, rec.turns, rec.scores)
    if ended != want:
        raise Mismatch(f"{who}, seed {rec.seed}: ended {ended}, recorded {want}")


GAMES = [pytest.param(g, id=f"{g['bot']}-{g['game']['seed']}") for g in DATA["games"]]


@pytest.mark.parametrize("game", GAMES)
def test_the_readable_rules_replay_each_recorded_game(game):
    model = kit(game["blobs"], game["reach"])
    replay(engine.new_state(model, 2), Recorded.from_json(game["game"]))


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_plays_each_recorded_game_for_its_seed(game):
    rec = Recorded.from_json(game["game"])
    model = kit(game["blobs"], game["reach"])
    got = engine.play_one(model, 2, game["bot"], rec.seed)
    ended = (got.end, list(got.winners), got.turns, list(got.scores))
    assert ended == (rec.end, rec.winners, rec.turns, rec.scores), "engine.play_one differs"


@pytest.mark.parametrize("count", DATA["perft"], ids=lambda c: f"{c['blobs']}-{c['steps']}")
def test_perft_counts_from_fixed_positions(count):
    state = engine.new_state(kit(count["blobs"], count["reach"]), 2)
    if count["game"] is not None:
        for text in DATA["games"][count["game"]]["game"]["actions"][: count["steps"]]:
            state.apply(parse_action(text))
    assert perft(state, count["depth"]) == count["paths"]


def test_a_changed_target_or_roll_is_caught_and_located():
    game = DATA["games"][0]
    model = kit(game["blobs"], game["reach"])
    rec = Recorded.from_json(game["game"])
    step = next(i for i, a in enumerate(rec.actions) if ">" in a)
    moved = rec.actions[step].replace(">", ">1", 1).replace(",", ",1", 1)  # a far target
    tampered = dataclasses.replace(
        rec, actions=[*rec.actions[:step], moved, *rec.actions[step + 1 :]]
    )
    with pytest.raises(Mismatch, match=f"seed {rec.seed}"):
        replay(engine.new_state(model, 2), tampered)
    rolls = [("roll 0" if a == "roll 3" else a) for a in rec.actions]
    with pytest.raises(Mismatch):
        replay(engine.new_state(model, 2), dataclasses.replace(rec, actions=rolls))
