"""A ladder of skill: the same settings played with every seat random, every seat greedy
and every seat mcts (and, when asked, mcts at a second budget), each designer metric read
rung by rung with its 95 % interval.

A metric whose greedy and mcts intervals do not overlap **depends on skill**: the answer
a designer reads depends on who plays, and one bot's figure is not the game's. A metric
whose intervals overlap on every rung **holds on every rung**. Between the two, the rungs
differ somewhere else (random play apart from the others): "differs between rungs". A
rung without an interval (too few games, no spread) leaves the verdict open.

mcts games cost seconds each, so the mcts rungs play at most `MCTS_GAMES` games (the
`--ladder-games` option) while random and greedy play `--games`; every rung uses the
same seeds, game i on `<seed>:<i>`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pnp.games import get_game
from pnp.runtime.errors import PnpError
from pnp.sim.command import Request, Simulation, finish_simulation
from pnp.sim.runner import GridProgress, check_limits, run_jobs
from pnp.sim.seats import engine_for, seat_count

NAIVE = ("random", "greedy")  # the engine's own bots, weakest first, when it has them
MCTS_GAMES = 20  # games an mcts rung plays by default: mcts costs seconds a game
DEPENDS = "depends on skill"
HOLDS = "holds on every rung"
DIFFERS = "differs between rungs"
OPEN = "interval n/a on some rung"
SAME = "the same in every game"


@dataclass(frozen=True)
class Rung:
    """One rung: every seat plays `bot` (an mcts rung at `budget` playouts a decision)."""

    name: str  # "random", "greedy", "mcts", "mcts 400"
    bot: str
    games: int
    budget: int | None = None


def rungs(request: Request, mcts_games: int, second_budget: int | None = None) -> list[Rung]:
    """The rungs of a ladder over this request's settings, weakest first."""
    engine = engine_for(get_game(request.game))
    out = [Rung(b, b, request.games) for b in NAIVE if b in engine.BOTS]
    mcts = min(request.games, mcts_games)
    out.append(Rung("mcts", "mcts", mcts, request.budget))
    if second_budget is not None:
        out.append(Rung(f"mcts {second_budget}", "mcts", mcts, second_budget))
    return out


def run_ladder(
    request: Request,
    mcts_games: int = MCTS_GAMES,
    second_budget: int | None = None,
    progress: GridProgress | None = None,
) -> list[tuple[Rung, Simulation]]:
    """Every rung planned (and checked) before the first game, then all played in one
    `run_jobs` call; the list ends with a rung cut short (Ctrl-C, a worker died)."""
    if request.bots is not None:
        raise PnpError("--ladder chooses the seats itself: not with --bots")
    if mcts_games < 1:
        raise PnpError(f"--ladder-games must be at least 1, got {mcts_games}")
    seat_count(get_game(request.game), request.players)
    ladder = rungs(request, mcts_games, second_budget)
    plans = []
    for rung in ladder:
        check_limits(rung.games, request.jobs)
        one = dataclasses.replace(request, bot=rung.bot, games=rung.games, budget=rung.budget)
        plans.append(one.plan())
    done = run_jobs(
        [p.job for p in plans], request.jobs, progress, request.scheduler, request.scheduler_timeout
    )
    return [(r, finish_simulation(p, d)) for r, p, d in zip(ladder, plans, done, strict=False)]


@dataclass(frozen=True)
class Reading:
    """One metric read on every rung: its value and interval per rung, and the verdict."""

    key: str
    label: str
    values: list[float | None]
    cis: list[list[float] | None]
    verdict: str


def _overlap(spans: Sequence[Sequence[float]]) -> bool:
    """Do all these intervals share a point (on a line: the highest low under the lowest
    high)?"""
    return max(lo for lo, _ in spans) <= min(hi for _, hi in spans)


