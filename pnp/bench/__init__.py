"""Benchmark: random-bot games per second through the runner, the kit build time, the
time to an answer of `pnp tune` (the Exploding Dice example, locally and on Dask), and the
skill table (`pnp.bench.skill`: mcts against greedy, greedy against random, an mcts
decision's time, in every game).

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
import importlib.util
import os
import resource
import signal
import subprocess
import tempfile
import time
import types
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pnp.bench import dask as bench_dask
from pnp.bench import decisions as bench_decisions
from pnp.bench import skill as bench_skill
from pnp.bench import stop as bench_stop
from pnp.games import get_game, registry
from pnp.play import fastpath
from pnp.play.state import estimates_wins, has_policy, stands
from pnp.runtime.rates import Rate, timed
from pnp.sim.runner import run
from pnp.sim.seats import engine_for, seat_count


def games_per_second(game: str, games: int, jobs: int, bot: str = "random", seed: int = 1) -> Rate:
    """(games per wall-clock second, games per CPU second over all processes) for one run
    of the simulation runner with the game's default player count, in a fresh process so
    no warm table carries over."""
    gdef = get_game(game)
    engine = engine_for(gdef)
    players = seat_count(gdef)
    model = engine.prepare(gdef.default_params(), players)
    with timed() as span:
        result = run(engine, model, players, bot, games, seed, jobs)
    assert result.games == games
    return span.rate(games)


MCTS_PLAYOUTS = 1000
MCTS_TARGET_MS = 50  # issue 22: a 1,000-playout decision in every game


def mcts_position(game: str):
    """(engine, state): the first position of seed 1's random game where the seat to move
    has a choice, at the game's default player count."""
    import random

    from pnp.play.state import CHANCE

    gdef = get_game(game)
    engine = engine_for(gdef)
    players = seat_count(gdef)
    model = engine.prepare(gdef.default_params(), players)
    rng = random.Random(1)
    state = engine.new_state(model, players, rng)
    while state.current_player() == CHANCE or len(state.legal_actions()) < 2:
        chance = state.current_player() == CHANCE
        state.apply(state.sample_chance(rng) if chance else state.random_action(rng))
    return engine, state


def mcts_decision_ms(game: str, seconds: float, compiled: bool = True) -> tuple[float, float, int]:
    """(CPU ms, wall ms, playouts actually timed) of a 1,000-playout mcts decision at
    `mcts_position`, the bot as the engine declares it (horizon included); `compiled`
    off times the readable search (the tree in Python), the anchor. A game too slow for
    1,000 playouts in about `seconds` is timed over fewer and scaled (the cost of a
    search grows with its playouts about linearly)."""
    import random

    from pnp.sim.seats import mcts_bot

    engine, state = mcts_position(game)

    def timed(playouts: int) -> tuple[float, float]:
        bot = mcts_bot(engine, playouts)
        bot.compiled, bot.sizing = compiled, None  # the cost of `playouts`, unsized
        cpu, wall = time.process_time(), time.perf_counter()
        bot.search(state, random.Random(2))
        return time.process_time() - cpu, time.perf_counter() - wall

    trial = timed(10)
    playouts = max(10, min(MCTS_PLAYOUTS, int(10 * seconds / max(trial[1], 1e-9))))
    cpu, wall = timed(playouts) if playouts > 10 else trial
    scale = 1000 * MCTS_PLAYOUTS / playouts
    return cpu * scale, wall * scale, playouts


def mcts_along_ms(game: str, every: int = 10) -> list[float]:
    """CPU ms of a decision at 1,000 playouts (sized where the game sizes its decisions, as
    its mcts bot plays) at every `every`-th choice of seed 1's random game (the first
    choice is `mcts_decision_ms`' position; later ones have more on the board, and in some
    games more to list), sorted."""
    import random

    from pnp.play.state import CHANCE
    from pnp.sim.seats import mcts_bot

    gdef = get_game(game)
    engine = engine_for(gdef)
    players = seat_count(gdef)
    rng = random.Random(1)
    state = engine.new_state(engine.prepare(gdef.default_params(), players), players, rng)
    times, choices = [], 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        if len(state.legal_actions()) > 1:
            if choices % every == 0:
                cpu = time.process_time()
                mcts_bot(engine, MCTS_PLAYOUTS).search(state.clone(), random.Random(2))
                times.append(1000 * (time.process_time() - cpu))
            choices += 1
        state.apply(state.random_action(rng))
    return sorted(times)


