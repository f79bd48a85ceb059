"""`pnp solve`: the command line over `pnp.sim.solve`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from pnp.cli.simulate import whole_number
from pnp.games import get_game
from pnp.runtime.atomic import check_user_file, stream_named, write_user_file
from pnp.runtime.errors import PnpError


def solve(
    game: Annotated[str, typer.Argument(help="A game from 'pnp list' that has a solver.")],
    players: Annotated[
        int | None, typer.Option(help="Players (default: the game's own).", parser=whole_number)
    ] = None,
    config: Annotated[
        Path | None, typer.Option(help="TOML file overriding kit parameters.")
    ] = None,
    budget: Annotated[
        int | None,
        typer.Option(
            help="Most positions to search (default: the game's own, enough to prove its "
            "default board where it can say; else 1,000,000).",
            parser=whole_number,
        ),
    ] = None,
    json_out: Annotated[
        str | None, typer.Option("--json", help="Write the answer as JSON to a file ('-': stdout).")
    ] = None,
    pdf: Annotated[
        str | None,
        typer.Option(help="Draw a winning line as board diagrams, one per turn, in this PDF."),
    ] = None,
) -> None:
    """Search for a winning line from the kit's start position: won / unwinnable / unknown."""
    from pnp.sim.solution import check_pdf_target
    from pnp.sim.solve import draw_solution, plain, run_solve, turn_lines

    if json_out is not None and not json_out.strip():
        raise PnpError("--json needs a file name, or '-' for stdout")
    if json_out not in (None, "-"):
        check_user_file(json_out)  # said now, not after the search
    target = None if pdf is None else check_pdf_target(get_game(game), pdf)
    answer = run_solve(game, players, config, budget)
    text = json.dumps(answer)
    if json_out == "-" or (json_out and stream_named(json_out) == 1):
        print(text)
        if target is not None:
            draw_solution(game, config, answer, target)
        return
    if json_out:
        write_user_file(json_out, text + "\n")
    console = Console(highlight=False)
    console.print(f"{game}, {answer['players']} players: {plain(answer)}")
    for line in turn_lines(answer):
        console.print(f"  {line}", markup=False)
    if target is not None:
        draw_solution(game, config, answer, target)
        console.print(f"solution drawn in {target}", markup=False)
