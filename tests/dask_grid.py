"""A 2 x 3 grid of Exploding Dice settings (players x dice per colour) as `run_jobs` jobs,
and the JSON `pnp simulate --json` writes for each: what the Dask tests compare."""

from __future__ import annotations

import json

from pnp.contract.config import split_config
from pnp.contract.gamedef import cutoffs, ratios, totals
from pnp.games import get_game
from pnp.sim.metrics import summary
from pnp.sim.runner import Job, RunResult
from pnp.sim.seats import engine_for

GAME = "exploding-dice"
PLAYERS = (2, 3)
DICE = (2, 3, 4)


def grid_jobs(games: int, seed: int = 7) -> list[Job]:
    gdef = get_game(GAME)
    engine = engine_for(gdef)
    jobs = []
    for players in PLAYERS:
        for dice in DICE:
            params, _ = split_config({"dice_per_colour": dice}, gdef.default_params(), "test")
            model = engine.prepare(params, players)
            jobs.append(Job(engine, model, players, "random", games, seed))
    return jobs


def grid_json(jobs: list[Job], results: list[RunResult]) -> str:
    """One summary per setting, as `pnp simulate --json` builds it, as text (key order too)."""
    engine = jobs[0].engine
    out = []
    for job, result in zip(jobs, results, strict=True):
        out.append(
            summary(
                GAME,
                job.players,
                "random",
                job.seed,
                result.acc,
                tuple(getattr(job.model, "colours", ())),
                cooperative=engine.COOPERATIVE,
                counters=tuple(engine.COUNTERS),
                ratios=ratios(engine),
                abstraction=engine.ABSTRACTION,
                totals=totals(engine),
                unfinished=cutoffs(engine),
            )
        )
    return json.dumps(out, indent=1)