def search_runs_on(game: str) -> str:
    """Where the game's mcts decision runs: the tree and the playouts compiled (its
    kernel's `tree_search`, attached through `pnp.play.fastpath`), the playouts alone, or the
    readable rules; and the playouts' horizon."""
    import random

    from pnp.sim.seats import mcts_bot

    engine, state = mcts_position(game)
    bot = mcts_bot(engine, 1)
    horizon = f"playouts of {bot.playout_turns} turns"
    if has_policy(state):
        horizon += " of the game's own policy"
    if estimates_wins(state):
        horizon += " scored on the win chances"
    elif stands(state):
        horizon += " scored on the standing"
    fast = fastpath.active(state)
    tree = None if fast is None else fast.tree_search
    if (
        tree is not None
        and tree(state.clone(), random.Random(0), fastpath.SearchSettings(1, 1, 1.0, False))
        is not None
    ):
        return f"tree and {horizon} in the kernel"
    if fast is not None and fast.playout is not None:
        return f"{horizon} in the kernel, the tree in Python"
    return f"{horizon} on the readable rules"


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
        rate = fresh(games_per_second, game, n, 1, bot).wall
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


@contextmanager
def _studio(*args: str) -> Iterator[tuple[subprocess.Popen, int, Callable[..., dict]]]:
    """A real `pnp studio` on 127.0.0.1 (a process group of its own, a fresh cache), its
    port, and `call(method, path, body)`, which sends the printed key as a script does."""
    import json
    import socket
    import sys
    import threading
    import urllib.request
    from urllib.parse import parse_qs, urlsplit

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as cache:
        command = [sys.executable, "-m", "pnp.cli", "studio", "--port", str(port), "--cache", cache]
        server = subprocess.Popen(
            [*command, *args], stderr=subprocess.PIPE, text=True, start_new_session=True
        )
        try:
            printed = server.stderr.readline().split()  # type: ignore[union-attr]
            threading.Thread(target=server.stderr.read, daemon=True).start()  # type: ignore[union-attr]
            token = parse_qs(urlsplit(printed[2]).query)["token"][0]
            headers = {"authorization": f"Bearer {token}", "content-type": "application/json"}

            def call(method: str, path: str, body: dict | None = None) -> dict:
                data = json.dumps(body).encode() if body is not None else None
                req = urllib.request.Request(url + path, data, headers, method=method)
                with urllib.request.urlopen(req, timeout=300) as answer:
                    return json.loads(answer.read())

            for _ in range(300):
                try:
                    call("GET", "/api/games")
                    break
                except OSError:
                    time.sleep(0.1)
            yield server, port, call
        finally:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGINT)
                try:
                    server.wait(30)
                except subprocess.TimeoutExpired:
                    os.killpg(server.pid, signal.SIGKILL)
                    server.wait()


def studio_preview_seconds(game: str = "exploding-dice", changes: int = 5) -> list[float]:
    """Seconds from a parameter change to the page's previews being ready (the build job the
    page starts: PDF pages as pictures and every part's SVG), through a real `pnp studio`
    on 127.0.0.1, one change after another, each a die size not built before."""
    with _studio() as (_, _, call):
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


