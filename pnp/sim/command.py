"""`pnp simulate` as library calls: check a request, play it (once, or once per setting of
a sweep's grid), and hand back the JSON objects, the warnings and the report.

Every setting is checked and prepared before the first game is played (`plan_simulation`),
then all are played in one `run_jobs` call and summed up (`finish_simulation`).

The command line (`pnp.cli.simulate`) only parses options and prints what these return;
a script or a web page calls them the same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pnp.contract.config import read_seats, read_toml, split_config
from pnp.contract.gamedef import Engine, cutoffs, degenerate_reason, ratios, seat_range, totals
from pnp.games import get_game
from pnp.runtime.errors import PnpError
from pnp.sim.grid import PLAYERS, Grid, check_sweep, declared_steps, label, parse_axis
from pnp.sim.metrics import NO_TURN, Accumulator, no_turn_played, summary
from pnp.sim.runner import GridProgress, Job, RunResult, check_limits, run_jobs
from pnp.sim.seats import Lineup, engine_for, lineup, seat_count

if TYPE_CHECKING:
    from pnp.runtime.staging import Staging

MAX_SEED = 2**63
CAP_WARNING_SHARE = 0.05
Progress = Callable[[int], None]
Runs = list[tuple[dict[str, Any], "Simulation"]]  # (a setting's swept values, or {}; its run)


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


@dataclass(frozen=True)
class Plan:
    """One setting checked and prepared, not yet played: its job for `run_jobs`, and what
    its summary needs once the games are in (`finish`)."""

    job: Job
    game: str
    seats: Lineup
    colours: tuple[str, ...]
    chosen: dict[str, Any]  # the game options that differ from their defaults
    params: dict[str, Any]  # the effective kit parameters, as JSON has them
    title: str
    shown: dict[str, str]  # the options and values as the report names them


def plan_simulation(
    game: str,
    games: int = 1000,
    players: int | None = None,
    bot: str = "random",
    seed: int = 1,
    jobs: int = 1,
    config: Path | None = None,
    options: dict[str, Any] | None = None,
    values: dict[str, Any] | None = None,
    bots: str | None = None,
    budget: int | None = None,
) -> Plan:
    """Check the request and build the play model from the kit's params, playing nothing.
    `values` are config keys given directly (a sweep's value), after the config file;
    `players` None plays the config's `players` key, else the game's default;
    `bots` one bot per seat ('mcts,random'), `budget` an mcts seat's playouts."""
    gdef = get_game(game)
    engine = engine_for(gdef)
    declared = {o.name: o for o in engine.OPTIONS}
    options = dict(options or {})
    for name in options:
        if name not in declared:
            raise PnpError(f"unknown option '{name}' for {gdef.title}")
    check_limits(games, jobs)
    data = {**(read_toml(config) if config is not None else {}), **(values or {})}
    source = f"config file {config}" if config is not None else "options"
    seats_taken = seat_range(gdef)
    if players is None:  # an explicit count wins over the config's
        players = read_seats(data, seats_taken, source)
    players = seat_count(gdef, players)
    seats = lineup(engine, players, bot, bots, budget)
    params, _ = split_config(data, gdef.default_params(), source, seats_taken)
    model = engine.prepare(params, players, **options)
    seating = seats.engine_bot(engine) or seats
    chosen = {k: v for k, v in options.items() if v != declared[k].default}
    shown = {declared[k].label or k.replace("_", " "): _said(v) for k, v in chosen.items()}
    if config is not None:
        shown["config"] = Path(config).name
    for key, value in (values or {}).items():
        shown[key.replace("_", " ")] = _said(value)
    return Plan(
        job=Job(engine, model, players, seating, games, seed, options),
        game=game,
        seats=seats,
        colours=tuple(getattr(model, "colours", ())),
        chosen=chosen,
        params=as_json(dataclasses.asdict(params)),
        title=gdef.title,
        shown=shown,
    )


def finish_simulation(plan: Plan, result: RunResult) -> Simulation:
    """The summary of a planned setting's games (all of them, or those played before a
    stop)."""
    engine, job = plan.job.engine, plan.job
    flagged = degenerate(plan, result.acc)
    return Simulation(
        summary=summary(
            plan.game,
            job.players,
            plan.seats.label,
            job.seed,
            result.acc,
            plan.colours,
            cooperative=engine.COOPERATIVE,
            counters=tuple(engine.COUNTERS),
            ratios=ratios(engine),
            options=plan.chosen,
            abstraction=engine.ABSTRACTION,
            totals=totals(engine),
            unfinished=cutoffs(engine),
            bots=plan.seats.bots,
        )
        | seated(plan.seats)
        | {"params": plan.params}
        | ({"degenerate": flagged} if flagged else {}),
        acc=result.acc,
        interrupted=result.interrupted,
        title=plan.title,
        options=plan.shown,
        failure=result.failure,
    )


def degenerate(plan: Plan, acc: Accumulator) -> str | None:
    """Why this setting is degenerate, when no game of it lasted a turn: the general rule
    (`no_turn_played`), and the game's own reason where its engine gives one."""
    if not no_turn_played(acc):
        return None
    job = plan.job
    why = degenerate_reason(job.engine, job.model, job.players)
    return f"{NO_TURN}; {why}" if why else NO_TURN


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
    """Check, play and tally one setting (`plan_simulation`, `run_jobs`, `finish_simulation`);
    `progress(n)` is told the games finished, `scheduler` says where they are played."""
    plan = plan_simulation(
        game, games, players, bot, seed, jobs, config, options, values, bots, budget
    )
    told = (lambda _settings, n: progress(n)) if progress else None
    (result,) = run_jobs([plan.job], jobs, told, scheduler, scheduler_timeout)
    return finish_simulation(plan, result)


def seated(seats: Lineup) -> dict[str, Any]:
    """What the JSON adds about the seats: each seat's bot when they differ, and an mcts
    seat's playouts per decision (nothing for today's single random or greedy bot)."""
    out: dict[str, Any] = {}
    if seats.mixed:
        out["bots"] = list(seats.bots)
        out["seat_order"] = "rotated" if seats.rotate else "fixed"
    if "mcts" in seats.bots:
        out["bot_budget"] = seats.budget
    return out


MAX_SWEEP = 12  # values of the studio's one swept key


def parse_sweep(text: str, game: str | None = None) -> tuple[str, list[Any]]:
    """`KEY=V1,V2,...` -> (key, values), one key as the studio sweeps it (`pnp.sim.grid`),
    stepped as `game` declares its keys."""
    steps = declared_steps(get_game(game)) if game else None
    return parse_axis(text, MAX_SWEEP, steps)


def sweep_summary(grid: Grid, runs: Runs) -> dict[str, Any]:
    """The JSON of a sweep: the key and each value's summary in order; for several keys
    the keys, and each setting's values beside its summary."""
    if len(grid.keys) == 1:
        (key,) = grid.keys
        return {"sweep": key, "runs": [{"value": s[key], **sim.summary} for s, sim in runs]}
    return {"sweep": list(grid.keys), "runs": [{"values": s, **sim.summary} for s, sim in runs]}


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
    """One simulation as the command line asked for it (a sweep runs it once per setting)."""

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

    def plan(self, values: dict[str, Any] | None = None) -> Plan:
        """`plan_simulation` of this request with a setting's `values` on top of its own
        (`players` among them is the seat count)."""
        values = dict(values or {})
        players = values.pop(PLAYERS, self.players)
        return plan_simulation(
            self.game,
            self.games,
            players,
            self.bot,
            self.seed,
            self.jobs,
            self.config,
            self.options,
            values={**(self.values or {}), **values} or None,
            bots=self.bots,
            budget=self.budget,
        )

    def run(
        self, values: dict[str, Any] | None = None, progress: Progress | None = None
    ) -> Simulation:
        """One setting played: `run_simulation` of this request, `values` on top of its own."""
        told = (lambda _settings, n: progress(n)) if progress else None
        return run_all(self, None, told, values)[0][1]


def run_all(
    request: Request,
    grid: Grid | None = None,
    progress: GridProgress | None = None,
    values: dict[str, Any] | None = None,
) -> Runs:
    """Every setting of the grid (or the request alone) checked and prepared before the
    first game, then all played in one `run_jobs` call; the list stops after a setting
    that was cut short (Ctrl-C, a worker died). A bad setting is one error naming it."""
    check_limits(request.games, request.jobs)
    if grid and PLAYERS in grid.keys and request.players is not None:
        raise PnpError("--sweep players sets the player count: not with --players as well")
    if grid:
        check_sweep(get_game(request.game), grid.keys)
    settings = grid.settings() if grid else [{}]
    plans = []
    for setting in settings:
        try:
            plans.append(request.plan({**(values or {}), **setting}))
        except PnpError as exc:
            if not setting:
                raise
            raise PnpError(f"{label(setting)}: {exc}") from None
    done = run_jobs(
        [p.job for p in plans],
        request.jobs,
        progress,
        request.scheduler,
        request.scheduler_timeout,
    )
    return [(s, finish_simulation(p, r)) for s, p, r in zip(settings, plans, done, strict=False)]


def results(runs: Runs, grid: Grid | None = None) -> dict[str, Any]:
    """The JSON object of the runs: the one run's summary, or the sweep's."""
    return sweep_summary(grid, runs) if grid else runs[-1][1].summary


def cap_warnings(request: Request, runs: Runs) -> list[str]:
    """One line per setting that is degenerate (no game lasted a turn) or ended too often
    at the simulation's limit (none when the last one was cut short: what stopped it is
    said instead)."""
    if runs[-1][1].interrupted:
        return []
    caps = cutoffs(engine_for(get_game(request.game)))
    lines = []
    for setting, one in runs:
        for warning in (_degenerate_warning(one.summary), cap_warning(one.summary, caps)):
            if warning:
                lines.append(f"{label(setting)}: {warning}" if setting else warning)
    return lines


def _degenerate_warning(s: Mapping[str, Any]) -> str | None:
    """The setting is degenerate: said first and plainly, since every figure of it is."""
    if not s.get("degenerate"):
        return None
    return f"degenerate setting: {s['degenerate']}; its figures describe no game"


def write_run_report(
    request: Request, runs: Runs, out: Path, grid: Grid | None = None, stage: Staging | None = None
) -> Path:
    """`OUT/<game>/report.html` for the first setting, with the sweep's reading, plots and
    table above it when there is one (the gallery over OUT is `pnp.build.gallery.gallery_for`'s);
    through `stage` when given, to land with the gallery in one commit."""
    from pnp.runtime.atomic import write_text
    from pnp.sim.report import render_report
    from pnp.sim.sweep_report import sweep_section

    first = runs[0][1]
    sweep = sweep_section(grid, runs) if grid else None
    html = render_report(first.summary, first.acc, first.title, first.options, (), sweep)
    if stage is not None:
        return stage.write_text(f"{request.game}/report.html", html)
    return write_text(out / request.game / "report.html", html, root=out)
