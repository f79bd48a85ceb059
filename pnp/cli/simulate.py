"""`pnp simulate`: the command line over `pnp.sim.command` (options in, tables out)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer
from rich.console import Console
from rich.table import Table

from pnp.games import get_game
from pnp.runtime import interrupt
from pnp.runtime.atomic import (
    check_output_files,
    check_user_file,
    is_null_device,
    output_folder,
    stream_named,
    write_user_file,
)
from pnp.runtime.errors import PnpError
from pnp.runtime.interrupt import report_after_ctrl_c
from pnp.runtime.progress import Ticker
from pnp.sim import tables
from pnp.sim.command import (
    MAX_SEED,
    Request,
    Runs,
    cap_warnings,
    game_options,
    parse_options,
    results,
    run_all,
    write_run_report,
)
from pnp.sim.grid import MAX_SETTINGS, MAX_VALUES, Grid, label, parse_grid
from pnp.sim.ladder import MCTS_GAMES
from pnp.sim.ladder import rungs as ladder_rungs
from pnp.sim.runner import GridProgress, RunFailed, default_jobs, is_tty
from pnp.sim.seats import engine_for
from pnp.sim.tables import grid_rows, summary_rows


def whole_number(text: str | int) -> int:
    """An integer option's value, strictly: '2', '-7', '+3'; not '2.0' or '1_000', which
    the option parser would otherwise read as 2 and 1000. (A default arrives as an int.)"""
    if isinstance(text, int):
        return text
    if not re.fullmatch(r"\s*[+-]?[0-9]+\s*", text):
        said = text if len(text) <= 40 else text[:37] + "..."
        raise typer.BadParameter(f"'{said}' is not a whole number")
    digits = len(text.strip().lstrip("+-"))
    if digits > MAX_DIGITS:  # no option takes one; and not echoed, digit by digit
        raise typer.BadParameter(f"a whole number of {digits:,} digits is far too large")
    return int(text)


MAX_DIGITS = 30
"""Digits an integer option may have: every option's own limit is far below 10**30."""