def studio_stop_seconds(runs: int = 3) -> list[float]:
    """Seconds from Ctrl-C to the prompt: `pnp studio` with a 5,000,000-game simulation
    running and the page's kept-alive connection open, sent SIGINT as a terminal sends it
    (to its whole process group), until the server process has ended."""
    import http.client

    seconds = []
    for _ in range(runs):
        with _studio() as (server, port, call):
            job = call("POST", "/api/games/exploding-dice/simulate", {"games": 5_000_000})["job"]
            while call("GET", f"/api/jobs/{job}")["progress"]["done"] == 0:
                time.sleep(0.05)
            page = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            page.request("GET", "/")  # the page's own connection, kept alive as a browser does
            page.getresponse().read()
            start = time.perf_counter()
            os.killpg(server.pid, signal.SIGINT)
            server.wait(60)
            seconds.append(time.perf_counter() - start)
            page.close()
    return seconds


STARTUP_TARGET = 0.3  # issue 22: seconds of start-up for `pnp simulate GAME --games 1`, `pnp check`
CHECK_STARTUP = """
import sys
import pnp.build

def begin(*args, **kwargs):
    raise SystemExit(0)  # the check's work would begin here

pnp.build.check_game = begin
sys.argv = ["pnp", "check", sys.argv[1]]
from pnp.__main__ import main
main()
"""
CLI_LIBRARIES = "import typer, typer.main, rich.console, rich.table"
"""What every command loads before any of pnp's own code: typer and rich (typer is held
below 0.29, which coerces each option through pydantic at a cost of 0.1 s a command)."""


def startup_seconds(commands: dict[str, list[str]], runs: int) -> dict[str, tuple[float, float]]:
    """{label: (median wall seconds, median CPU seconds)} of each command as a fresh
    process, the commands taking turns run by run so that a drift of the machine's speed
    falls on all of them alike. The processes may cache their bytecode, as an installed
    pnp has it (the first round, not counted, writes it)."""
    import statistics
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    seen: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
    for _ in range(runs + 1):
        for label, argv in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(
                argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True
            )
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            seen[label].append((wall, cpu))
    return {
        label: (statistics.median(w for w, _ in got[1:]), statistics.median(c for _, c in got[1:]))
        for label, got in seen.items()
    }


def startup_report(games: list[str], runs: int = 7) -> list[str]:
    """Start-up of `pnp simulate GAME --games 1` (the whole command) and of `pnp check GAME`
    (until the check's work begins, its libraries loaded), beside `python -c pass`, `import
    pnp` and the command-line libraries alone. The target is judged on CPU seconds: on a
    shared machine the wall clock measures the queue for a core, and on an idle one the two
    agree."""
    import sys

    python = sys.executable
    script = Path(python).with_name("pnp")
    pnp_cmd = [str(script)] if script.is_file() else [python, "-m", "pnp"]
    commands = {
        "python -c pass": [python, "-c", "pass"],
        "python -c 'import pnp'": [python, "-c", "import pnp"],
        "typer and rich alone": [python, "-c", CLI_LIBRARIES],
        "import pnp.build (what checks load)": [python, "-c", "import pnp.build"],
    }
    for game in games:
        commands[f"pnp simulate {game} --games 1"] = [*pnp_cmd, "simulate", game, "--games", "1"]
        commands[f"pnp check {game} (start-up)"] = [python, "-c", CHECK_STARTUP, game]
    times = startup_seconds(commands, runs)
    width = max(len(label) for label in times)
    lines = [f"start-up, fresh processes, median of {runs} (target {STARTUP_TARGET} s CPU):"]
    for label, (wall, cpu) in times.items():
        verdict = ""
        if label.startswith("pnp"):
            verdict = "  meets the target" if cpu < STARTUP_TARGET else "  over the target"
        lines.append(f"  {label:{width}}  {cpu:6.3f} s CPU  {wall:5.2f} s wall{verdict}")
    return lines


STOP_TARGET = 1.0  # issue 31: seconds from Ctrl-C to the prompt, a long job running


def studio_report() -> list[str]:
    times = sorted(studio_preview_seconds())
    stops = sorted(studio_stop_seconds())
    return [
        "pnp studio, Exploding Dice previews after a parameter change (target < 2 s): "
        f"median {times[len(times) // 2]:.2f} s, best {times[0]:.2f} s, "
        f"worst {times[-1]:.2f} s over {len(times)} changes",
        f"pnp studio, Ctrl-C to the prompt with a 5,000,000-game run going (target < "
        f"{STOP_TARGET:g} s): median {stops[len(stops) // 2]:.2f} s, worst {stops[-1]:.2f} s "
        f"over {len(stops)} stops",
    ]


