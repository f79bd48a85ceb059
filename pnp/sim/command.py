"""`pnp simulate`: solitaire-test a game's kit with bots and report the metrics.

`run_simulation` is the library call (the command only parses options and prints);
`simulate` is the typer command the CLI registers with ``app.command()(simulate)``.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from pnp import interrupt
from pnp.atomic import (
    check_folder,
    check_user_file,
    is_null_device,
    output_folder,
    stream_named,
    write_user_file,
)
from pnp.config import parse_toml, read_toml, split_config
from pnp.errors import PnpError
from pnp.games import GameDef, get_game
from pnp.outcome import SimOption
from pnp.sim.metrics import Accumulator, summary
from pnp.sim.runner import (
    RunFailed,
    check_limits,
    default_jobs,
    is_tty,
    report_after_ctrl_c,
    run,
)

MAX_SEED = 2**63
CAP_ENDS = ("timeout",)  # end reasons that are a limit of the simulation, not the rules
CAP_WARNING_SHARE = 0.05


def whole_number(text: str | int) -> int:
    """An integer option's value, strictly: '2', '-7', '+3'; not '2.0' or '1_000', which
    the option parser would otherwise read as 2 and 1000. (A default arrives as an int.)"""
    if isinstance(text, int):
        return text
    if not re.fullmatch(r"\s*[+-]?[0-9]+\s*", text):
        raise typer.BadParameter(f"'{text}' is not a whole number")
    return int(text)


@dataclass
class Simulation:
    """A finished (or interrupted) run: the JSON object and the tallies behind it."""

    summary: dict
    acc: Accumulator
    interrupted: bool
    title: str
    options: dict[str, Any]
    failure: str | None = None  # the run stopped early because a worker died


def engine_for(game: GameDef) -> Any:
    """The game's simulation engine (`GameDef.engine`)."""
    if game.engine is None:
        raise PnpError(f"{game.slug} has no rules engine yet, so it cannot be simulated")
    return game.engine


def game_options(engine: Any) -> tuple[SimOption, ...]:
    return tuple(getattr(engine, "OPTIONS", ()))


def parse_options(engine: Any, args: list[str]) -> dict[str, Any]:
    """The game's own options from the words typer left over (``--two-colours``,
    ``--rules standard``): each is checked against what the game declares."""
    known = {o.flag: o for o in game_options(engine)}
    values: dict[str, Any] = {}
    words = list(args)
    while words:
        word = words.pop(0)
        flag, _, inline = word.partition("=")
        option = known.get(flag)
        if option is None:
            offered = ", ".join(known) or "none"
            raise PnpError(f"unknown option '{flag}' for this game (its own options: {offered})")
        if option.kind is bool:
            if inline:
                raise PnpError(f"{flag} is a switch and takes no value")
            values[option.name] = True
            continue
        if not inline and not words:
            raise PnpError(f"{flag} needs a value: one of {', '.join(option.choices)}")
        value = inline or words.pop(0)
        if option.choices and value not in option.choices:
            raise PnpError(f"{flag} must be one of {', '.join(option.choices)}, got '{value}'")
        values[option.name] = value
    return values


