"""Parcheesi's conformance data (tests/conformance/parcheesi.json): every implementation plays
the recorded games and counts the perft paths as the readable rules did.

The readable rules replay each game step by step (legal-action counts, every action, the
end). `engine.play_one` replays each seed in the compiled kernel and on the readable rules
(the path without a kernel) and must end with the recorded record; when the kernel does
not, the test walks the game to the first roll whose allowed results differ. A failure
names the implementation and where. Regenerate the data with
tests/conformance/make_parcheesi.py.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from conformance.make_parcheesi import model_of, start, walk

from pnp.conformance import Mismatch, Recorded, perft, replay
from pnp.games.parcheesi import engine, rules
from pnp.games.parcheesi import state as game
from pnp.state import CHANCE

PATH = Path(__file__).parent / "conformance" / "parcheesi.json"
DATA = json.loads(PATH.read_text(encoding="utf-8"))
GAMES = DATA["games"]
FIELDS = ("seed", "actions", "legal", "end", "winners", "turns", "scores")
IMPLEMENTATIONS = ["compiled kernel", "readable rules"]


def recorded(game: dict[str, Any]) -> Recorded:
    return Recorded.from_json({k: game[k] for k in FIELDS})


def ids(game: dict[str, Any]) -> str:
    return game["seed"]


def kernel_moves(state: game.State) -> list[str]:
    """The kernel's allowed results of the roll being played, in the game's notation."""
    assert state.dice is not None
    pawns = [state.pawns[c] for c in range(4)]
    board = engine._boards(state.model)
    found = engine._kernel.results(
        board, state.seats, pawns, state.colour, *state.dice, state.standard
    )
    return [state.action_str(rules.Position(own, cap)) for own, cap in found]


def first_kernel_difference(game: dict[str, Any]) -> str:
    """Where the kernel's rules leave the recorded game: the first roll it plays otherwise."""
    state = start(game)
    for step, text in enumerate(game["actions"]):
        if state.current_player() != CHANCE:
            mine, theirs = kernel_moves(state), [state.action_str(a) for a in state.legal_actions()]
            if mine != theirs:
                extra = [m for m in mine if m not in theirs][:4]
                missing = [t for t in theirs if t not in mine][:4]
                return (
                    f"step {step} ({state.action_str(state.dice)}): the kernel offers "
                    f"{len(mine)} results, the rules {len(theirs)}; only the kernel's: "
                    f"{extra}, only the rules': {missing}"
                )
        walk(state, [text])
    return "every roll alike: the draws or the bot differ"


def test_the_data_covers_bots_players_rules_and_stays_small():
    assert {g["bot"] for g in GAMES} == {"random", "greedy"}
    assert {g["players"] for g in GAMES} == {2, 3, 4}
    assert {g["rules"] for g in GAMES} == {"seed", "standard"}
    assert PATH.stat().st_size < 200_000


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_the_readable_rules_replay_every_recorded_game(game):
    replay(start(game), recorded(game))


@pytest.mark.parametrize("who", IMPLEMENTATIONS)
@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_every_implementation_ends_each_recorded_game_as_recorded(game, who):
    if who == "compiled kernel" and engine._kernel is None:
        pytest.skip("pnp was installed without a C compiler: the kernel was not built")
    model = model_of(game["rules"])
    rng = random.Random(game["seed"])
    got = engine.play_one(
        model, game["players"], game["bot"], rng, reference=who == "readable rules"
    )
    want = (game["end"], game["winners"], game["turns"], game["scores"])
    if (got.end, list(got.winners), got.turns, list(got.scores)) != want:
        where = first_kernel_difference(game) if who == "compiled kernel" else ""
        raise Mismatch(
            f"{who}, seed {game['seed']}: ended (end, winners, turns, scores) "
            f"{got.end, list(got.winners), got.turns, list(got.scores)}, recorded {want}; {where}"
        )


@pytest.mark.parametrize("spot", DATA["perft"], ids=lambda p: f"game{p['game']}-step{p['steps']}")
def test_perft_counts_from_fixed_positions(spot):
    game = GAMES[spot["game"]]
    state = walk(start(game), game["actions"][: spot["steps"]])
    counts = [perft(state, d) for d in range(1, len(spot["counts"]) + 1)]
    assert counts == spot["counts"], f"readable rules, perft from {spot}"


@pytest.mark.parametrize("spot", DATA["perft"], ids=lambda p: f"game{p['game']}-step{p['steps']}")
def test_the_kernel_counts_the_same_choices_from_the_fixed_positions(spot):
    """The first choices of each perft position, counted from the kernel's results."""
    if engine._kernel is None:
        pytest.skip("pnp was installed without a C compiler: the kernel was not built")
    game = GAMES[spot["game"]]
    state = walk(start(game), game["actions"][: spot["steps"]])
    if state.current_player() == CHANCE:  # depth 2: each roll, then its choices
        depth, count = 2, 0
        for dice, _ in state.chance_outcomes():
            rolled = state.clone()
            rolled.apply(dice)
            chance = rolled.current_player() == CHANCE  # a third double: no choice
            count += len(rolled.chance_outcomes()) if chance else len(kernel_moves(rolled))
    else:  # depth 1: the choices of the roll being played
        depth, count = 1, len(kernel_moves(state))
    assert count == spot["counts"][depth - 1], f"compiled kernel, perft from {spot}"
