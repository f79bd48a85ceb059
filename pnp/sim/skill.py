"""Ludii's skill trace: how much a thinking player gains over naive ones.

One `mcts` seat plays against seats that are all `random`, then all `greedy`; the mcts
seat takes each position in turn (a mixed lineup's rotation, `pnp.sim.seats.Lineup`), so
the first-player advantage does not flatter it. A competitive game reports the mcts seat's
win share (a shared win split) beside the fair share 1/players; a cooperative game, the
team's win rate with one mcts seat beside the team of naive bots alone. Every share
carries its 95 % Wilson interval. A share near the fair one says skill barely matters:
a warning for the designer.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from pnp.games import get_game
from pnp.sim.command import Request, Simulation
from pnp.sim.intervals import wilson
from pnp.sim.runner import RunFailed
from pnp.sim.seats import engine_for, seat_count

OPPONENTS = ("random", "greedy")


def _share(wins: float, games: int) -> dict[str, Any]:
    lo, hi = wilson(wins, games)
    return {
        "games": games,
        "wins": round(wins, 4),
        "share": round(wins / games, 4) if games else None,
        "ci": [round(lo, 4), round(hi, 4)],
    }


def skill_trace(request: Request) -> dict[str, Any]:
    """The trace's JSON: `request.games` games per opponent kind the game has."""
    engine = engine_for(get_game(request.game))
    players = seat_count(get_game(request.game), request.players)
    against: dict[str, Any] = {}
    budget = None
    for kind in (k for k in OPPONENTS if k in engine.BOTS):
        bots = ",".join(["mcts", *[kind] * (players - 1)])
        sim = _whole(dataclasses.replace(request, bots=bots))
        budget = sim.summary["bot_budget"]
        if engine.COOPERATIVE:
            entry = _share(float(sim.acc.team_wins), sim.acc.games)
            alone = _whole(dataclasses.replace(request, bots=None, bot=kind))
            entry["without_mcts"] = _share(float(alone.acc.team_wins), alone.acc.games)
        else:
            acc = sim.acc
            won = sum(acc.bot_wins["mcts", s] for s in range(players)) / acc.unit
            entry = _share(won, sum(acc.bot_games["mcts", s] for s in range(players)))
            entry["by_seat"] = sim.summary["bot_shares"]["mcts"]["by_seat"]
        against[kind] = entry
    return {
        "game": request.game,
        "players": players,
        "seed": request.seed,
        "bot_budget": budget,
        "cooperative": engine.COOPERATIVE,
        "fair_share": None if engine.COOPERATIVE else round(1 / players, 4),
        "skill_trace": against,
    }


def _whole(request: Request) -> Simulation:
    """One of the trace's runs, played in full: a run stopped by Ctrl-C or SIGTERM stops
    the whole trace (KeyboardInterrupt: the command ends as any other stopped one, and no
    share is reported from part of the games), and so does one whose worker died."""
    sim = request.run()
    if sim.failure:
        raise RunFailed(f"{sim.failure}; the skill trace stopped and reports nothing")
    if sim.interrupted:
        raise KeyboardInterrupt
    return sim
