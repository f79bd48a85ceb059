"""Exploding Dice speed: the whole `pnp simulate` command beside the readable rules (issue 22).

Run as ``python -m pnp.games.exploding_dice.bench`` (``make bench`` runs it). A benchmark,
not a test: figures depend on the machine and on what else runs on it, so the anchor and
the command are timed in the same run, one right after the other.

- The anchor: the readable rules' one-process rate (random games of the default kit, 4
  players, seeded ``"1:i"`` as the runner seeds them, through `pnp.play.forward.play`).
- The target: ``pnp simulate exploding-dice --games 200000 --jobs 2`` as a whole command
  (start-up, workers, tallies, the JSON) at least `TARGET` times the anchor.
- Greedy games the same way (20,000 games on the kernel, beside the readable rules' and
  the Python fast path's one-process rates), and random games on the Python fast path
  (what plays without a C compiler).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial

from pnp.games.exploding_dice import engine
from pnp.games.exploding_dice.fast import kernel
from pnp.games.exploding_dice.params import ExplodingDiceParams, play_model
from pnp.runtime.rates import Rate, timed

TARGET = 100
GAMES = {"random": 200_000, "greedy": 20_000}
"""Games of the whole command, per bot."""
ANCHOR_SECONDS = 3.0
"""About how long each one-process rate is measured for."""


def one_process_rate(play: Callable[[random.Random], object]) -> Rate:
    """Games per second of `play` over games "1:0", "1:1", ... for about `ANCHOR_SECONDS`
    (at least 20 games), in this process."""
    n = 0
    with timed(children=False) as span:
        start = time.perf_counter()
        while n < 20 or time.perf_counter() - start < ANCHOR_SECONDS:
            play(random.Random(f"1:{n}"))
            n += 1
    return span.rate(n)


def command_rate(games: int, bot: str, jobs: int = 2) -> Rate:
    """Games per second of the whole `pnp simulate` command (its processes' CPU), start-up
    included."""
    args = [sys.executable, "-m", "pnp", "simulate", "exploding-dice", "--games", str(games)]
    args += ["--jobs", str(jobs), "--bot", bot, "--json", os.devnull]
    with timed() as span:
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return span.rate(games)


def bench() -> list[tuple[str, str]]:
    """(setting, result) rows: each bot's whole command beside the readable rules."""
    model = play_model(ExplodingDiceParams())
    path = "compiled kernel" if kernel.boards(model) is not None else "no kernel: fast path"
    rows = []
    for bot, games in GAMES.items():
        anchor = one_process_rate(partial(engine.play_one, model, 4, bot, reference=True))
        ours = command_rate(games, bot)
        fast = one_process_rate(partial(engine.play_fast, model, 4, bot))
        ratio = ours.wall / anchor.wall
        goal = f"target >= {TARGET}x: {'met' if ratio >= TARGET else 'NOT met'}"
        rows += [
            (
                f"exploding-dice {bot}: pnp simulate --games {games:,} --jobs 2 ({path})",
                f"{ours.text()} for the whole command, {ratio:,.0f}x the anchor"
                + (f" ({goal})" if bot == "random" else ""),
            ),
            (f"exploding-dice {bot}: readable rules, one process (the anchor)", anchor.text()),
            (f"exploding-dice {bot}: Python fast path, one process", fast.text()),
        ]
    return rows


if __name__ == "__main__":
    for label, result in bench():
        print(f"{label}: {result}")
