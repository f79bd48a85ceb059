"""`pnp tune`: from a designer's targets to the parameters that meet them, with the evidence.

`plan_tune` reads and checks the request (targets, the keys to vary, the budget) before a
game is played; `run_tune` plays a space small enough for the budget whole (`grid`),
else searches it (`search`: Optuna's TPE proposes, `race` runs successive halving over
simulation jobs), then plays the best settings again on fresh
seeds (`verify`), and answers with the JSON (`answer`), a config file and the report
(`report`). Optuna, an optional extra (`pip install 'pnp-kits[tune]'`), is imported only here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pnp import DISTRIBUTION
from pnp.contract.config import read_seats, read_toml
from pnp.contract.gamedef import seat_range
from pnp.games import get_game
from pnp.runtime.errors import PnpError
from pnp.sim.command import MAX_SEED
from pnp.sim.runner import check_limits
from pnp.sim.seats import engine_for, known_bot, seat_count
from pnp.tune.answer import answer_json, config_text, config_values
from pnp.tune.budget import Budget, Spend, TimeUp, hard_stop, parse_budget
from pnp.tune.grid import grid_search, plays_grid
from pnp.tune.search import Found, Progress, search, space_warning
from pnp.tune.space import Dimension, names_players, parse_over
from pnp.tune.targets import SKILL, parse_targets
from pnp.tune.trial import Setup
from pnp.tune.verify import Evidence, verify

INSTALL = f"pip install '{DISTRIBUTION}[tune]'"


@dataclass
class Tuned:
    """A finished (or stopped) tune: its JSON and what is behind it."""

    json: dict[str, Any]
    found: Found
    evidence: list[Evidence]
    stopped: str  # budget, space, stale, interrupted or failure
    failure: str | None
    config: str | None  # the best setting as a config file


def check_optuna() -> None:
    try:
        import optuna  # noqa: F401
    except ImportError:
        raise PnpError(f"pnp tune needs Optuna: {INSTALL}") from None


def plan_tune(
    game: str,
    targets: list[str],
    over: list[str] | None = None,
    players: int | None = None,
    bot: str = "random",
    budget: str = "5000games",
    seed: int = 1,
    jobs: int = 1,
    config: Path | None = None,
    bot_budget: int | None = None,
    scheduler: str | None = None,
    timeout: float = 10.0,
    values: dict[str, Any] | None = None,
) -> tuple[Setup, list[Dimension], Budget]:
    """Check a tune's request, playing nothing: one `PnpError` line for a target the game
    does not report, a range that runs backwards, a key the rules do not read, a value
    outside its declared range, a budget that is not one. `values` are config keys every
    setting starts from (after the config file). Without `--players`, a config's `players`
    key fixes the seat count unless `--over` names players."""
    gdef = get_game(game)
    engine = engine_for(gdef)
    if players is not None:
        seat_count(gdef, players)
    known_bot(engine, bot)
    if not -MAX_SEED <= seed < MAX_SEED:
        raise PnpError(f"--seed must be a whole number below {MAX_SEED}, got {seed}")
    check_limits(1, jobs)
    if scheduler is not None:
        from pnp.sim.dask_backend import check_timeout

        check_timeout(timeout)
    parsed = parse_targets(targets, engine, gdef.title)
    if players is None and config is not None and not names_players(over or []):
        source = f"config file {config}"  # a saved answer's seat count stays fixed
        players = read_seats(read_toml(config), seat_range(gdef), source)
    dims = parse_over(over or [], gdef, players)
    spent = parse_budget(budget)
    check_optuna()
    setup = Setup(
        game, players, bot, tuple(parsed), seed, jobs, config, bot_budget, scheduler, timeout,
        values,
    )  # fmt: skip
    if setup.skill and bot_budget is None:
        from pnp.contract.gamedef import mcts_budget
        from pnp.play.mcts import DEFAULT_BUDGET

        seats = engine.DEFAULT_PLAYERS if players is None else players
        setup = replace(setup, bot_budget=mcts_budget(engine, seats, DEFAULT_BUDGET))
    return setup, dims, spent


@contextmanager
def _cluster(setup: Setup) -> Iterator[Setup]:
    """`--scheduler local`: one LocalCluster for every round, not one a round."""
    if setup.scheduler != "local":
        yield setup
        return
    from pnp.sim.dask_backend import local_cluster

    with local_cluster(setup.jobs) as address:
        yield replace(setup, scheduler=address)


def kit_errors(setup: Setup, setting: dict[str, Any]) -> list[str]:
    """The errors `pnp check` finds in the kit of a setting (a score line that does not
    show on a larger board...): a setting the rules like may still not print."""
    from pnp.build import check_game

    values = {**(setup.values or {}), **config_values(setup.game, setting)}
    try:
        found = check_game(setup.game, setup.config, None, values)
    except PnpError as exc:  # a kit that cannot be laid out at all (a board too large)
        return [str(exc)]
    return [f"{f.component}: {f.message}" for f in found if f.level == "error"]


def run_tune(
    setup: Setup,
    dims: list[Dimension],
    budget: Budget,
    progress: Progress | None = None,
    check_kits: bool = True,
) -> Tuned:
    """Search, then play the best settings again on fresh seeds and check their kits (a
    setting whose kit `pnp check` refuses comes after those it accepts); stopped by Ctrl-C
    (or a worker lost for good) it answers with what it found so far, unverified."""
    spend = Spend(budget)
    with _cluster(setup) as playing:
        look = grid_search if plays_grid(dims, budget) else search
        found = look(playing, dims, spend, progress)
        search_games = spend.games
        evidence: list[Evidence] = []
        stopped, failure = found.stopped, found.failure
        if stopped not in ("interrupted", "failure"):
            try:
                evidence, cut = verify(found, spend, progress)
            except KeyboardInterrupt:
                evidence, cut = [], "interrupted"
            if cut and cut != "time":  # the evidence played stands: its intervals say how little
                stopped = "interrupted" if cut == "interrupted" else "failure"
                failure = None if cut == "interrupted" else cut
    checked, unchecked = 0, []
    try:  # within the budget's own time: a kit takes seconds to check, and is not a game
        with hard_stop(spend.deadline("end")):
            for e in evidence if check_kits and stopped != "interrupted" else []:
                e.kit_errors = kit_errors(setup, e.trial.setting)
                checked += 1
    except KeyboardInterrupt:
        stopped = "interrupted"
    except TimeUp:  # the kits not checked in time are said to be unchecked
        unchecked = [e.trial.setting for e in evidence[checked:]]
    evidence.sort(key=Evidence.order)
    data = answer_json(setup, dims, budget, found, evidence, spend, search_games, stopped)
    if unchecked:
        data["kits_unchecked"] = unchecked
    base = {**(read_toml(setup.config) if setup.config else {}), **(setup.values or {})}
    return Tuned(data, found, evidence, stopped, failure, config_text(setup.game, data, base))


def space_note(dims: list[Dimension], budget: Budget) -> str | None:
    """A warning when the space is huge for the budget (None when the budget can play it
    whole, or search a fair share of it)."""
    return None if plays_grid(dims, budget) else space_warning(dims, budget)


def status_line(status: dict[str, Any]) -> str:
    """A progress report as one line: `search: 24 trials, 12,000 games, best
    dice_per_colour = 44, n = 8 (meets 2 of 2 on its estimates), 40 s left`."""
    left = status["left"]
    unit = "games" if status["unit"] == "games" else "s"
    line = f"{status['phase']}: {status['trials']} trials, {status['games']:,} games"
    if status.get("best"):
        setting = ", ".join(f"{k} = {v}" for k, v in status["best"].items())
        line += f", best {setting}"
        scores = status.get("best_scores")
        if scores:
            line += f" (meets {sum(s <= 0 for s in scores)} of {len(scores)} on its estimates)"
    return f"{line}, {left:,.0f} {unit} left"


__all__ = ["SKILL", "Tuned", "plan_tune", "run_tune", "space_note", "status_line"]