class SimulateCommand(typer.core.TyperCommand):
    """`simulate --help` ends with each game's own options, read from the games' engines
    only when the help is shown."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        super().format_help(ctx, formatter)
        lines = ["Each game's own options (after the others):"]
        for slug, options in game_options().items():
            lines += [f"  {slug}:"] + [f"    {line}" for line in options]
        Console().print("\n".join(lines), highlight=False, markup=False, soft_wrap=True)


def simulate(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="A game from 'pnp list'.")],
    games: Annotated[int, typer.Option(help="How many games to play.", parser=whole_number)] = 1000,
    players: Annotated[
        int | None,
        typer.Option(
            help="Players per game (default: the config's players key, else the game's own).",
            parser=whole_number,
        ),
    ] = None,
    bot: Annotated[
        str, typer.Option(help="Bot for every seat: random, greedy or mcts (tree search).")
    ] = "random",
    bots: Annotated[
        str | None, typer.Option(help="One bot per seat, e.g. mcts,random,random,random.")
    ] = None,
    bot_budget: Annotated[
        int | None,
        typer.Option(help="Playouts per mcts decision (default: the game's).", parser=whole_number),
    ] = None,
    skill_trace: Annotated[
        bool, typer.Option(help="Win share of one mcts seat against random and greedy seats.")
    ] = False,
    seed: Annotated[
        int, typer.Option(help="Master seed; game i uses '<seed>:<i>'.", parser=whole_number)
    ] = 1,
    jobs: Annotated[
        int,
        typer.Option(help="Worker processes (results do not depend on it).", parser=whole_number),
    ] = default_jobs(),
    config: Annotated[
        Path | None,
        typer.Option(help="TOML file overriding kit parameters (and players, the seat count)."),
    ] = None,
    json_out: Annotated[
        str | None, typer.Option("--json", help="Write the JSON results to a file ('-': stdout).")
    ] = None,
    report: Annotated[bool, typer.Option(help="Write OUT/<game>/report.html with plots.")] = False,
    out: Annotated[str, typer.Option(help="Output folder for --report.")] = "output",
    sweep: Annotated[
        list[str] | None,
        typer.Option(
            help="KEY=V1,V2,... or a range KEY=A..B (whole numbers) or KEY=A..B:STEP: run "
            "once per value of a config key and compare. Give it again for another key: the "
            "runs are every combination (a grid), on the same seeds. 'players' sweeps "
            f"--players. At most {MAX_VALUES} values a key, {MAX_SETTINGS} settings."
        ),
    ] = None,
    progress: Annotated[
        str,
        typer.Option(
            help="auto (a bar on a terminal, else plain), bar, plain (a stderr line every "
            "few seconds) or none."
        ),
    ] = "auto",
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="Play on a Dask cluster: its scheduler's address (tcp://host:8786), or "
            "'local' for one on this machine with --jobs workers (pip install 'pnp-kits[dask]')."
        ),
    ] = None,
    scheduler_timeout: Annotated[
        float, typer.Option(help="Seconds to reach the Dask scheduler and find a worker.")
    ] = 10.0,
    ladder: Annotated[
        bool,
        typer.Option(
            help="A ladder of skill: play with every seat random, every seat greedy and "
            "every seat mcts, and say which figures depend on who plays."
        ),
    ] = False,
    ladder_games: Annotated[
        int,
        typer.Option(
            help="Games an mcts rung of --ladder plays (at most --games): mcts takes "
            "seconds a game.",
            parser=whole_number,
        ),
    ] = MCTS_GAMES,
    ladder_budget: Annotated[
        int | None,
        typer.Option(
            help="Add an mcts rung at this many playouts a decision to --ladder.",
            parser=whole_number,
        ),
    ] = None,
) -> None:
    """Solitaire-test a game with bots: game length, end reasons, seat balance, counters.

    A game's own options follow the others: Exploding Dice takes --two-colours, Parcheesi
    --rules standard ('pnp list' names them).

    A grid of settings, every combination run on the same seeds and compared: --sweep
    dice_per_colour=2..4 --sweep n=4,6 (ranges A..B or A..B:STEP, e.g. board_height=250..600:50)."""
    engine = engine_for(get_game(game))
    options = parse_options(engine, ctx.args)
    if json_out is not None and not json_out.strip():
        raise PnpError("--json needs a file name, or '-' for stdout")
    if not -MAX_SEED <= seed < MAX_SEED:
        raise PnpError(f"--seed must be a whole number below {MAX_SEED}, got {seed}")
    if progress not in PROGRESS_MODES:
        raise PnpError(f"--progress must be one of {', '.join(PROGRESS_MODES)}, got '{progress}'")
    grid = parse_grid(sweep, get_game(game)) if sweep else None
    out_folder = output_folder(out)
    if json_out not in (None, "-"):
        check_user_file(json_out)  # said now, not after the games are played
    if report:  # said now, not after the games are played
        check_output_files(out_folder, [f"{get_game(game).slug}/report.html", "index.html"])
    if scheduler is not None:
        from pnp.sim.dask_backend import check_timeout

        check_timeout(scheduler_timeout)
    request = Request(
        game, games, players, bot, seed, jobs, config, options, bots, bot_budget,
        scheduler=scheduler, scheduler_timeout=scheduler_timeout,
    )  # fmt: skip
    if ladder:
        if sweep or bots or skill_trace:
            raise PnpError(
                "--ladder chooses the seats itself: not with --bots, --sweep, --skill-trace"
            )
        _print_ladder(request, json_out, report, out_folder, ladder_games, ladder_budget, progress)
        return
    if skill_trace:
        if sweep or report or bots:
            raise PnpError(
                "--skill-trace chooses the seats itself: not with --bots, --sweep, --report"
            )
        _print_skill_trace(request, json_out)
        return
    with report_after_ctrl_c():  # a second Ctrl-C still reports the finished games
        if json_out not in (None, "-") and stream_named(json_out) == 2:
            progress = "none"  # the JSON goes to stderr: no progress line inside it
        runs = _simulate_and_print(request, json_out, report, out_folder, grid, progress)
    sim = runs[-1][1]
    if sim.failure:
        raise RunFailed(f"{sim.failure}; the run stopped: {_finished(request, runs, grid, True)}")
    if sim.interrupted:
        raise interrupt.Stopped  # the line above said so; exit 130 (143 for SIGTERM)


def _simulate_and_print(
    request: Request,
    json_out: str | None,
    report: bool,
    out: Path,
    grid: Grid | None = None,
    progress: str = "auto",
) -> Runs:
    """Run (once, or once per setting of the grid), then print the table or JSON, the
    warnings, and write the report; the command's body."""
    err = Console(stderr=True)
    runs = _run_with_progress(request, grid, err, progress)
    sim = runs[-1][1]
    text = json.dumps(results(runs, grid), indent=2)
    if json_out == "-" or (json_out and stream_named(json_out) == 1):
        print(text)  # the JSON is stdout: no table beside it
    else:
        if json_out:
            write_user_file(json_out, text + "\n")
        Console().print(sweep_table(grid, runs) if grid else summary_table(sim.summary))
    for warning in cap_warnings(request, runs):
        err.print(f"warning: {warning}", highlight=False, soft_wrap=True, markup=False)
    if report:
        from pnp.build.gallery import gallery_for
        from pnp.runtime.staging import Staging

        with Staging(out) as stage:  # the report and the gallery land together, or neither
            path = write_run_report(request, runs, out, grid, stage)
            index = gallery_for(
                out, stage, warn=lambda line: err.print(line, highlight=False, markup=False)
            )
        if is_null_device(out):
            err.print("report: nothing kept (--out is the null device)", highlight=False)
        else:
            err.print(f"report: {path}", highlight=False)
            err.print(f"gallery: {index}", highlight=False)
    if sim.interrupted and not sim.failure:
        err.print(f"interrupted: {_finished(request, runs, grid)}", highlight=False)
    return runs


