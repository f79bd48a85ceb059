"""Stand-offs between two searching players: runs of turns in which both seats pass.

A pass with dice in hand is a turn whose roll showed at least one blob and in which the
player touched nothing. A stand-off is a run of `RUN` or more such turns with both seats
in it; rolls of no blob neither break a run nor count in it (the player had no choice).
Between mcts players on the rigid rule (no bridges) runs of dozens of turns happened: a big
blob walls the other player's off and both wait. This plays mcts against mcts and reports
the longest run in each game, the passes and the CPU time of the slowest decision.

A measurement, not a test (it plays 100 games of searching players by default, minutes of
CPU): ``python -m pnp.games.home_in_one_piece.standoff --games 100 --seed 7``.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field
from typing import Any

from pnp.games.home_in_one_piece import engine
from pnp.games.home_in_one_piece.params import HomeInOnePieceParams
from pnp.games.home_in_one_piece.rules.model import PlayModel
from pnp.games.home_in_one_piece.rules.state import State, new_game
from pnp.play.forward import play
from pnp.play.mcts import MctsBot

RUN = 5
"""Passes with dice in hand in a row, both seats among them, that make a stand-off."""


@dataclass
class Turns:
    """One game's turns as (seat, blobs rolled, touched anything), and its decisions' CPU."""

    turns: list[tuple[int, int, bool]] = field(default_factory=list)
    decision_ms: list[float] = field(default_factory=list)
    winner: int | None = None


def longest_run(turns: list[tuple[int, int, bool]]) -> int:
    """The longest stand-off: passes with dice in hand in a row (rolls of no blob skipped),
    counted only when both seats pass in it (0 when none)."""
    best, run = 0, 0
    seats: set[int] = set()
    for seat, rolled, touched in turns:
        if rolled == 0:
            continue
        if touched:
            run, seats = 0, set()
            continue
        run += 1
        seats.add(seat)
        if len(seats) == 2:
            best = max(best, run)
    return best


class _Timed:
    """A bot whose decisions' CPU time is kept."""

    def __init__(self, bot: Any, into: list[float]) -> None:
        self.bot, self.into, self.name = bot, into, bot.name

    def choose(self, state: Any, rng: random.Random) -> Any:
        start = time.process_time()
        action = self.bot.choose(state, rng)
        self.into.append(1000 * (time.process_time() - start))
        return action


def play_game(model: PlayModel, rng: random.Random, budget: int = engine.MCTS_BUDGET) -> Turns:
    """One game of two mcts players (the engine's budget, horizon and exploration)."""
    out = Turns()
    search = MctsBot(
        budget=budget, playout_turns=engine.PLAYOUT_TURNS, exploration=engine.MCTS_EXPLORATION
    )
    bot = _Timed(search, out.decision_ms)
    seen = {"turns": 0, "roll": 0, "seat": 0, "touches": 0}

    def close(state: State) -> None:
        if state.turns > seen["turns"]:
            touched = state.counters["touches"] > seen["touches"]
            out.turns.append((seen["seat"], seen["roll"], touched))
            seen["turns"], seen["touches"] = state.turns, state.counters["touches"]

    def on_step(state: State, action: Any) -> None:
        close(state)
        if isinstance(action, int):
            seen["roll"], seen["seat"] = action, state.seat

    state = new_game(model)
    play(state, [bot, bot], rng, on_step=on_step)
    close(state)
    out.winner = state.winner
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--bridge-span", type=float, default=None, help="mm (the kit's default)")
    parser.add_argument("--budget", type=int, default=engine.MCTS_BUDGET)
    args = parser.parse_args(argv)
    params = HomeInOnePieceParams()
    if args.bridge_span is not None:
        params = HomeInOnePieceParams(bridge_span=args.bridge_span)
    model = engine.prepare(params, 2)
    runs, passes, turns, slowest, first = [], 0, 0, 0.0, 0
    for i in range(args.games):
        game = play_game(model, random.Random(f"{args.seed}:{i}"), args.budget)
        runs.append(longest_run(game.turns))
        passes += sum(1 for _, rolled, touched in game.turns if rolled and not touched)
        turns += len(game.turns)
        slowest = max(slowest, *game.decision_ms)
        first += game.winner == 0
        print(f"game {i}: {len(game.turns)} turns, longest stand-off {runs[-1]}", flush=True)
    print(
        f"bridge_span {model.bridge:g} mm, {args.games} games (seed {args.seed}): "
        f"games with a stand-off of {RUN}+ passes {sum(r >= RUN for r in runs)}, "
        f"longest {max(runs)}; passes with dice in hand {passes / args.games:.1f} a game; "
        f"{turns / args.games:.1f} turns a game; first seat won {first}; "
        f"slowest decision {slowest:.1f} ms CPU"
    )


if __name__ == "__main__":
    main()
