"""Benchmark: random-bot games per second through the runner, and the kit build time.

Run as ``python -m pnp.bench [GAME ...]`` (every registered game with an engine when none
is named; ``--games`` to change the games per setting, ``--seconds`` to bound a setting:
a slow engine plays as many of its games as fit, so the whole bench stays short). A game's
package may add its own figures with a ``bench`` module exposing
``bench() -> [(label, figure), ...]`` (a solver's positions per second, a comparison with
another engine).
A benchmark, not a test: the numbers depend on the machine and on what else runs on it,
so it prints games per wall-clock second and per CPU second (all processes) side by side;
the second is what an otherwise idle machine would give per core.
"""

from __future__ import annotations

import argparse
import importlib
import os
import resource
import tempfile
import time
import types
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from pnp import bench_dask
from pnp.games import get_game, registry
from pnp.sim.runner import run
from pnp.sim.seats import engine_for, seat_count


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the pool's workers)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def games_per_second(
    game: str, games: int, jobs: int, bot: str = "random", seed: int = 1
) -> tuple[float, float]:
    """(games per wall-clock second, games per CPU second over all processes) for one run
    of the simulation runner with the game's default player count, in a fresh process so
    no warm table carries over."""
    gdef = get_game(game)
    engine = engine_for(gdef)
    players = seat_count(gdef)
    model = engine.prepare(gdef.default_params(), players)
    wall, cpu = time.perf_counter(), _cpu()
    result = run(engine, model, players, bot, games, seed, jobs)
    wall, cpu = time.perf_counter() - wall, _cpu() - cpu
    assert result.games == games
    return games / wall, games / cpu


MCTS_PLAYOUTS = 1000
MCTS_TARGET_MS = 50  # issue 22: a 1,000-playout decision in every game


def mcts_decision_ms(game: str, seconds: float) -> tuple[float, int]:
    """(ms a 1,000-playout mcts decision takes, playouts actually timed) at the first
    position of seed 1's random game where the seat to move has a choice. A game too slow
    for 1,000 playouts in about `seconds` is timed over fewer and scaled (the cost of a
    search grows with its playouts about linearly)."""
    import random

    from pnp.mcts import MctsBot
    from pnp.state import CHANCE

    gdef = get_game(game)
    engine = engine_for(gdef)
    players = seat_count(gdef)
    model = engine.prepare(gdef.default_params(), players)
    rng = random.Random(1)
    state = engine.new_state(model, players, rng)
    while state.current_player() == CHANCE or len(state.legal_actions()) < 2:
        chance = state.current_player() == CHANCE
        state.apply(state.sample_chance(rng) if chance else state.random_action(rng))

    def timed(playouts: int) -> float:
        bot = MctsBot(playouts, cooperative=engine.COOPERATIVE)
        start = time.perf_counter()
        bot.search(state, random.Random(2))
        return time.perf_counter() - start

    trial = timed(10)
    playouts = max(10, min(MCTS_PLAYOUTS, int(10 * seconds / max(trial, 1e-9))))
    spent = timed(playouts) if playouts > 10 else trial
    return 1000 * spent * MCTS_PLAYOUTS / playouts, playouts


def fresh(fn, *args):
    """`fn(*args)` in a new process: no warm table carries over from one setting to the next."""
    with ProcessPoolExecutor(1) as pool:
        return pool.submit(fn, *args).result()


def planned_games(game: str, bot: str, most: int, seconds: float, jobs: int) -> int:
    """`most` games, or as many as fit in about `seconds` with `jobs` processes, going by
    single-process probes ten times larger each until one runs for a second (a probe
    counts its start-up, so the plan errs on the short side)."""
    n = min(most, 20)
    while True:
        rate, _ = fresh(games_per_second, game, n, 1, bot)
        if n >= most or n / rate >= 1.0:
            return max(n, min(most, int(rate * jobs * seconds)))
        n = min(most, n * 10)


def build_seconds(game: str) -> str:
    """The kit build time, or 'n/a' while the build is not wired up."""
    try:
        from pnp.build import build_game
    except ImportError:
        return "n/a"
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        try:
            build_game(game, out=Path(tmp))
        except Exception as exc:  # a benchmark reports, it does not fail
            return f"n/a ({type(exc).__name__}: {exc})"
        return f"{time.perf_counter() - start:.2f} s"


def game_figures(game: str) -> list[tuple[str, str]]:
    """The figures a game's own `bench` module adds, if it has one."""
    engine = engine_for(get_game(game))
    name = engine.__name__ if isinstance(engine, types.ModuleType) else type(engine).__module__
    package = name.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.bench")
    except ModuleNotFoundError:
        return []
    return list(module.bench())