def run_simulation(
    game: str,
    games: int = 1000,
    players: int | None = None,
    bot: str = "random",
    seed: int = 1,
    jobs: int = 1,
    config: Path | None = None,
    options: dict[str, Any] | None = None,
    progress=None,
    values: dict[str, Any] | None = None,
) -> Simulation:
    """Check the request, build the play model from the kit's params, play, tally.
    `values` are config keys given directly (a sweep's value), after the config file."""
    gdef = get_game(game)
    engine = engine_for(gdef)
    declared = {o.name: o for o in game_options(engine)}
    options = dict(options or {})
    for name in options:
        if name not in declared:
            raise PnpError(f"unknown option '{name}' for {gdef.title}")
    if players is None:
        players = getattr(engine, "DEFAULT_PLAYERS", engine.MIN_PLAYERS)
    check_limits(games, jobs)
    lo, hi = engine.MIN_PLAYERS, engine.MAX_PLAYERS
    if not lo <= players <= hi:
        raise PnpError(f"{gdef.title} takes {lo} to {hi} players, got {players}")
    if bot not in engine.BOTS:
        raise PnpError(f"unknown bot '{bot}': choose one of {', '.join(engine.BOTS)}")
    data = {**(read_toml(config) if config is not None else {}), **(values or {})}
    source = f"config file {config}" if config is not None else "options"
    params, _ = split_config(data, gdef.default_params(), source)
    model = engine.prepare(params, players, **options)
    effective = _plain(dataclasses.asdict(params))
    result = run(engine, model, players, bot, games, seed, jobs, options, progress)
    colours = tuple(getattr(model, "colours", ()))
    chosen = {k: v for k, v in options.items() if v != declared[k].default}
    shown = {declared[k].label or k.replace("_", " "): _said(v) for k, v in chosen.items()}
    if config is not None:
        shown["config"] = Path(config).name
    for key, value in (values or {}).items():
        shown[key.replace("_", " ")] = _said(value)
    return Simulation(
        summary=summary(
            game,
            players,
            bot,
            seed,
            result.acc,
            colours,
            cooperative=getattr(engine, "COOPERATIVE", False),
            counters=tuple(getattr(engine, "COUNTERS", {})),
            ratios=dict(getattr(engine, "RATIOS", {})),
            options=chosen,
            abstraction=getattr(engine, "ABSTRACTION", ""),
            totals=dict(getattr(engine, "TOTALS", {})),
        )
        | {"params": effective},
        acc=result.acc,
        interrupted=result.interrupted,
        title=gdef.title,
        options=shown,
        failure=result.failure,
    )


MAX_SWEEP = 12


def parse_sweep(text: str) -> tuple[str, list[Any]]:
    """`KEY=V1,V2,...` -> (key, values); values read as TOML scalars (numbers, strings)."""
    key, sep, rest = text.partition("=")
    key = key.strip()
    words = [w.strip() for w in rest.split(",") if w.strip()]
    if not sep or not key or not words:
        raise PnpError(f"--sweep takes KEY=V1,V2,..., got '{text}'")
    if len(words) > MAX_SWEEP:
        raise PnpError(f"--sweep takes at most {MAX_SWEEP} values, got {len(words)}")
    out = []
    for w in words:
        try:
            out.append(parse_toml(f"v = {w}", "--sweep")["v"])
        except PnpError as exc:
            if "too deeply" in str(exc):
                raise
            out.append(w)  # a bare word: a string value
    return key, out


def sweep_summary(key: str, runs: list[tuple[Any, Simulation]]) -> dict[str, Any]:
    """The JSON of a sweep: the key, and each value's run summary in order."""
    return {"sweep": key, "runs": [{"value": v, **sim.summary} for v, sim in runs]}


def sweep_table(key: str, runs: list[tuple[Any, Simulation]]) -> Table:
    t = Table(title=f"sweep over {key}")
    for column in (key, "turns (mean)", "turns (p5 - p95)", "completion", "ends"):
        t.add_column(column, justify="right")
    for value, sim in runs:
        m = sim.summary["metrics"]
        d = m["duration_turns"]
        ends = ", ".join(f"{e} {n}" for e, n in sim.summary["end_reasons"].items())
        t.add_row(
            str(value),
            f"{d['mean']:.1f}",
            f"{d['p5']:.0f} - {d['p95']:.0f}",
            f"{m['completion']:.3f}",
            ends,
        )
    return t


