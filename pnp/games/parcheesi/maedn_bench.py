"""The speed anchor of issue 9: OpenSpiel's Mensch-ärgere-dich-nicht (`maedn`) played out at
random from Python, as many games a second as `jobs` processes manage.

A standalone script, run by `bench.py` with an interpreter that has `open_spiel` installed
(`make bench` makes one in `.venv-bench`); it imports nothing from pnp and pnp never
depends on open_spiel. Prints one JSON object: {"players", "games", "jobs", "per_second",
"per_cpu_second"} (CPU time of the worker processes, what an idle core would give).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import time
from concurrent.futures import ProcessPoolExecutor


def play(players: int, seed: int, games: int) -> int:
    """Play `games` random games: chance outcomes by their probabilities, moves uniformly."""
    import pyspiel

    game = pyspiel.load_game("maedn", {"players": players})
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    chunk = max(1, args.games // (args.jobs * 8))
    cuts = [min(chunk, args.games - i) for i in range(0, args.games, chunk)]
    start, cpu = time.perf_counter(), _children_cpu()
    with ProcessPoolExecutor(args.jobs) as pool:
        done = sum(pool.map(play, [args.players] * len(cuts), range(len(cuts)), cuts))
    seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu
    figures = {"players": args.players, "games": done, "jobs": args.jobs}
    print(json.dumps({**figures, "per_second": done / seconds, "per_cpu_second": done / cpu}))


def _children_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


if __name__ == "__main__":
    main()
