"""Exploding Dice conformance: the recorded games and perft counts of
`tests/conformance/exploding-dice.json` (written by `make_exploding_dice.py`).

The readable rules must replay every recorded game step by step; the table-driven fast
path and `play_one` on the readable rules must end each game the same way for its seed.
A failure names the implementation that differs, and where.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from pnp.conformance import Mismatch, Recorded, perft, replay
from pnp.games.exploding_dice import engine
from pnp.games.exploding_dice.params import ExplodingDiceParams, PlayModel, play_model
from pnp.games.exploding_dice.rules import State
from pnp.params import apply_values
from pnp.state import CHANCE

DATA = json.loads(
    (Path(__file__).parent / "conformance" / "exploding-dice.json").read_text(encoding="utf-8")
)
GAMES: list[dict[str, Any]] = DATA["games"]
FIELDS = ("end", "winners", "turns", "scores")


def model_of(kit: str) -> PlayModel:
    return play_model(apply_values(ExplodingDiceParams(), DATA["kits"][kit]))


def start(game: dict[str, Any]) -> State:
    """The game's first position: the deal its seed makes."""
    rng = random.Random(game["seed"])
    return engine.new_state(model_of(game["kit"]), game["players"], rng, game["two_colours"])


def recorded(game: dict[str, Any]) -> Recorded:
    return Recorded.from_json({k: v for k, v in game.items() if k in Recorded.__annotations__})


def label(game: dict[str, Any]) -> str:
    two = ", two colours each" if game["two_colours"] else ""
    return f"{game['kit']} kit, {game['players']} players, {game['bot']}{two}"


def check_ends_as_recorded(who: str, game: dict[str, Any], rec: Any) -> None:
    """`rec` (a `GameRecord`) ends as the recorded game did, or a `Mismatch` naming `who`."""
    got = {"end": rec.end, "winners": list(rec.winners), "turns": rec.turns}
    got["scores"] = list(rec.scores)
    want = {k: game[k] for k in FIELDS}
    if got != want:
        raise Mismatch(f"{who}, {label(game)}, seed {game['seed']}: {got}, recorded {want}")


@pytest.mark.parametrize("game", GAMES, ids=[g["seed"] for g in GAMES])
def test_the_readable_rules_replay_every_recorded_game(game):
    replay(start(game), recorded(game), who=f"readable rules ({label(game)})")


@pytest.mark.parametrize("game", GAMES, ids=[g["seed"] for g in GAMES])
def test_every_implementation_ends_each_recorded_game_the_same_way(game):
    model = model_of(game["kit"])
    args = (model, game["players"], game["bot"], game["seed"])
    two = game["two_colours"]
    readable = engine.play_one(*args, two_colours=two, reference=True)
    check_ends_as_recorded("play_one on the readable rules", game, readable)
    if engine._tables(model) is not None:
        fast = engine.play_one(*args, two_colours=two)
        check_ends_as_recorded("the fast path", game, fast)
        assert fast == readable, f"the fast path's record differs from the readable rules' {fast}"


def test_the_recorded_games_cover_every_implementation_and_rare_turn():
    """The data is worth replaying: both paths, both bots, and the rare endings."""
    fast = {engine._tables(model_of(g["kit"])) is not None for g in GAMES}
    assert fast == {True, False}
    assert {g["bot"] for g in GAMES} == {"random", "greedy"}
    assert {g["end"] for g in GAMES} >= {"fifty", "full", "stalled", "reserve"}


def position(index: int, steps: int) -> State:
    """Recorded game `index` after its first `steps` actions."""
    state = start(GAMES[index])
    for text in GAMES[index]["actions"][:steps]:
        at_chance = state.current_player() == CHANCE
        options = [a for a, _ in state.chance_outcomes()] if at_chance else state.legal_actions()
        state.apply({state.action_str(a): a for a in options}[text])
    return state


@pytest.mark.parametrize("pos", DATA["perft"], ids=lambda p: f"game{p['game']}+{p['steps']}")
def test_perft_counts_from_fixed_positions(pos):
    state = position(pos["game"], pos["steps"])
    counts = [perft(state, d) for d in range(1, len(pos["counts"]) + 1)]
    assert counts == pos["counts"], f"readable rules: perft {counts}, recorded {pos['counts']}"
