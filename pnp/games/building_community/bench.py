"""Building Community benchmark figures: solver positions per second, games per second (in
the kernel and on the Python fast path), and the radius-3 proofs of the shortest win.

A benchmark, not a test: figures depend on the machine and its load, so each is given
per CPU second of this process (what an otherwise idle core would do); the proofs give
their wall-clock and CPU seconds side by side with the figure before the proof (a line
found, none proven). `PNP_BC_PROOFS` picks the player counts proved (default: all five,
2 to 6; `PNP_BC_PROOFS=2` for a quick look).
"""

from __future__ import annotations

import os
import time
from functools import partial

from pnp.games.building_community import engine
from pnp.games.building_community.fast import kernel, solver, solver_proof
from pnp.games.building_community.params import MAX_SOLVER_BUDGET, BuildingCommunityParams
from pnp.games.building_community.rules.model import play_model
from pnp.play import fastpath
from pnp.runtime.rates import rate_of

BEFORE = {2: 11, 3: 12, 4: 15, 5: 27, 6: 13}
"""Radius 3: the turns of the line the solver found before the proof (none proven)."""
PROOF_LIMIT = 600.0  # seconds the issue allows one proof on this machine


def _solve_nodes(radius: int, budget: int) -> int:
    return solver.solve(play_model(BuildingCommunityParams(radius=radius)), 2, budget).nodes


def _games(bot: str, games: int) -> int:
    model = play_model(BuildingCommunityParams())
    engine.warm(model)
    for i in range(games):
        engine.play_one(model, 2, bot, f"bench:{i}")
    return games


def games_rows() -> list[tuple[str, str]]:
    """Whole games a CPU second, each bot in the kernel and on the Python fast path it
    replaces (the same games)."""
    out = []
    compiled = kernel._search is not None
    for bot in engine.BOTS:
        for name in (kernel.KERNEL.name, engine.FAST):
            if name == kernel.KERNEL.name and not compiled:
                out.append((f"building-community {bot} games, kernel", "n/a: not built"))
                continue
            with fastpath.using(name):
                rate = rate_of(partial(_games, bot, 2000), children=False)
            out.append((f"building-community {bot} games (R=3, 2 players), {name}", rate.text()))
    return out


def proof_players() -> list[int]:
    spec = os.environ.get("PNP_BC_PROOFS", "2,3,4,5,6")
    return [int(p) for p in spec.split(",") if p.strip()]


def proof(players: int) -> tuple[str, str]:
    """One radius-3 proof: its length, whether proven, nodes, seconds (wall, CPU)."""
    model = play_model(BuildingCommunityParams(radius=3))
    wall, cpu = time.perf_counter(), time.process_time()
    result = solver.solve(model, players, MAX_SOLVER_BUDGET)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    verdict = "proven shortest" if result.shortest else "NOT proven"
    within = "within" if wall <= PROOF_LIMIT else "OVER"
    label = f"building-community proof (R=3, {players} players)"
    return label, (
        f"{result.length} turns, {verdict}: {result.nodes:,} positions, {wall:.1f} s wall "
        f"({cpu:.1f} CPU s; {within} the {PROOF_LIMIT:.0f} s target); before: "
        f"{BEFORE[players]} turns found, none proven"
    )


def bench() -> list[tuple[str, str]]:
    """(label, figure) rows for `make bench`."""
    rows = [  # R=2 is the compiled proof, R=3 at this budget mostly the best-first pass
        ("building-community solver (R=2, 2 players, solved)", lambda: _solve_nodes(2, 10**7)),
        ("building-community solver (R=3, 2 players)", lambda: _solve_nodes(3, 200_000)),
    ]
    out = [(label, rate_of(work, children=False).text("positions")) for label, work in rows]
    out.extend(games_rows())
    if solver_proof._search is None:
        out.append(("building-community proofs (R=3)", "n/a: the compiled search was not built"))
        return out
    out.extend(proof(players) for players in proof_players())
    return out