def verdict(
    names: Sequence[str],
    cis: Sequence[Sequence[float] | None],
    values: Sequence[float | None] = (),
) -> str:
    """The skill verdict of one metric from its intervals, rung by rung: greedy apart from
    an mcts rung is `DEPENDS` (without a greedy rung, the strongest naive one), all
    overlapping `HOLDS`, else `DIFFERS`; `OPEN` when a rung it needs has no interval,
    unless no rung has one and every rung has the same value (`SAME`: a counter that
    counts the same in every game, such as tiles placed)."""
    if values and all(ci is None for ci in cis) and len(set(values)) == 1:
        return SAME
    naive = [i for i, n in enumerate(names) if not n.startswith("mcts")]
    thinking = [i for i, n in enumerate(names) if n.startswith("mcts")]
    strongest = naive[-1] if naive else None
    for m in thinking:
        a, b = (cis[strongest], cis[m]) if strongest is not None else (None, None)
        if a and b and not _overlap([a, b]):
            return DEPENDS
    if any(ci is None for ci in cis):
        return OPEN
    return HOLDS if _overlap([ci for ci in cis if ci]) else DIFFERS


def _metric_rows(s: Mapping[str, Any]) -> list[tuple[str, str, float | None, Any]]:
    """(key, label, value, interval) of each designer metric of one rung's summary."""
    m = s["metrics"]
    d = m["duration_turns"]
    rows: list[tuple[str, str, float | None, Any]] = [
        ("duration_turns", "turns a game (mean)", d["mean"], d.get("ci"))
    ]
    cooperative = bool(s.get("cooperative"))
    rows.append(
        ("completion", "team wins" if cooperative else "completion", m["completion"],
         m.get("completion_ci"))
    )  # fmt: skip
    if not cooperative:
        for i, (rate, ci) in enumerate(
            zip(m["win_rate_by_seat"], m["win_rate_by_seat_ci"], strict=True)
        ):
            rows.append((f"seat_{i + 1}", f"seat {i + 1} win share", rate, ci))
    for key, value in m.items():
        if isinstance(value, dict) and "total" in value:
            rows.append((key, f"{key.replace('_', ' ')} a game (mean)", value["mean"],
                         value.get("ci")))  # fmt: skip
    return rows


def readings(ladder: Sequence[tuple[Rung, Mapping[str, Any]]]) -> list[Reading]:
    """Each metric of the ladder read across its rungs, in the order a summary has them."""
    names = [r.name for r, _ in ladder]
    per_rung = [{k: (label, v, ci) for k, label, v, ci in _metric_rows(s)} for _, s in ladder]
    out = []
    for key, (label, _, _) in per_rung[0].items():
        values = [p.get(key, (label, None, None))[1] for p in per_rung]
        cis = [p.get(key, (label, None, None))[2] for p in per_rung]
        out.append(Reading(key, label, values, cis, verdict(names, cis, values)))
    return out


def seats_said(rung: Rung, players: int, budget: int | None) -> str:
    """Who played a rung, seat by seat: `every seat mcts (1000 playouts)`."""
    who = f"every seat {rung.bot}" if players > 1 else f"the seat {rung.bot}"
    return who + (f" ({budget:,} playouts a decision)" if budget else "")


def ladder_json(request: Request, ladder: Sequence[tuple[Rung, Simulation]]) -> dict[str, Any]:
    """The JSON of a ladder: each rung's players and full summary, then each metric's
    value and interval per rung and its skill verdict."""
    first = ladder[0][1].summary
    steps = []
    for rung, sim in ladder:
        s = sim.summary
        budget = s.get("bot_budget")
        steps.append(
            {
                "rung": rung.name,
                "seats": [rung.bot] * s["players"],
                "players_said": seats_said(rung, s["players"], budget),
                **s,
            }
        )
    reading = readings([(r, sim.summary) for r, sim in ladder])
    return {
        "game": first["game"],
        "players": first["players"],
        "seed": first["seed"],
        "ladder": steps,
        "skill": {
            r.key: {
                "label": r.label,
                "verdict": r.verdict,
                "rungs": {
                    rung.name: {"value": v, "ci": ci}
                    for (rung, _), v, ci in zip(ladder, r.values, r.cis, strict=True)
                },
            }
            for r in reading
        },
        "first_player_advantage": {
            rung.name: (sim.summary.get("fairness") or {}).get("first_player_advantage")
            for rung, sim in ladder
        },
    }
