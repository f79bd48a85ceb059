"""`pnp simulate`: solitaire-test a game's kit with bots and report the metrics.

`run_simulation` is the library call (the command only parses options and prints);
`simulate` is the typer command the CLI registers with ``app.command()(simulate)``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from pnp.atomic import write_text
from pnp.config import read_toml, split_config
from pnp.errors import PnpError
from pnp.games import GameDef, get_game
from pnp.sim.metrics import Accumulator, summary
from pnp.sim.runner import default_jobs, is_tty, run


@dataclass
class Simulation:
    """A finished (or interrupted) run: the JSON object and the tallies behind it."""

    summary: dict
    acc: Accumulator
    interrupted: bool
    title: str
    options: dict[str, Any]


def engine_for(game: GameDef) -> Any:
    """The game's simulation engine (`GameDef.engine`)."""
    if game.engine is not None:
        return game.engine
    if game.slug == "exploding-dice":  # until game.py sets GameDef.engine
        from pnp.games.exploding_dice import engine

        return engine
    raise PnpError(f"{game.slug} has no rules engine yet, so it cannot be simulated")


def run_simulation(
    game: str,
    games: int = 1000,
    players: int = 4,
    bot: str = "random",
    seed: int = 1,
    jobs: int = 1,
    config: Path | None = None,
    two_colours: bool = False,
    progress=None,
) -> Simulation:
    """Check the request, build the play model from the kit's params, play, tally."""
    gdef = get_game(game)
    engine = engine_for(gdef)
    if games < 1:
        raise PnpError(f"--games must be at least 1, got {games}")
    if jobs < 1:
        raise PnpError(f"--jobs must be at least 1, got {jobs}")
    lo, hi = engine.MIN_PLAYERS, engine.MAX_PLAYERS
    if not lo <= players <= hi:
        raise PnpError(f"{gdef.title} takes {lo} to {hi} players, got {players}")
    if bot not in engine.BOTS:
        raise PnpError(f"unknown bot '{bot}': choose one of {', '.join(engine.BOTS)}")
    params = gdef.default_params()
    if config is not None:
        params, _ = split_config(read_toml(config), params, f"config file {config}")
    model = engine.prepare(params, players, two_colours)
    options: dict[str, Any] = {"two_colours": True} if two_colours else {}
    result = run(engine, model, players, bot, games, seed, jobs, options, progress)
    colours = tuple(getattr(model, "colours", ()))
    shown = {"two colours each": "yes"} if two_colours else {}
    if config is not None:
        shown["config"] = Path(config).name
    return Simulation(
        summary=summary(game, players, bot, seed, result.acc, colours),
        acc=result.acc,
        interrupted=result.interrupted,
        title=gdef.title,
        options=shown,
    )


def summary_table(s: dict) -> Table:
    """The readable summary printed on stdout."""
    m = s["metrics"]
    d = m["duration_turns"]
    t = Table(
        title=f"{s['game']}: {s['games']} games, {s['players']} players, bot {s['bot']}, "
        f"seed {s['seed']}"
    )
    t.add_column("metric")
    t.add_column("value", justify="right")
    t.add_row("turns (mean / median)", f"{d['mean']:.1f} / {d['median']:.1f}")
    t.add_row("turns (p5 - p95)", f"{d['p5']:.0f} - {d['p95']:.0f}")
    for reason, count in s["end_reasons"].items():
        t.add_row(f"end: {reason}", f"{count} ({100 * count / max(1, s['games']):.1f} %)")
    t.add_row("advantage_p1", f"{m['advantage_p1']:.3f}")
    t.add_row("balance", f"{m['balance']:.3f}")
    t.add_row("completion", f"{m['completion']:.3f}")
    t.add_row("timeouts", f"{m['timeouts']:.3f}")
    t.add_row("drawishness", f"{m['drawishness']:.3f}")
    t.add_row("win rate by seat", "  ".join(f"{r:.3f}" for r in m["win_rate_by_seat"]))
    for colour, rate in m["win_rate_by_colour"].items():
        t.add_row(f"win rate: {colour}", f"{rate:.3f}")
    t.add_row("lead changes / game", f"{m['lead_changes']:.2f}")
    t.add_row("mid-game leader wins", f"{m['leader_at_midgame_wins']:.3f}")
    return t


def simulate(
    game: Annotated[str, typer.Argument(help="A game from 'pnp list'.")],
    games: Annotated[int, typer.Option(help="How many games to play.")] = 1000,
    players: Annotated[int, typer.Option(help="Players per game.")] = 4,
    bot: Annotated[str, typer.Option(help="Bot for every seat: random or greedy.")] = "random",
    seed: Annotated[int, typer.Option(help="Master seed; game i uses '<seed>:<i>'.")] = 1,
    jobs: Annotated[
        int, typer.Option(help="Worker processes (results do not depend on it).")
    ] = default_jobs(),
    config: Annotated[
        Path | None, typer.Option(help="TOML file overriding kit parameters.")
    ] = None,
    json_out: Annotated[
        str | None, typer.Option("--json", help="Write the JSON results to a file ('-': stdout).")
    ] = None,
    report: Annotated[bool, typer.Option(help="Write OUT/<game>/report.html with plots.")] = False,
    two_colours: Annotated[bool, typer.Option(help="Two players, two colours each.")] = False,
    out: Annotated[Path, typer.Option(help="Output folder for --report.")] = Path("output"),
) -> None:
    """Solitaire-test a game with bots: game length, end reasons, seat balance, lead changes."""
    err = Console(stderr=True)
    if is_tty():
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        columns = ("{task.description}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=err, transient=True) as bar:
            task = bar.add_task(game, total=games)
            sim = run_simulation(
                game,
                games,
                players,
                bot,
                seed,
                jobs,
                config,
                two_colours,
                progress=lambda n: bar.update(task, completed=n),
            )
    else:
        sim = run_simulation(game, games, players, bot, seed, jobs, config, two_colours)
    text = json.dumps(sim.summary, indent=2)
    if json_out == "-":
        print(text)
    else:
        if json_out:
            write_text(Path(json_out), text + "\n")
        Console().print(summary_table(sim.summary))
    if report:
        from pnp.sim.report import write_report

        path = write_report(
            sim.summary, sim.acc, out / game / "report.html", sim.title, sim.options
        )
        err.print(f"report: {path}", highlight=False)
    if sim.interrupted:
        err.print(f"interrupted: {sim.summary['games']} of {games} games finished")
        raise typer.Exit(130)
