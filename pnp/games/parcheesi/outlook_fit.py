"""Fit `rules/outlook.py`'s weights: a multinomial logit of the winner over the seats.

    python -m pnp.games.parcheesi.outlook_fit PLAYERS [POSITIONS] [SEED]

Draws POSITIONS positions of greedy games on the default kit (the compiled kernel: each
a greedy game from the start, stopped at a turn drawn uniformly below 260 with four
players, 195 with three and 130 with two; positions of games already over are dropped),
plays each to its end four times from there, and fits the chance that each seat wins
(its share of the four) from `outlook.features` over the square root of the race left
and its place after the seat to move, by Newton's method. Every fifth position is held
out to measure the fit. It prints the weights and tempi to paste into `outlook.py` (to
three decimals) and the held-out log loss beside a uniform guess's.

`outlook.py`'s weights: ``python -m pnp.games.parcheesi.outlook_fit P 25000 P`` for P =
2, 3, 4 (16,183, 17,514 and 19,293 positions kept; held-out log loss 0.586 against a
uniform guess's 0.693 with two players, 0.936 against 1.099 with three, 1.194 against
1.386 with four). The nest weight is the least settled of the three: positive with two
players, negative with three and four. A tool,
not part of the game: nothing imports it; it needs the kernel.
"""

from __future__ import annotations

import math
import random
import sys

import numpy as np

from pnp.games.parcheesi import engine
from pnp.games.parcheesi.fast.kernel import board, kernel, position
from pnp.games.parcheesi.params import ParcheesiParams
from pnp.games.parcheesi.rules import MAX_TURNS, PAWNS, outlook
from pnp.games.parcheesi.rules import state as game
from pnp.games.parcheesi.rules.model import PlayModel

ENDINGS = 4
"""Games played on from each position: its label is each seat's share of their wins."""


def draw(
    model: PlayModel, players: int, count: int, seed: int
) -> list[tuple[np.ndarray, np.ndarray]]:
    """(each seat's inputs, each seat's share of the wins) of up to `count` positions."""
    assert kernel is not None, "the fit needs the compiled kernel"
    rng, on = random.Random(seed), board(model)
    found = []
    for _ in range(count):
        start = position(game.new_game(model, players))
        start["explore"] = 0  # the guided player with no random choice: greedy's game
        at = kernel.playout(on, start, rng.randrange(65 * players), rng.getrandbits(64))
        if at["ended"]:
            continue
        here = start | {k: at[k] for k in ("pawns", "seat", "turns")}
        wins = np.zeros(players)
        for _ in range(ENDINGS):
            end = kernel.playout(on, dict(here), MAX_TURNS, rng.getrandbits(64))
            if end["ended"] == 1:
                wins[end["winner"]] += 1
        if wins.sum():
            pawns = [at["pawns"][c * PAWNS : (c + 1) * PAWNS] for c in range(PAWNS)]
            found.append((inputs(model, start["seats"], pawns, at["seat"]), wins / wins.sum()))
    return found


def inputs(
    model: PlayModel, seats: tuple[int, ...], pawns: list[list[int]], seat: int
) -> np.ndarray:
    """Per seat: its features over the square root of the race left, then one column per
    place after the seat to move (as `outlook.win_chances` weighs them)."""
    players = len(seats)
    found = [outlook.features(model, c, pawns[c]) for c in seats]
    left = PAWNS * (model.home + 1) - sum(f[0] for f in found) / players
    scale = math.sqrt(max(left, 1.0))
    rows = np.zeros((players, len(outlook.FEATURES) + players - 1))
    for s, f in enumerate(found):
        rows[s, : len(f)] = np.array(f) / scale
        d = (s - seat) % players
        if d:
            rows[s, len(f) + d - 1] = 1.0
    return rows


def log_loss(theta: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    z = x @ theta
    z -= z.max(axis=1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(-(y * log_p).sum() / len(x))


def fit(x: np.ndarray, y: np.ndarray, steps: int = 30) -> np.ndarray:
    """Newton's method on the conditional logit's log loss (positions x seats x inputs)."""
    theta = np.zeros(x.shape[2])
    for _ in range(steps):
        z = x @ theta
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        mean = np.einsum("ns,nsk->nk", p, x)
        grad = np.einsum("ns,nsk->k", p - y, x)
        centred = x - mean[:, None, :]
        hess = np.einsum("ns,nsk,nsl->kl", p, centred, centred)
        step = np.linalg.solve(hess + 1e-9 * np.eye(len(theta)), grad)
        theta -= step
        if np.abs(step).max() < 1e-10:
            break
    return theta


def main(players: int, count: int = 25_000, seed: int = 1) -> None:
    model = engine.prepare(ParcheesiParams(), players)
    found = draw(model, players, count, seed)
    x = np.array([f[0] for f in found])
    y = np.array([f[1] for f in found])
    train = np.arange(len(x)) % 5 != 0
    theta = fit(x[train], y[train])
    weights = ", ".join(f"{w:.3f}" for w in theta[: len(outlook.FEATURES)])
    tempo = ", ".join(f"{w:.3f}" for w in theta[len(outlook.FEATURES) :])
    print(f"{players} players, {len(x)} positions")
    print(f"WEIGHTS[{players}] = ({weights})  # {', '.join(outlook.FEATURES)}")
    print(f"TEMPO[{players}] = ({tempo},)")
    held = log_loss(theta, x[~train], y[~train])
    print(f"held-out log loss {held:.3f} (uniform {math.log(players):.3f})")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:4]))
