"""Write tests/conformance/building-community.json: recorded games, perft counts and the
solver's lines that every implementation of Building Community must reproduce.

Run by hand after a deliberate rules change (never by the tests):
    .venv/bin/python tests/conformance/make_building_community.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from pnp.conformance import line_str, perft, record_game
from pnp.games.building_community import engine, rules, solver
from pnp.games.building_community.model import PlayModel, play_model
from pnp.games.building_community.params import BuildingCommunityParams

SLUG = "building-community"
OUT = Path(__file__).with_name(f"{SLUG}.json")
Params = dict[str, Any]  # BuildingCommunityParams fields that differ from the defaults
R2: Params = {"radius": 2}
DEFAULT: Params = {}
ANYWHERE: Params = {"radius": 2, "scope": "anywhere"}
# (params, players, bot, seeds): the first seeds of each, named SLUG:bot:players:k
GAMES: list[tuple[Params, int, str, int]] = [
    (DEFAULT, 2, "random", 2),
    (DEFAULT, 6, "greedy", 2),
    (R2, 3, "random", 2),
    (R2, 2, "greedy", 2),
    (ANYWHERE, 4, "random", 1),
    (ANYWHERE, 6, "greedy", 1),
]
# (params, players, bot, end): the first seed (of 2000) whose game ends so, if any
WANTED: list[tuple[Params, int, str, str]] = [
    (R2, 3, "random", "win"),
    (R2, 6, "greedy", "win"),
    (R2, 6, "greedy", "repeat"),
    ({"scope": "anywhere"}, 2, "random", "repeat"),
]
# (params, players, random turns played first (seeded), depth)
PERFT: list[tuple[Params, int, int, int]] = [
    (R2, 2, 0, 3),
    (DEFAULT, 2, 0, 2),
    (ANYWHERE, 2, 0, 2),
    (R2, 3, 2, 3),
    (DEFAULT, 6, 3, 2),
]
SOLVE: list[tuple[Params, int, int]] = [
    (R2, 2, 20_000),
    (R2, 3, 20_000),
]  # (params, players, budget)


def model_of(params: Params) -> PlayModel:
    return play_model(BuildingCommunityParams(**params))


def recorded(params: Params, players: int, bot: str, seed: str) -> dict[str, Any]:
    model = model_of(params)
    state = engine.new_state(model, players, random.Random(seed))
    rec = record_game(state, [engine.make_bot(bot, model)] * players, seed)
    return {"params": params, "players": players, "bot": bot, **rec.as_json()}


def first_ending(params: Params, players: int, bot: str, end: str) -> str | None:
    model = model_of(params)
    for k in range(2000):
        seed = f"{SLUG}:{end}:{k}"  # the same seeds for every entry
        if engine.play_one(model, players, bot, seed).end == end:
            return seed
    return None


def perft_entry(params: Params, players: int, turns: int, depth: int) -> dict[str, Any]:
    model = model_of(params)
    state = engine.new_state(model, players)
    rng, prefix = random.Random(f"{SLUG}:perft:{players}"), []
    for _ in range(turns):
        action = state.random_action(rng)
        prefix.append(state.action_str(action))
        state.apply(action)
    assert not state.is_terminal()
    return {"params": params, "players": players, "prefix": prefix, "depth": depth,
            "nodes": perft(state, depth)}  # fmt: skip


def solve_entry(params: Params, players: int, budget: int) -> dict[str, Any]:
    model = model_of(params)
    result = solver.solve(model, players, budget)
    actions = [rules.turn_from_json(model, turn) for turn in result.line]
    line = line_str(engine.new_state(model, players), actions)
    return {"params": params, "players": players, "budget": budget, "result": result.result,
            "line": line}  # fmt: skip


def main() -> None:
    games = [
        recorded(params, players, bot, f"{SLUG}:{bot}:{players}:{k}")
        for params, players, bot, seeds in GAMES
        for k in range(seeds)
    ]
    for params, players, bot, end in WANTED:
        seed = first_ending(params, players, bot, end)
        if seed is not None:
            games.append(recorded(params, players, bot, seed))
    data = {
        "game": SLUG,
        "games": games,
        "perft": [perft_entry(*entry) for entry in PERFT],
        "solve": [solve_entry(*entry) for entry in SOLVE],
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(games)} games, {OUT.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
