"""`pnp solve`: ask a game's solver whether its kit's start position can be won.

The answer is honest about its budget: ``win`` with a line (and whether it is proven the
shortest), ``no-win`` only when the whole reachable space was explored, else ``unknown``.
"""

from __future__ import annotations

import inspect
import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from pnp.atomic import check_user_file, stream_named, write_user_file
from pnp.config import read_toml, split_config
from pnp.errors import OutOfMemory, PnpError
from pnp.games import GameDef, get_game
from pnp.progress import Ticker
from pnp.sim.command import whole_number

MAX_BUDGET = 10**7
"""Nodes a solver may be given unless it declares its own `MAX_BUDGET` (what its memory per
node lets an ordinary machine meet)."""


def solver_for(game: GameDef) -> Any:
    if game.solver is None:
        raise PnpError(f"{game.title} has no solver: 'pnp solve' needs one")
    return game.solver


def run_solve(
    game: str, players: int | None = None, config: Path | None = None, budget: int = 1_000_000
) -> dict[str, Any]:
    """Solve the kit's start position; the JSON object `pnp solve --json` prints."""
    gdef = get_game(game)
    solver = solver_for(gdef)
    engine = gdef.engine
    most = getattr(solver, "MAX_BUDGET", MAX_BUDGET)
    if not 1 <= budget <= most:
        raise PnpError(f"--budget must be from 1 to {most:,} nodes, got {budget:,}")
    if players is None:
        players = getattr(engine, "DEFAULT_PLAYERS", engine.MIN_PLAYERS)
    lo, hi = engine.MIN_PLAYERS, engine.MAX_PLAYERS
    if not lo <= players <= hi:
        raise PnpError(f"{gdef.title} takes {lo} to {hi} players, got {players}")
    params = gdef.default_params()
    if config is not None:
        params, _ = split_config(read_toml(config), params, f"config file {config}")
    model = engine.prepare(params, players)
    started = time.perf_counter()
    extra = {}
    if "progress" in inspect.signature(solver.solve).parameters:
        extra["progress"] = Ticker(f"{game}: solving", "positions searched")
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
        seconds=round(seconds, 3),
        start=answer.start,
        line=list(answer.line),
    )
    return out


def plain(answer: dict[str, Any]) -> str:
    """The answer in one sentence."""
    nodes = f"{answer['nodes']:,} positions searched in {answer['seconds']:.1f} s"
    if answer["result"] == "win":
        proof = "the shortest possible" if answer["shortest"] else "not proven the shortest"
        return f"won in {answer['length']} turns ({proof}); {nodes}"
    if answer["result"] == "no-win":
        return f"proved unwinnable: every reachable position explored; {nodes}"
    return f"unknown within the budget: no win found; {nodes}"


def solve(
    game: Annotated[str, typer.Argument(help="A game from 'pnp list' that has a solver.")],
    players: Annotated[
        int | None, typer.Option(help="Players (default: the game's own).", parser=whole_number)
    ] = None,
    config: Annotated[
        Path | None, typer.Option(help="TOML file overriding kit parameters.")
    ] = None,
    budget: Annotated[
        int, typer.Option(help="Most positions to search.", parser=whole_number)
    ] = 1_000_000,
    json_out: Annotated[
        str | None, typer.Option("--json", help="Write the answer as JSON to a file ('-': stdout).")
    ] = None,
) -> None:
    """Search for a winning line from the kit's start position: won / unwinnable / unknown."""
    if json_out is not None and not json_out.strip():
        raise PnpError("--json needs a file name, or '-' for stdout")
    if json_out not in (None, "-"):
        check_user_file(json_out)  # said now, not after the search
    answer = run_solve(game, players, config, budget)
    text = json.dumps(answer)
    if json_out == "-" or (json_out and stream_named(json_out) == 1):
        print(text)
        return
    if json_out:
        write_user_file(json_out, text + "\n")
    Console().print(f"{game}, {answer['players']} players: {plain(answer)}", highlight=False)