def _finished(request: Request, runs: Runs, grid: Grid | None, commas: bool = False) -> str:
    """What a stopped run reports: `120 of 1000 games finished`, and for a grid the
    settings played in full before the one cut short."""
    last, sim = runs[-1]
    n, total = sim.summary["games"], request.games
    games = f"{n:,} of {total:,}" if commas else f"{n} of {total}"
    if not grid:
        return f"{games} games finished" + (" and are reported" if commas else "")
    return (
        f"{len(runs) - 1} of {len(grid)} settings finished, and {games} games of "
        f"{label(last)}; they are reported"
    )


PROGRESS_MODES = ("auto", "bar", "plain", "none")


def _run_with_progress(request: Request, grid: Grid | None, err: Console, mode: str) -> Runs:
    """Every setting in one go, with a progress bar on a terminal or plain lines on stderr
    (`--progress plain`, or `auto` when stderr is not a terminal): stdout keeps only the
    results. A grid's progress counts settings and games over the whole grid."""
    if mode == "auto":
        mode = "bar" if is_tty() else "plain"
    settings = len(grid) if grid else 1
    total = request.games * settings
    if mode == "none":
        return run_all(request, grid)
    if mode == "plain":
        return run_all(request, grid, plain_grid_progress(request.game, settings, total))
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    columns: list[Any] = ["{task.description}", BarColumn(), MofNCompleteColumn()]
    if grid:
        columns += ["{task.fields[settings]}", "{task.fields[rate]}"]
    columns.append(TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task(request.game, total=total, settings="", rate="")
        rate = _Rate()

        def told(done_settings: int, games: int) -> None:
            bar.update(
                task,
                completed=games,
                settings=f"{done_settings} of {settings} settings",
                rate=f"{rate(games):,.0f} games/s",
            )

        return run_all(request, grid, told)


class _Rate:
    """Games per second since the run began."""

    def __init__(self) -> None:
        self.start = time.monotonic()

    def __call__(self, games: int) -> float:
        return games / max(1e-9, time.monotonic() - self.start)


def plain_progress(
    label: str, total: int, every: float | None = None, stream: TextIO | None = None
) -> Callable[[int], None]:
    """`label: 1,200 of 10,000 games…` on stderr every few seconds (none for a quick run)."""
    ticker = Ticker(label, "games", every, stream)
    return lambda done: ticker(done, total)


def plain_grid_progress(
    label: str, settings: int, total: int, every: float | None = None, stream: TextIO | None = None
) -> GridProgress:
    """`plain_progress` over a grid: `label: 2 of 6 settings, 1,200 of 6,000 games, 850
    games/s…` (one setting: today's `label: 1,200 of 10,000 games…`)."""
    if settings == 1:
        one = plain_progress(label, total, every, stream)
        return lambda _settings, games: one(games)
    ticker = Ticker(label, "games", every, stream)
    rate = _Rate()

    def told(done: int, games: int) -> None:
        ticker.unit = f"games ({done} of {settings} settings done, {rate(games):,.0f} games/s)"
        ticker(games, total)

    return told


def _print_ladder(
    request: Request,
    json_out: str | None,
    report: bool,
    out: Path,
    mcts_games: int,
    second_budget: int | None,
    progress: str,
) -> None:
    """`--ladder`: play every rung, then the JSON or the table, and the report."""
    from pnp.sim.ladder import ladder_json, run_ladder
    from pnp.sim.seats import lineup

    err = Console(stderr=True)
    if second_budget is not None:  # checked now, not after the games are played
        engine = engine_for(get_game(request.game))
        lineup(engine, engine.MIN_PLAYERS, "mcts", None, second_budget)
    if json_out not in (None, "-") and stream_named(json_out) == 2:
        progress = "none"  # the JSON goes to stderr: no progress line inside it
    planned = ladder_rungs(request, mcts_games, second_budget)
    total = sum(r.games for r in planned)
    told = None  # plain lines on stderr every few seconds (a bar for a ladder: not yet)
    if progress != "none":
        told = plain_grid_progress(f"{request.game} ladder", len(planned), total)
    with report_after_ctrl_c():
        ladder = run_ladder(request, mcts_games, second_budget, told)
    last = ladder[-1][1]
    if last.failure:
        raise RunFailed(f"{last.failure}; the ladder stopped and reports nothing")
    if last.interrupted or len(ladder) < len(planned):
        err.print("interrupted: a ladder reads every rung in full; nothing is reported")
        raise interrupt.Stopped
    data = ladder_json(request, ladder)
    text = json.dumps(data, indent=2)
    if json_out == "-" or (json_out and stream_named(json_out) == 1):
        print(text)
    else:
        if json_out:
            write_user_file(json_out, text + "\n")
        Console().print(_rich(tables.ladder_rows(data)))
    for rung, sim in ladder:
        for warning in cap_warnings(request, [({}, sim)]):
            err.print(f"warning: {rung.name}: {warning}", highlight=False, markup=False)
    if report:
        from pnp.build.gallery import gallery_for
        from pnp.runtime.staging import Staging
        from pnp.sim.report import write_ladder_report

        with Staging(out) as stage:
            path = write_ladder_report(request, ladder, data, out, stage)
            index = gallery_for(
                out, stage, warn=lambda line: err.print(line, highlight=False, markup=False)
            )
        if is_null_device(out):
            err.print("report: nothing kept (--out is the null device)", highlight=False)
        else:
            err.print(f"report: {path}", highlight=False)
            err.print(f"gallery: {index}", highlight=False)


def _print_skill_trace(request: Request, json_out: str | None) -> None:
    """`--skill-trace`: the JSON, or a table of the mcts seat's share per opponent kind."""
    from pnp.sim.skill import skill_trace

    trace = skill_trace(request)
    text = json.dumps(trace, indent=2)
    if json_out == "-" or (json_out and stream_named(json_out) == 1):
        print(text)
        return
    if json_out:
        write_user_file(json_out, text + "\n")
    team = trace["cooperative"]
    t = Table(
        title=f"{trace['game']}: skill trace, {trace['players']} players, "
        f"mcts at {trace['bot_budget']} playouts, seed {trace['seed']}",
        caption="team win rate with one mcts seat"
        if team
        else f"the mcts seat's win share (fair share {trace['fair_share']:.3f})",
    )
    for column in (
        "against",
        "games",
        "share",
        "95 % interval",
        "without mcts" if team else "by seat",
    ):
        t.add_column(column, justify="right")
    for kind, e in trace["skill_trace"].items():
        lo, hi = e["ci"]
        if team:
            last = f"{e['without_mcts']['share']:.3f}" if "without_mcts" in e else "-"
        else:
            last = "  ".join("-" if r is None else f"{r:.3f}" for r in e["by_seat"])
        t.add_row(kind, str(e["games"]), f"{e['share']:.3f}", f"{lo:.3f} - {hi:.3f}", last)
    Console().print(t)


def sweep_table(grid: Grid, runs: Runs) -> Table:
    """The settings of a sweep side by side (`pnp.sim.tables.grid_rows`), for the terminal."""
    keys = list(grid.keys)
    return _rich(grid_rows(keys, [([s[k] for k in keys], sim.summary) for s, sim in runs]), True)


def summary_table(s: Mapping[str, Any]) -> Table:
    """The readable summary printed on stdout (`pnp.sim.tables.summary_rows`)."""
    return _rich(summary_rows(s))


def _rich(table: tables.Table, right: bool = False) -> Table:
    t = Table(title=table.title, caption=table.caption)
    for i, column in enumerate(table.columns):  # a narrow terminal wraps figures, never cuts
        t.add_column(column, justify="right" if right or i else "left", overflow="fold")
    for row in table.rows:
        t.add_row(*row)
    return t