def studio_preview_seconds(game: str = "exploding-dice", changes: int = 5) -> list[float]:
    """Seconds from a parameter change to the page's previews being ready (the build job the
    page starts: PDF pages as pictures and every part's SVG), through a real `pnp studio`
    on 127.0.0.1, one change after another, each a die size not built before."""
    import json
    import signal
    import socket
    import subprocess
    import sys
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"

    def call(method: str, path: str, body: dict | None = None) -> dict:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(url + path, data=data, method=method)
        with urllib.request.urlopen(req, timeout=300) as answer:
            return json.loads(answer.read())

    with tempfile.TemporaryDirectory() as cache:
        server = subprocess.Popen(
            [sys.executable, "-m", "pnp.cli", "studio", "--port", str(port), "--cache", cache],
            stderr=subprocess.DEVNULL,
        )
        try:
            for _ in range(300):
                try:
                    call("GET", "/api/games")
                    break
                except OSError:
                    time.sleep(0.1)
            seconds = []
            for k in range(changes + 1):  # the first one warms the job processes up
                body = {"params": {"die_size": 10.0 + k / 10}, "formats": ["pdf", "svg"]}
                start = time.perf_counter()
                job = call("POST", f"/api/games/{game}/build", body)["job"]
                while call("GET", f"/api/jobs/{job}")["state"] in ("queued", "running"):
                    time.sleep(0.02)
                if k:
                    seconds.append(time.perf_counter() - start)
            return seconds
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(10)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m pnp.bench", description=__doc__)
    ap.add_argument("games_to_bench", nargs="*", metavar="GAME", help="games (default: all)")
    ap.add_argument("--games", type=int, default=20_000, help="games per setting (at most)")
    ap.add_argument(
        "--seconds", type=float, default=30.0, help="about how long one setting may take"
    )
    ap.add_argument("--jobs", type=int, nargs="*", default=[1, 2], help="job counts to try")
    ap.add_argument("--bots", nargs="*", default=["random"], help="bots to time")
    ap.add_argument("--no-build", action="store_true", help="skip the kit build timing")
    ap.add_argument(
        "--no-studio", action="store_true", help="skip the studio's preview-after-a-change time"
    )
    ap.add_argument("--no-mcts", action="store_true", help="skip the mcts decision timing")
    ap.add_argument(
        "--no-dask", action="store_true", help="skip the sweep grids on the pool and on Dask"
    )
    args = ap.parse_args(argv)
    names = args.games_to_bench or [s for s, g in registry().items() if g.engine is not None]
    print(f"(this machine has {os.cpu_count()} CPUs; load average now {os.getloadavg()[0]:.2f})")
    for game in names:
        engine = engine_for(get_game(game))
        players = seat_count(get_game(game))
        print(f"{game}: up to {args.games} games a setting, {players} players, seed 1")
        for bot in args.bots:
            if bot not in engine.BOTS:
                continue
            for jobs in args.jobs:
                games = planned_games(game, bot, args.games, args.seconds, jobs)
                rate, per_cpu = fresh(games_per_second, game, games, jobs, bot)
                print(
                    f"  {bot:7} --jobs {jobs}: {rate:8,.0f} games/s wall clock   "
                    f"({per_cpu:,.0f} games per CPU second; {games:,} games)"
                )
        if not args.no_mcts:
            ms, timed = fresh(mcts_decision_ms, game, args.seconds)
            how = "" if timed == MCTS_PLAYOUTS else f", timed over {timed} and scaled"
            print(
                f"  mcts decision, {MCTS_PLAYOUTS:,} playouts: {ms:,.0f} ms "
                f"(target {MCTS_TARGET_MS} ms; playouts on the readable rules{how})"
            )
        for label, figure in game_figures(game):
            print(f"  {label}: {figure}")
        if not args.no_build:
            print(f"  kit build (a4 + letter, all formats): {build_seconds(game)}")
    if not args.no_studio and (not args.games_to_bench or "exploding-dice" in names):
        times = sorted(studio_preview_seconds())
        print(
            "pnp studio, Exploding Dice previews after a parameter change (target < 2 s): "
            f"median {times[len(times) // 2]:.2f} s, best {times[0]:.2f} s, "
            f"worst {times[-1]:.2f} s over {len(times)} changes"
        )
    if not args.no_dask and not args.games_to_bench:
        bench_dask.main([])


if __name__ == "__main__":
    main()
