"""Fit `outlook.py`'s weights: logistic regression of the winner on each position's features.

    python -m pnp.games.home_in_one_piece.outlook_fit [GAMES] [SEED]

Plays GAMES greedy games on the default kit (the readable rules, seeds "outlook:SEED:i"),
takes every position where a seat is about to roll, and fits the chance that the seat to
move wins from the difference of the two seats' `outlook.features` (and a constant: the
tempo) by Newton's method, holding every fifth game out to measure the fit. It prints the
weights to paste into `outlook.py` and the held-out log loss beside a coin's (0.693).

`outlook.py`'s weights: ``python -m pnp.games.home_in_one_piece.outlook_fit 10000 2``,
469,305 positions, held-out log loss 0.530 (the dice keep it far from 0). A tool, not part
of the game: nothing imports it.
"""

from __future__ import annotations

import random
import sys
from functools import partial

import numpy as np

from pnp.games.home_in_one_piece import engine
from pnp.games.home_in_one_piece.params import HomeInOnePieceParams
from pnp.games.home_in_one_piece.rules import outlook
from pnp.games.home_in_one_piece.rules.bots import make_bot
from pnp.games.home_in_one_piece.rules.state import State, new_game
from pnp.play.forward import play
from pnp.play.state import CHANCE


def keep(seen: list[tuple[int, tuple[float, ...]]], state: State, action: object) -> None:
    """Note the seat to move and the feature differences where a seat is about to roll."""
    if state.current_player() == CHANCE:
        me, other = state.seat, 1 - state.seat
        mine = outlook.features(state.model, state.blobs[me], me)
        theirs = outlook.features(state.model, state.blobs[other], other)
        seen.append((me, tuple(a - b for a, b in zip(mine, theirs, strict=True))))


def positions(games: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(feature differences with a constant column, whether the seat to move won, game)."""
    model = engine.prepare(HomeInOnePieceParams(), 2)
    bot = make_bot("greedy", model)
    rows, won, game = [], [], []
    for i in range(games):
        seen: list[tuple[int, tuple[float, ...]]] = []
        rng = random.Random(f"outlook:{seed}:{i}")
        final = play(new_game(model), [bot, bot], rng, on_step=partial(keep, seen)).state
        if final.winner is None:
            continue
        for me, diff in seen:
            rows.append((*diff, 1.0))
            won.append(float(final.winner == me))
            game.append(i)
    return np.array(rows), np.array(won), np.array(game)


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    """Logistic regression by Newton's method (a touch of ridge keeps it well posed)."""
    w = np.zeros(x.shape[1])
    for _ in range(30):
        p = 1 / (1 + np.exp(-x @ w))
        hessian = x.T @ (x * (p * (1 - p))[:, None]) + ridge * np.eye(x.shape[1])
        w += np.linalg.solve(hessian, x.T @ (y - p) - ridge * w)
    return w


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    p = np.clip(1 / (1 + np.exp(-x @ w)), 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else 3000
    seed = int(argv[1]) if len(argv) > 1 else 1
    x, y, game = positions(games, seed)
    held = game % 5 == 0
    w = fit(x[~held], y[~held])
    loss = log_loss(x[held], y[held], w)
    print(f"{len(y):,} positions of {games:,} games; held-out log loss {loss:.4f}")
    w = fit(x, y)
    print("WEIGHTS = (" + ", ".join(f"{v:.3f}" for v in w[:-1]) + ")")
    print(f"TEMPO = {w[-1]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