def _plain(value: Any) -> Any:
    """Parameters as JSON has them: tuples become lists, tables stay tables."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def cap_warning(s: dict, ends: tuple[str, ...] = CAP_ENDS) -> str | None:
    """One line when more than 5 % of the games ended at a simulation limit (a turn cap,
    a round limit): then the lengths and rates describe the limit more than the game."""
    capped = sum(n for e, n in s["end_reasons"].items() if e in ends)
    if s["games"] == 0 or capped <= CAP_WARNING_SHARE * s["games"]:
        return None
    share = 100 * capped / s["games"]
    which = "/".join(e for e in ends if e in s["end_reasons"])
    return (
        f"{share:.1f} % of the games ({capped} of {s['games']}) ended at the "
        f"simulation's limit ('{which}'): the lengths and rates show the limit more than "
        "the game (another --bot may finish more games)"
    )


def _said(value: Any) -> str:
    return "yes" if value is True else str(value)


def summary_table(s: dict) -> Table:
    """The readable summary printed on stdout: what the game's JSON holds, nothing fixed."""
    m = s["metrics"]
    d = m["duration_turns"]
    t = Table(
        title=f"{s['game']}: {s['games']} games, {s['players']} players, bot {s['bot']}, "
        f"seed {s['seed']}",
        caption=s.get("abstraction") or None,
    )
    t.add_column("metric")
    t.add_column("value", justify="right")
    t.add_row("turns (mean / median)", f"{d['mean']:.1f} / {d['median']:.1f}")
    t.add_row("turns (p5 - p95)", f"{d['p5']:.0f} - {d['p95']:.0f}")
    for reason, count in s["end_reasons"].items():
        t.add_row(f"end: {reason}", f"{count} ({100 * count / max(1, s['games']):.1f} %)")
    for key, value in m.items():
        if key == "duration_turns":
            continue
        if isinstance(value, float):
            t.add_row(key.replace("_", " "), f"{value:.3f}")
        elif isinstance(value, list):
            t.add_row(key.replace("_", " "), "  ".join(f"{r:.3f}" for r in value))
        elif key == "win_rate_by_colour":
            for colour, rate in value.items():
                t.add_row(f"win rate: {colour}", f"{rate:.3f}")
        elif isinstance(value, dict) and "mean" in value:
            t.add_row(
                f"{key.replace('_', ' ')} / game (mean, p5 - p95)",
                f"{value['mean']:.2f}  ({value['p5']:.0f} - {value['p95']:.0f})",
            )
    return t


def simulate(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help="A game from 'pnp list'.")],
    games: Annotated[int, typer.Option(help="How many games to play.", parser=whole_number)] = 1000,
    players: Annotated[
        int | None,
        typer.Option(help="Players per game (default: the game's own).", parser=whole_number),
    ] = None,
    bot: Annotated[str, typer.Option(help="Bot for every seat: random or greedy.")] = "random",
    seed: Annotated[
        int, typer.Option(help="Master seed; game i uses '<seed>:<i>'.", parser=whole_number)
    ] = 1,
    jobs: Annotated[
        int,
        typer.Option(help="Worker processes (results do not depend on it).", parser=whole_number),
    ] = default_jobs(),
    config: Annotated[
        Path | None, typer.Option(help="TOML file overriding kit parameters.")
    ] = None,
    json_out: Annotated[
        str | None, typer.Option("--json", help="Write the JSON results to a file ('-': stdout).")
    ] = None,
    report: Annotated[bool, typer.Option(help="Write OUT/<game>/report.html with plots.")] = False,
    out: Annotated[str, typer.Option(help="Output folder for --report.")] = "output",
    sweep: Annotated[
        list[str] | None,
        typer.Option(help="KEY=V1,V2,...: run once per value of a config key, and compare."),
    ] = None,
) -> None:
    """Solitaire-test a game with bots: game length, end reasons, seat balance, counters.

    A game's own options follow the others: Exploding Dice takes --two-colours, Parcheesi
    --rules standard ('pnp list' names them)."""
    engine = engine_for(get_game(game))
    options = parse_options(engine, ctx.args)
    if json_out is not None and not json_out.strip():
        raise PnpError("--json needs a file name, or '-' for stdout")
    if not -MAX_SEED <= seed < MAX_SEED:
        raise PnpError(f"--seed must be a whole number below {MAX_SEED}, got {seed}")
    if sweep is not None and len(sweep) > 1:
        raise PnpError(
            "--sweep can vary one config key per run: give it once, as KEY=V1,V2,... "
            "(comparing two keys at once is not supported yet)"
        )
    swept = parse_sweep(sweep[0]) if sweep else None
    out_folder = output_folder(out)
    if json_out not in (None, "-"):
        check_user_file(json_out)  # said now, not after the games are played
    if report:
        check_folder(out_folder)
    request = Request(game, games, players, bot, seed, jobs, config, options)
    with report_after_ctrl_c():  # a second Ctrl-C still reports the finished games
        sim = _simulate_and_report(request, json_out, report, out_folder, swept)
    if sim.failure:
        done = f"{sim.summary['games']:,} of {request.games:,} games finished"
        raise RunFailed(f"{sim.failure}; the run stopped: {done} and are reported")
    if sim.interrupted:
        raise interrupt.Stopped  # the line above said so; exit 130 (143 for SIGTERM)