TUNE_EXAMPLE: dict[str, Any] = {
    "game": "exploding-dice",
    "targets": ["turns in 18..25", "seat_gap <= 0.05"],
    "over": ["dice_per_colour=2..12", "n=4..8:2"],
    "players": 3,
    "budget": "20000games",
}
"""The Exploding Dice example of docs/tune.md, with a budget in games (the same answer on
both backends) small enough for a bench."""


def tune_seconds(scheduler: str | None, jobs: int = 2) -> tuple[float, str, str]:
    """(seconds to the answer, the answer's JSON, its best setting) of `TUNE_EXAMPLE` on the
    local pool or a LocalCluster (`scheduler='local'`, its start included), kits unchecked."""
    import json

    from pnp.tune import plan_tune, run_tune

    e = TUNE_EXAMPLE
    setup, dims, budget = plan_tune(
        e["game"], e["targets"], e["over"], e["players"], budget=e["budget"], jobs=jobs,
        scheduler=scheduler, timeout=60.0,
    )  # fmt: skip
    start = time.perf_counter()
    tuned = run_tune(setup, dims, budget, check_kits=False)
    seconds = time.perf_counter() - start
    best = ", ".join(f"{k} = {v}" for k, v in (tuned.json["best"] or {}).items())
    return seconds, json.dumps(tuned.json), f"{tuned.json['answer']}: {best}"


