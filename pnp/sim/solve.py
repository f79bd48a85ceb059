"""`pnp solve` as a library call: ask a game's solver whether its kit's start position can
be won (the command line is `pnp.cli.solve`).

The answer is honest about its budget: ``win`` with a line (and whether it is proven the
shortest), ``no-win`` only when the whole reachable space was explored, else ``unknown``.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnp.contract.config import read_toml, split_config
from pnp.contract.gamedef import (
    GameDef,
    Solver,
    default_budget,
    line_labels,
    max_budget,
    seat_range,
)
from pnp.draw.kit import PrintParams
from pnp.games import get_game
from pnp.runtime.errors import OutOfMemory, PnpError
from pnp.runtime.progress import Ticker
from pnp.sim.seats import engine_for, seat_count
from pnp.sim.solution import solution_pdf, write_solution_pdf

MAX_BUDGET = 10**7
"""Nodes a solver may be given unless it declares its own `MAX_BUDGET` (what its memory per
node lets an ordinary machine meet)."""


def solver_for(game: GameDef) -> Solver:
    if game.solver is None:
        raise PnpError(f"{game.title} has no solver: 'pnp solve' needs one")
    return game.solver


def kit_params(
    gdef: GameDef, config: Path | None, values: dict[str, Any] | None = None
) -> tuple[Any, PrintParams]:
    """The game's parameters and the print parameters: the config file if one is given, then
    `values` (config keys given directly)."""
    data = {**(read_toml(config) if config is not None else {}), **(values or {})}
    source = f"config file {config}" if config is not None else "options"
    return split_config(data, gdef.default_params(), source, seat_range(gdef))


def draw_solution(
    game: str,
    config: Path | None,
    answer: dict[str, Any],
    pdf: Path,
    values: dict[str, Any] | None = None,
) -> Path:
    """Draw a won answer's line in the PDF `pdf`, on the config's paper."""
    gdef = get_game(game)
    params, printing = kit_params(gdef, config, values)
    return write_solution_pdf(pdf, solution_pdf(gdef, params, printing, answer))


def run_solve(
    game: str,
    players: int | None = None,
    config: Path | None = None,
    budget: int | None = None,
    values: dict[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Solve the kit's start position; the JSON object `pnp solve --json` prints. `budget`
    None is the solver's default (`default_budget`); `values` are config keys given
    directly, after the config file's; `progress(nodes, budget)` replaces the stderr line
    every few seconds."""
    gdef = get_game(game)
    solver = solver_for(gdef)
    if budget is None:
        budget = default_budget(solver)
    most = max_budget(solver, MAX_BUDGET)
    if not 1 <= budget <= most:
        raise PnpError(f"--budget must be from 1 to {most:,} nodes, got {budget:,}")
    engine = engine_for(gdef)
    players = seat_count(gdef, players)
    params, _ = kit_params(gdef, config, values)
    model = engine.prepare(params, players)
    started = time.perf_counter()
    extra: dict[str, Callable[[int, int], None]] = {}
    if "progress" in inspect.signature(solver.solve).parameters:
        extra["progress"] = progress or Ticker(f"{game}: solving", "positions searched")
    answer = None
    try:
        answer = solver.solve(model, players, budget, **extra)
    except MemoryError:
        pass  # raised below, once leaving this block has freed the search's positions
    if answer is None:
        raise OutOfMemory(f"out of memory after part of a {budget:,}-node search: lower --budget")
    seconds = time.perf_counter() - started
    out: dict[str, Any] = {"game": game}
    out.update(answer.info)
    out.setdefault("players", players)
    out.update(
        result=answer.result,
        length=answer.length,
        shortest=answer.shortest,
        nodes=answer.nodes,
        budget=budget,
        seconds=round(seconds, 3),
        start=answer.start,
        line=list(answer.line),
    )
    labels = line_labels(solver, model, answer.line)
    if labels is not None:
        out["line_labels"] = labels
    return out


def plain(answer: dict[str, Any]) -> str:
    """The answer in one sentence."""
    nodes = f"{answer['nodes']:,} positions searched in {answer['seconds']:.1f} s"
    more = f"; a --budget above {answer['budget']:,} may prove more" if "budget" in answer else ""
    if answer["result"] == "win":
        if answer["shortest"]:
            return f"won in {answer['length']} turns (the shortest possible); {nodes}"
        return f"won in {answer['length']} turns (not proven the shortest); {nodes}{more}"
    if answer["result"] == "no-win":
        return f"proved unwinnable: every reachable position explored; {nodes}"
    return f"unknown within the budget: no win found; {nodes}{more}"


def turn_lines(answer: dict[str, Any]) -> list[str]:
    """The winning line in the printed board's names, one numbered turn a line (none when
    the game's solver cannot name the board's spaces)."""
    labels = answer.get("line_labels") or []
    width = len(str(len(labels)))
    return [f"{i:>{width}}. {text}" for i, text in enumerate(labels, 1)]
