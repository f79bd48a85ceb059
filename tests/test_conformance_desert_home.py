"""Desert Home's conformance data (tests/conformance/desert-home.json): every implementation
plays the recorded games and counts the perft paths as the readable rules did.

The readable rules replay each game step by step (legal-action counts, every action, the
end); the engine replays each seed on the readable rules and, for random games, in the
compiled kernel, and must end with the recorded record. A failure names the implementation
and the game. Regenerate the data with tests/conformance/make_desert_home.py.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from pnp.conformance import Mismatch, Recorded, perft, replay
from pnp.games.desert_home import engine
from pnp.games.desert_home.model import PlayModel
from pnp.games.desert_home.params import DesertHomeParams
from pnp.games.desert_home.state import State, new_state
from pnp.state import CHANCE

PATH = Path(__file__).parent / "conformance" / "desert-home.json"
# (read only if there: the maker imports this module's helpers before it writes the file)
DATA = json.loads(PATH.read_text()) if PATH.exists() else {"games": [], "perft": []}
GAMES = DATA["games"]
FIELDS = ("seed", "actions", "legal", "end", "winners", "turns", "scores")


def model_of(kit: dict[str, Any]) -> PlayModel:
    changes = {k: tuple(v) if isinstance(v, list) else v for k, v in kit.items()}
    return engine.prepare(DesertHomeParams(**changes), 2)


def walk(model: PlayModel, seed: str, steps: int) -> State:
    """The position after `steps` steps of a random game of `seed` (a perft start)."""
    rng = random.Random(seed)
    state = new_state(model, 2, rng)
    for _ in range(steps):
        chance = state.current_player() == CHANCE
        state.apply(state.sample_chance(rng) if chance else state.random_action(rng))
    assert not state.is_terminal(), "a perft position must be in play"
    return state


def recorded(game: dict[str, Any]) -> Recorded:
    return Recorded.from_json({k: game[k] for k in FIELDS})


def ids(game: dict[str, Any]) -> str:
    return f"{game['bot']}-{game['seed']}"


def test_the_data_covers_both_bots_every_end_and_stays_small():
    assert {g["bot"] for g in GAMES} == {"random", "greedy"}
    assert {g["end"] for g in GAMES} == {"refuge", "deck", "timeout"}
    assert PATH.stat().st_size < 200_000


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_the_readable_rules_replay_each_recorded_game(game):
    rec = recorded(game)
    state = new_state(model_of(game["kit"]), 2, random.Random(rec.seed), game["max_rounds"])
    replay(state, rec, "readable rules")


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_every_implementation_plays_each_recorded_game(game):
    """The seed's game on the readable rules (the State API through `pnp.forward.play`),
    and for random games in the compiled kernel, ends as recorded."""
    rec, model = recorded(game), model_of(game["kit"])
    want = (rec.end, tuple(rec.winners), rec.turns, tuple(rec.scores))
    ways = {"readable rules": True}
    if game["bot"] == "random" and engine._kernel is not None:
        ways["compiled kernel"] = False
    for who, reference in ways.items():
        got = engine.play_one(model, 2, game["bot"], rec.seed, game["max_rounds"], reference)
        if (got.end, got.winners, got.turns, got.scores) != want:
            raise Mismatch(
                f"{who}, seed {rec.seed}: ended (end, winners, turns, scores) "
                f"{(got.end, got.winners, got.turns, got.scores)}, recorded {want}"
            )


def test_a_changed_step_is_found_and_named():
    """The check can fail: one recorded action changed is a mismatch at that step."""
    game = next(g for g in GAMES if g["bot"] == "random")
    rec = recorded(game)
    step = next(i for i, n in enumerate(rec.legal) if n > 1)
    rec.actions[step] = "stop" if rec.actions[step] != "stop" else "draw"
    state = new_state(model_of(game["kit"]), 2, random.Random(rec.seed), game["max_rounds"])
    with pytest.raises(Mismatch, match=f"readable rules, seed {rec.seed}, step {step}"):
        replay(state, rec, "readable rules")


@pytest.mark.parametrize("case", DATA["perft"], ids=lambda c: f"{c['seed']}-{c['depth']}")
def test_perft_counts_from_fixed_positions(case):
    state = walk(model_of(case["kit"]), case["seed"], case["steps"])
    assert perft(state, case["depth"]) == case["count"]
