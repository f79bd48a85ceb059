"""`pnp simulate` as library calls: check a request, play it (once, or once per value of
a swept config key), and hand back the JSON objects, the warnings and the report.

The command line (`pnp.cli.simulate`) only parses options and prints what these return;
a script or a web page calls them the same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.config import parse_toml, read_toml, split_config
from pnp.errors import PnpError
from pnp.gamedef import Engine, cutoffs, ratios, totals
from pnp.games import get_game
from pnp.sim.metrics import Accumulator, summary
from pnp.sim.runner import Job, check_limits, run_jobs
from pnp.sim.seats import Lineup, engine_for, lineup, seat_count

MAX_SEED = 2**63
CAP_WARNING_SHARE = 0.05
Progress = Callable[[int], None]
Swept = tuple[str, list[Any]]  # a config key and its values
Runs = list[tuple[Any, "Simulation"]]  # (swept value, or None; its run)


@dataclass
class Simulation:
    """A finished (or interrupted) run: the JSON object and the tallies behind it."""

    summary: dict[str, Any]
    acc: Accumulator
    interrupted: bool
    title: str
    options: dict[str, Any]
    failure: str | None = None  # the run stopped early because a worker died


def parse_options(engine: Engine, args: list[str]) -> dict[str, Any]:
    """The game's own options from the words typer left over (``--two-colours``,
    ``--rules standard``): each is checked against what the game declares."""
    known = {o.flag: o for o in engine.OPTIONS}
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


def describe_options(engine: Engine) -> list[str]:
    """One line per game option, as `simulate --help` and `pnp list` name it:
    `--rules seed|standard (default seed): what it does`."""
    lines = []
    for o in engine.OPTIONS:
        if o.kind is bool:
            lines.append(f"{o.flag}: {o.help}")
        else:
            lines.append(f"{o.flag} {'|'.join(o.choices)} (default {o.default}): {o.help}")
    return lines


def game_options() -> dict[str, list[str]]:
    """Each registered game's option lines (games without options left out)."""
    from pnp.games import registry

    out = {}
    for slug, gdef in registry().items():
        lines = describe_options(gdef.engine) if gdef.engine is not None else []
        if lines:
            out[slug] = lines
    return out


def run_simulation(
    game: str,
    games: int = 1000,
    players: int | None = None,
    bot: str = "random",
    seed: int = 1,
    jobs: int = 1,
    config: Path | None = None,
    options: dict[str, Any] | None = None,
    progress: Progress | None = None,
    values: dict[str, Any] | None = None,
    bots: str | None = None,
    budget: int | None = None,
    scheduler: str | None = None,
    scheduler_timeout: float = 10.0,
) -> Simulation:
    """Check the request, build the play model from the kit's params, play, tally.
    `values` are config keys given directly (a sweep's value), after the config file;
    `bots` one bot per seat ('mcts,random'), `budget` an mcts seat's playouts."""
    gdef = get_game(game)
    engine = engine_for(gdef)
    declared = {o.name: o for o in engine.OPTIONS}
    options = dict(options or {})
    for name in options:
        if name not in declared:
            raise PnpError(f"unknown option '{name}' for {gdef.title}")
    check_limits(games, jobs)
    players = seat_count(gdef, players)
    seats = lineup(engine, players, bot, bots, budget)
    data = {**(read_toml(config) if config is not None else {}), **(values or {})}
    source = f"config file {config}" if config is not None else "options"
    params, _ = split_config(data, gdef.default_params(), source)
    model = engine.prepare(params, players, **options)
    effective = as_json(dataclasses.asdict(params))
    seating = seats.engine_bot(engine) or seats
    job = Job(engine, model, players, seating, games, seed, options)
    told = (lambda settings, n: progress(n)) if progress else None
    result = run_jobs([job], jobs, told, scheduler, scheduler_timeout)[0]
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
            seats.label,
            seed,
            result.acc,
            colours,
            cooperative=engine.COOPERATIVE,
            counters=tuple(engine.COUNTERS),
            ratios=ratios(engine),
            options=chosen,
            abstraction=engine.ABSTRACTION,
            totals=totals(engine),
            unfinished=cutoffs(engine),
        )
        | seated(seats)
        | {"params": effective},
        acc=result.acc,
        interrupted=result.interrupted,
        title=gdef.title,
        options=shown,
        failure=result.failure,
    )