def tune_report() -> list[str]:
    """Time to an answer of `pnp tune` for the Exploding Dice example, locally and on a
    LocalCluster of 2 workers."""
    if importlib.util.find_spec("optuna") is None:
        return ["pnp tune: skipped (pip install 'pnp-kits[tune]')"]
    e = TUNE_EXAMPLE
    head = (
        f"pnp tune {e['game']} --players {e['players']} "
        + " ".join(f"--target '{t}'" for t in e["targets"])
        + " "
        + " ".join(f"--over {o}" for o in e["over"])
        + f" --budget {e['budget']} --jobs 2:"
    )
    local, local_json, answer = fresh(tune_seconds, None)
    lines = [head, f"  local pool:             {local:6.1f} s to the answer ({answer})"]
    if importlib.util.find_spec("distributed") is None:
        return lines + ["  Dask: skipped (pip install 'pnp-kits[dask]')"]
    dask, dask_json, _ = fresh(tune_seconds, "local")
    same = "same JSON" if dask_json == local_json else "JSON DIFFERS"
    lines.append(
        f"  Dask LocalCluster (2):  {dask:6.1f} s to the answer, its start included ({same})"
    )
    return lines


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
        "--no-studio",
        action="store_true",
        help="skip the studio's times (previews after a change, stopping with Ctrl-C)",
    )
    ap.add_argument(
        "--studio-only", action="store_true", help="time the studio alone (previews, Ctrl-C)"
    )
    ap.add_argument("--no-mcts", action="store_true", help="skip the mcts decision timing")
    ap.add_argument("--no-startup", action="store_true", help="skip the start-up timings")
    ap.add_argument("--no-skill", action="store_true", help="skip the skill table")
    ap.add_argument(
        "--skill-games",
        type=int,
        default=bench_skill.GAMES,
        help="the skill table's games per seat order (per team in a cooperative game)",
    )
    ap.add_argument("--skill-only", action="store_true", help="the skill table alone")
    ap.add_argument(
        "--skill-seed",
        type=int,
        default=1,
        help="the seed of the skill table's games (and of --decisions-only's)",
    )
    ap.add_argument(
        "--skill-players",
        type=int,
        nargs="*",
        default=[],
        help="the skill table's player counts: a row for each one a game takes (default: "
        "each game's default count)",
    )
    ap.add_argument(
        "--decisions-only",
        action="store_true",
        help="time every mcts decision over whole games (each player count, mcts vs mcts "
        "and vs greedy) alone: median, 99th percentile, slowest",
    )
    ap.add_argument(
        "--decision-games",
        type=int,
        default=bench_decisions.GAMES,
        help="--decisions-only's games per player count and lineup",
    )
    ap.add_argument("--startup-only", action="store_true", help="time the start-ups alone")
    ap.add_argument(
        "--no-dask", action="store_true", help="skip the sweep grids on the pool and on Dask"
    )
    ap.add_argument(
        "--no-stop", action="store_true", help="skip the time a simulation takes to stop"
    )
    ap.add_argument("--no-tune", action="store_true", help="skip the time to a tune's answer")
    ap.add_argument("--tune-only", action="store_true", help="time the tune example alone")
    args = ap.parse_args(argv)
    names = args.games_to_bench or [s for s, g in registry().items() if g.engine is not None]
    print(f"(this machine has {os.cpu_count()} CPUs; load average now {os.getloadavg()[0]:.2f})")
    if args.studio_only:
        print("\n".join(studio_report()))
        return
    if args.tune_only:
        print("\n".join(tune_report()))
        return
    if args.decisions_only:
        bench_decisions.main(names, args.decision_games, args.skill_seed, max(args.jobs))
        return
    if not (args.no_startup or args.skill_only):
        print("\n".join(startup_report(args.games_to_bench or list(registry()))))
    if args.startup_only:
        return
    if not args.no_skill or args.skill_only:
        bench_skill.main(
            args.skill_games, args.skill_seed, max(args.jobs), names, args.skill_players
        )
    if args.skill_only:
        return
    for game in names:
        engine = engine_for(get_game(game))
        players = seat_count(get_game(game))
        print(f"{game}: up to {args.games} games a setting, {players} players, seed 1")
        for bot in args.bots:
            if bot not in engine.BOTS:
                continue
            for jobs in args.jobs:
                games = planned_games(game, bot, args.games, args.seconds, jobs)
                rate = fresh(games_per_second, game, games, jobs, bot)
                print(f"  {bot:7} --jobs {jobs}: {rate.text()}; {games:,} games")
        if not args.no_mcts:
            cpu, wall, timed = fresh(mcts_decision_ms, game, args.seconds)
            how = "" if timed == MCTS_PLAYOUTS else f", timed over {timed} and scaled"
            print(
                f"  mcts decision, {MCTS_PLAYOUTS:,} playouts: {cpu:,.0f} ms of CPU, "
                f"{wall:,.0f} ms wall clock (target {MCTS_TARGET_MS} ms; "
                f"{search_runs_on(game)}{how})"
            )
            anchor, _, _ = fresh(mcts_decision_ms, game, args.seconds, False)
            print(
                f"  mcts decision, the readable search (the tree in Python; the anchor): "
                f"{anchor:,.0f} ms of CPU, {anchor / max(cpu, 1e-9):,.0f}x the compiled one's"
            )
            if timed == MCTS_PLAYOUTS:  # a search too slow for this is not walked along
                along = fresh(mcts_along_ms, game)
                print(
                    f"  mcts decisions along seed 1's game (every 10th choice, "
                    f"{len(along)} of them): median {along[len(along) // 2]:,.0f} ms, "
                    f"slowest {along[-1]:,.0f} ms of CPU (target {MCTS_TARGET_MS} ms)"
                )
        for label, figure in game_figures(game):
            print(f"  {label}: {figure}")
        if not args.no_build:
            print(f"  kit build (a4 + letter, all formats): {build_seconds(game)}")
    if not args.no_studio and (not args.games_to_bench or "exploding-dice" in names):
        print("\n".join(studio_report()))
    if not args.no_dask and not args.games_to_bench:
        bench_dask.main([])
    if not args.no_stop and not args.games_to_bench:
        bench_stop.main([])
    if not args.no_tune and (not args.games_to_bench or "exploding-dice" in names):
        print("\n".join(tune_report()))
