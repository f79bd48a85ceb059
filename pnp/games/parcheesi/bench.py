"""Parcheesi speed: complete random games per second, beside OpenSpiel's `maedn` (issue 9).

Run as ``python -m pnp.games.parcheesi.bench`` (``make bench`` runs it). A benchmark, not a
test: figures depend on the machine and on what else runs on it, so the two engines are
timed in the same run, one after the other, with the same number of processes, and each
line gives games per wall-clock second and per CPU second (what an idle core would give).

The anchor is OpenSpiel's Mensch-ärgere-dich-nicht, a Ludo-family race, played out at
random from Python (`maedn_bench.py`). open_spiel is never a dependency of pnp: the script
runs in the interpreter named by ``OPEN_SPIEL_PYTHON`` (``make bench`` installs open_spiel
into ``.venv-bench`` and points there), else this one if it has open_spiel; without one the
anchor line says so.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from pnp.games.parcheesi import engine
from pnp.games.parcheesi.fast.kernel import kernel as parcheesi_kernel
from pnp.games.parcheesi.params import ParcheesiParams
from pnp.runtime.rates import Rate, timed

JOBS = 2
GAMES = {2: 8000, 4: 4000}  # per player count: a few seconds of each engine
TARGET = 3
BATCH = 200  # games per kernel call, as the runner hands them to an engine's `play_many`
"""Issue 22: at least this many times maedn's games per second, at 2 players and at 4."""
ANCHOR = Path(__file__).with_name("maedn_bench.py")


def play_range(players: int, bot: str, rules: str, compiled: bool, start: int, stop: int) -> int:
    """Play games start..stop-1 of the default kit as the runner plays them: seeded by
    their texts, `BATCH` at a time through the engine's `play_many` (`compiled=False`, or
    no kernel: game by game on the readable rules)."""
    model = engine.prepare(ParcheesiParams(), players, rules=rules)
    seeds = [f"1:{i}" for i in range(start, stop)]
    if compiled:
        engine.warm(model)
    for k in range(0, len(seeds), BATCH):
        batch = seeds[k : k + BATCH]
        if not compiled or engine.play_many(model, players, bot, batch) is None:
            for seed in batch:
                engine.play_one(model, players, bot, random.Random(seed), reference=True)
    return stop - start


def games_per_second(
    players: int,
    games: int,
    jobs: int = JOBS,
    bot: str = "random",
    rules: str = "seed",
    compiled: bool = True,
) -> Rate:
    """Games per second over `jobs` fresh processes."""
    chunk = max(1, games // (jobs * 8))
    cuts = [(i, min(games, i + chunk)) for i in range(0, games, chunk)]
    n = len(cuts)
    with timed() as span, ProcessPoolExecutor(jobs) as pool:
        done = sum(
            pool.map(
                play_range,
                [players] * n,
                [bot] * n,
                [rules] * n,
                [compiled] * n,
                *zip(*cuts, strict=True),
            )
        )
    assert done == games
    return span.rate(games)


def anchor_python() -> str | None:
    """An interpreter with open_spiel, or None."""
    named = os.environ.get("OPEN_SPIEL_PYTHON")
    if named:
        return named if os.access(named, os.X_OK) else None
    probe = subprocess.run([sys.executable, "-c", "import pyspiel"], capture_output=True)
    return sys.executable if probe.returncode == 0 else None


def anchor_per_second(players: int, games: int, jobs: int = JOBS) -> Rate | str:
    """OpenSpiel maedn's games per second, or why not."""
    python = anchor_python()
    if python is None:
        return "not measured: no interpreter with open_spiel (make bench installs one)"
    args = [python, str(ANCHOR), "--players", str(players), "--games", str(games)]
    run = subprocess.run([*args, "--jobs", str(jobs)], capture_output=True, text=True)
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or ["no output"])[-1]
        return f"not measured: {last}"
    figures = json.loads(run.stdout)
    return Rate(figures["per_second"], figures["per_cpu_second"])


def bench() -> list[tuple[str, str]]:
    """(setting, result) rows: random playouts beside the anchor for 2 and 4 players with
    `JOBS` processes, then the other bots, rules and the readable rules without the kernel."""
    rows = []
    kernel = "compiled kernel" if parcheesi_kernel is not None else "readable rules (no kernel)"
    for players, games in GAMES.items():
        ours = games_per_second(players, games)
        theirs = anchor_per_second(players, games // 2)
        rows.append((f"parcheesi {players} players, random, --jobs {JOBS} ({kernel})", ours.text()))
        label = f"OpenSpiel maedn {players} players, random, --jobs {JOBS}"
        if isinstance(theirs, str):
            rows.append((label, theirs))
        else:
            rows.append(
                (
                    label,
                    f"{theirs.text()}: parcheesi {ours.wall / theirs.wall:.1f}x wall clock, "
                    f"{ours.cpu / theirs.cpu:.1f}x per CPU second (target: at least {TARGET}x)",
                )
            )
    for players, bot, rules, compiled in (
        (3, "random", "seed", True),
        (4, "greedy", "seed", True),
        (4, "random", "standard", True),
        (4, "random", "seed", False),
    ):
        games = GAMES[4] if compiled else 100
        path = "" if compiled else ", readable rules"
        rate = games_per_second(players, games, bot=bot, rules=rules, compiled=compiled)
        rows.append((f"parcheesi {players} players, {bot}, {rules} rules{path}", rate.text()))
    return rows


if __name__ == "__main__":
    for label, result in bench():
        print(f"{label}: {result}")