@dataclass(frozen=True)
class Request:
    """One simulation as the command line asked for it (a sweep runs it once per value)."""

    game: str
    games: int
    players: int | None
    bot: str
    seed: int
    jobs: int
    config: Path | None
    options: dict[str, Any]

    def run(self, values: dict[str, Any] | None = None, progress=None) -> Simulation:
        """`run_simulation` of this request, with `values` as config keys on top."""
        return run_simulation(
            self.game,
            self.games,
            self.players,
            self.bot,
            self.seed,
            self.jobs,
            self.config,
            self.options,
            progress=progress,
            values=values,
        )


def _simulate_and_report(
    request: Request,
    json_out: str | None,
    report: bool,
    out: Path,
    swept: tuple[str, list[Any]] | None = None,
) -> Simulation:
    """Run (once, or once per swept value), then print the table or JSON and write the
    report; the command's body."""
    err = Console(stderr=True)
    runs: list[tuple[Any, Simulation]] = []
    for value in swept[1] if swept else [None]:
        values = {swept[0]: value} if swept else None
        sim = _run_one(request, values, err)
        runs.append((value, sim))
        if sim.interrupted:  # Ctrl-C, or a worker died
            break
    if swept:
        text = json.dumps(sweep_summary(swept[0], runs), indent=2)
    else:
        text = json.dumps(sim.summary, indent=2)
    if json_out == "-" or (json_out and stream_named(json_out) == 1):
        print(text)  # the JSON is stdout: no table beside it
    else:
        if json_out:
            write_user_file(json_out, text + "\n")
        Console().print(sweep_table(swept[0], runs) if swept else summary_table(sim.summary))
    caps = getattr(engine_for(get_game(request.game)), "CAP_ENDS", CAP_ENDS)
    for value, one in runs if not sim.interrupted else ():  # a stopped run says why instead
        warning = cap_warning(one.summary, caps)
        if warning:
            where = f"{swept[0]} = {value}: " if swept else ""
            err.print(f"warning: {where}{warning}", highlight=False, soft_wrap=True, markup=False)
    if report:
        from pnp.sim.report import sweep_plot, write_report

        first = runs[0][1]
        extra = (sweep_plot(swept[0], runs),) if swept else ()
        path = write_report(
            first.summary,
            first.acc,
            out / request.game / "report.html",
            first.title,
            first.options,
            extra=extra,
            root=out,
            sweep=sweep_summary(swept[0], runs) if swept else None,
        )
        if is_null_device(out):
            err.print("report: nothing kept (--out is the null device)", highlight=False)
        else:
            err.print(f"report: {path}", highlight=False)
            from pnp.gallery import gallery_for

            index = gallery_for(
                out, warn=lambda line: err.print(line, highlight=False, markup=False)
            )
            err.print(f"gallery: {index}", highlight=False)
    if sim.interrupted and not sim.failure:
        err.print(f"interrupted: {sim.summary['games']} of {request.games} games finished")
    return sim


def _run_one(request: Request, values: dict[str, Any] | None, err: Console) -> Simulation:
    """One run, with a progress bar on a terminal."""
    if not is_tty():
        return request.run(values)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    columns = ("{task.description}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task(request.game, total=request.games)
        return request.run(values, progress=lambda n: bar.update(task, completed=n))