def seated(seats: Lineup) -> dict[str, Any]:
    """What the JSON adds about the seats: each seat's bot when they differ, and an mcts
    seat's playouts per decision (nothing for today's single random or greedy bot)."""
    out: dict[str, Any] = {}
    if len(set(seats.bots)) > 1:
        out["bots"] = list(seats.bots)
    if "mcts" in seats.bots:
        out["bot_budget"] = seats.budget
    return out


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


def sweep_summary(key: str, runs: Runs) -> dict[str, Any]:
    """The JSON of a sweep: the key, and each value's run summary in order."""
    return {"sweep": key, "runs": [{"value": v, **sim.summary} for v, sim in runs]}


def as_json(value: Any) -> Any:
    """Parameters as JSON has them: tuples become lists, tables stay tables."""
    if isinstance(value, dict):
        return {str(k): as_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [as_json(v) for v in value]
    return value


def cap_warning(s: Mapping[str, Any], ends: tuple[str, ...] = ("timeout",)) -> str | None:
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
    bots: str | None = None  # one bot per seat, comma-separated
    budget: int | None = None  # an mcts seat's playouts per decision (None: the game's)
    values: dict[str, Any] | None = None  # config keys given directly, after the file
    scheduler: str | None = None  # where games are played: see `pnp.sim.runner.run_jobs`
    scheduler_timeout: float = 10.0  # seconds to reach a Dask scheduler

    def run(
        self, values: dict[str, Any] | None = None, progress: Progress | None = None
    ) -> Simulation:
        """`run_simulation` of this request, with `values` (a swept value) on top of its own."""
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
            values={**(self.values or {}), **(values or {})} or None,
            bots=self.bots,
            budget=self.budget,
            scheduler=self.scheduler,
            scheduler_timeout=self.scheduler_timeout,
        )


def run_all(
    request: Request,
    swept: Swept | None = None,
    play: Callable[[Request, dict[str, Any] | None], Simulation] | None = None,
) -> Runs:
    """The request once, or once per swept value, stopping after a run that was cut short
    (Ctrl-C, a worker died). `play(request, values)` plays one (a caller's progress bar)."""
    play = play or (lambda r, values: r.run(values))
    runs: Runs = []
    for value in swept[1] if swept else [None]:
        sim = play(request, {swept[0]: value} if swept else None)
        runs.append((value, sim))
        if sim.interrupted:
            break
    return runs


def results(runs: Runs, swept: Swept | None = None) -> dict[str, Any]:
    """The JSON object of the runs: the one run's summary, or the sweep's."""
    return sweep_summary(swept[0], runs) if swept else runs[-1][1].summary


def cap_warnings(request: Request, runs: Runs, swept: Swept | None = None) -> list[str]:
    """One line per run that ended too often at the simulation's limit (none when the
    last run was cut short: what stopped it is said instead)."""
    if runs[-1][1].interrupted:
        return []
    caps = cutoffs(engine_for(get_game(request.game)))
    lines = []
    for value, one in runs:
        warning = cap_warning(one.summary, caps)
        if warning:
            where = f"{swept[0]} = {value}: " if swept else ""
            lines.append(f"{where}{warning}")
    return lines


def write_run_report(request: Request, runs: Runs, out: Path, swept: Swept | None = None) -> Path:
    """OUT/<game>/report.html for the first run, with the sweep's plot when there is one
    (the gallery over OUT is `pnp.gallery.gallery_for`'s)."""
    from pnp.sim.report import sweep_plot, sweep_shares, write_report

    first = runs[0][1]
    return write_report(
        first.summary,
        first.acc,
        out / request.game / "report.html",
        first.title,
        first.options,
        root=out,
        sweep=sweep_summary(swept[0], runs) if swept else None,
        sweep_plots=(sweep_plot(swept[0], runs), sweep_shares(swept[0], runs)) if swept else (),
    )
