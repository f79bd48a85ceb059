"""Benchmark: a sweep's grid on the local pool and on a 2-worker Dask LocalCluster, side by
side in one run (`make bench` runs it after the games; ``python -m pnp.bench.dask`` alone).

Two grids: 10 Exploding Dice settings (players x dice per colour) of 20,000 games each, and
5 Parcheesi settings (players, printed or standard rules). Each is played on the local pool
(`run_jobs`, 2 workers) and on a LocalCluster of 2 worker processes started for the run, as
`pnp simulate --scheduler local --jobs 2` would; the JSON of both must be the same. The
Dask time includes starting the cluster, and is also given without it (the cost of the start
is timed on its own), since a real cluster is started once for many runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import time
from collections.abc import Sequence

from pnp.contract.config import split_config
from pnp.games import get_game
from pnp.runtime.rates import timed
from pnp.sim.metrics import summary
from pnp.sim.runner import Job, RunResult, run_jobs
from pnp.sim.seats import engine_for

TARGET = 15  # per cent: the Dask overhead aimed at on a 2-core machine (issue 21)
WORKERS = 2


def exploding_dice_grid(games: int) -> list[Job]:
    gdef = get_game("exploding-dice")
    engine = engine_for(gdef)
    jobs = []
    for players in (2, 4):
        for dice in (2, 3, 4, 5, 6):
            params, _ = split_config({"dice_per_colour": dice}, gdef.default_params(), "bench")
            jobs.append(Job(engine, engine.prepare(params, players), players, "random", games, 1))
    return jobs


def parcheesi_grid(games: int) -> list[Job]:
    gdef = get_game("parcheesi")
    engine = engine_for(gdef)
    settings = [(2, "seed"), (3, "seed"), (4, "seed"), (2, "standard"), (4, "standard")]
    jobs = []
    for players, rules in settings:
        options = {"rules": rules}
        model = engine.prepare(gdef.default_params(), players, **options)
        jobs.append(Job(engine, model, players, "random", games, 1, options))
    return jobs


def _json(jobs: Sequence[Job], results: Sequence[RunResult]) -> str:
    return json.dumps(
        [
            summary("grid", j.players, "random", j.seed, r.acc)
            for j, r in zip(jobs, results, strict=True)
        ]
    )


def cluster_start_seconds() -> float:
    """Seconds to start a LocalCluster of `WORKERS` processes and check its workers."""
    from pnp.sim.dask_backend import connect

    began = time.perf_counter()
    with connect("local", 60.0, WORKERS):  # (client, stop): unused
        started = time.perf_counter() - began
    return started


def _timed(jobs: Sequence[Job], scheduler: str | None) -> tuple[list[RunResult], float, float]:
    """The grid's results, its wall-clock seconds and its CPU seconds (all processes: the
    pool's workers, the LocalCluster's nannies and, through them, its workers)."""
    with timed() as span:
        results = run_jobs(jobs, WORKERS, scheduler=scheduler, scheduler_timeout=60.0)
    return results, span.wall, span.cpu


def compare(label: str, jobs: Sequence[Job]) -> None:
    """Play the grid on both backends and print the times and the overhead."""
    games = sum(j.games for j in jobs)
    local, pool, pool_cpu = _timed(jobs, None)
    dask, cluster, cluster_cpu = _timed(jobs, "local")
    start = cluster_start_seconds()
    same = "same JSON" if _json(jobs, local) == _json(jobs, dask) else "JSON DIFFERS"
    print(f"{label}: {len(jobs)} settings, {games:,} games; {same}")
    print(
        f"  local pool, {WORKERS} workers:        {pool:6.2f} s wall, {pool_cpu:6.2f} s CPU "
        f"({games / pool:8,.0f} games/s)"
    )
    print(
        f"  Dask LocalCluster, {WORKERS} workers: {cluster:6.2f} s wall, {cluster_cpu:6.2f} s CPU "
        f"({games / cluster:8,.0f} games/s), {start:.2f} s of it starting the cluster"
    )
    whole = 100 * (cluster - pool) / pool
    played = 100 * (cluster - start - pool) / pool
    cpu = 100 * (cluster_cpu - pool_cpu) / pool_cpu
    print(
        f"  Dask overhead: {whole:+.0f} % wall with the cluster's start, {played:+.0f} % "
        f"without; {cpu:+.0f} % CPU (target < {TARGET} %)"
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m pnp.bench.dask", description=__doc__)
    ap.add_argument("--games", type=int, default=20_000, help="Exploding Dice games a setting")
    ap.add_argument("--parcheesi-games", type=int, default=4_000, help="Parcheesi games a setting")
    ap.add_argument(
        "--only",
        choices=["pool", "dask"],
        help="play one grid (--grid) on one backend only, to time the whole process",
    )
    ap.add_argument("--grid", choices=["exploding-dice", "parcheesi"], default="exploding-dice")
    args = ap.parse_args(argv)
    if args.only:
        scheduler = "local" if args.only == "dask" else None
        grid = (
            exploding_dice_grid(args.games)
            if args.grid == "exploding-dice"
            else parcheesi_grid(args.parcheesi_games)
        )
        run_jobs(grid, WORKERS, scheduler=scheduler)
        return
    if importlib.util.find_spec("distributed") is None:
        print("Dask sweeps: skipped (pip install 'pnp-kits[dask]')")
        return
    print(f"Dask sweeps (load average now {os.getloadavg()[0]:.2f}):")
    compare("Exploding Dice grid", exploding_dice_grid(args.games))
    compare("Parcheesi grid", parcheesi_grid(args.parcheesi_games))


if __name__ == "__main__":
    main()
