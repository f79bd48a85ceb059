"""The search: Optuna proposes settings, races run them as simulation jobs.

Optuna's TPE sampler (Tree-structured Parzen Estimator), seeded, proposes a batch of
`BATCH` settings through its ask-and-tell interface; the batch is raced (`pnp.tune.race`)
and every trial is told its targets' scores in the order it was asked. Several targets are
several objectives (Optuna's multi-objective TPE), so the sampler looks along the front
where targets conflict rather than at one weighted sum. The batch's size is fixed and the
tells come in trial order, never in the order games finish, so a seed gives the same
trials on the local pool and on Dask. A setting asked for again is told what it scored
before and costs no game. Settings off a key's declared step (an odd grid where it must
be even) are never proposed; a setting the game refuses for a reason no declaration holds
is told a failure, left out of the trials (listed under `refused`) and never played.
Time is kept as `pnp.tune.budget` says, a setting's preparation included.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pnp.runtime.errors import PnpError
from pnp.tune.budget import SEARCH_SHARE, Budget, Spend, TimeUp, hard_stop
from pnp.tune.race import KEEP, race
from pnp.tune.space import Dimension, space_size, suggest
from pnp.tune.targets import WORST
from pnp.tune.trial import Candidate, Setup

BATCH = 8  # settings proposed, then raced, together
RUNGS = 4  # rounds a full batch's race takes (8, 4, 2, 1 candidates)
MAX_TRIALS = 5000
STALE = 2  # batches in a row that propose nothing new end the search
ASKS = 8  # proposals a batch may ask for, for each of its places, past refused settings


@dataclass
class Trial:
    """One proposal of the optimiser and what became of it."""

    number: int
    batch: int
    setting: dict[str, Any]
    status: str  # raced, repeat (a setting proposed before), behind (a grid told it apart)
    candidate: Candidate | None = None
    same_as: int | None = None
    reason: str | None = None


@dataclass
class Found:
    """What the search found: every trial, and why it stopped."""

    trials: list[Trial] = field(default_factory=list)
    stopped: str = "budget"  # budget, space (every setting tried), stale, interrupted, failure
    failure: str | None = None
    optimizer: dict[str, Any] = field(default_factory=dict)
    refused: dict[tuple, str] = field(default_factory=dict)  # skipped settings: the reason

    def raced(self) -> list[Trial]:
        return [t for t in self.trials if t.status == "raced" and t.candidate is not None]


Progress = Callable[[dict[str, Any]], None]


def base_games(spend: Spend) -> int:
    """The first round's games for each candidate: about a hundredth of the search's
    share of a games budget (a full batch's race costs ten first rounds), 100 for a time
    budget, and from 40 to 400."""
    if spend.budget.kind == "seconds":
        return 100
    share = spend.budget.amount * 0.6
    return max(40, min(400, int(share / 100)))


def batch_cost(base: int) -> int:
    """Games a full batch's race costs: BATCH first rounds, then each later round doubles
    the games of half as many candidates."""
    return BATCH * base + (RUNGS - 1) * (BATCH // KEEP) * base


def _key(setting: dict[str, Any]) -> tuple:
    return tuple(sorted((k, repr(v)) for k, v in setting.items()))


def search(
    setup: Setup, dims: list[Dimension], spend: Spend, progress: Progress | None = None
) -> Found:
    """Propose, race and tell, batch after batch, while the budget's search share lasts;
    Ctrl-C or a worker lost for good ends it with what was found."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        sampler = optuna.samplers.TPESampler(
            seed=setup.seed % 2**32, constant_liar=True, n_startup_trials=BATCH
        )
    directions: list[Literal["minimize", "maximize"]] = ["minimize"] * len(setup.targets)
    study = optuna.create_study(directions=directions, sampler=sampler)
    found = Found(
        optimizer={
            "library": "optuna",
            "version": optuna.__version__,
            "sampler": "TPESampler",
            "objectives": len(directions),
            "batch": BATCH,
        }
    )
    known: dict[tuple, int] = {}
    base = base_games(spend)
    size = space_size(dims)
    stale = 0
    batch = 0
    try:
        while len(found.trials) < MAX_TRIALS:
            if batch and not spend.searching(batch_cost(base)):
                break
            if len(known) + len(found.refused) >= size:
                found.stopped = "space"
                break
            asked: list[tuple[Any, Trial]] = []
            new: list[Candidate] = []
            asks = 0
            while len(asked) < BATCH and asks < BATCH * ASKS:
                asks += 1
                handle = study.ask()
                setting = suggest(handle, dims)
                key = _key(setting)
                if key in found.refused:
                    study.tell(handle, state=optuna.trial.TrialState.FAIL)
                    continue
                number = len(found.trials)
                if key in known:
                    trial = Trial(number, batch, setting, "repeat", same_as=known[key])
                else:
                    if spend.over("search"):
                        study.tell(handle, state=optuna.trial.TrialState.FAIL)
                        raise TimeUp
                    try:
                        with hard_stop(spend.cutoff("search")):
                            candidate = Candidate(setup, setting)
                    except PnpError as exc:  # a setting the game refuses is never raced
                        found.refused[key] = f"{_said(setting)}: {exc}"
                        study.tell(handle, state=optuna.trial.TrialState.FAIL)
                        continue
                    known[key] = number
                    trial = Trial(number, batch, setting, "raced", candidate)
                    new.append(candidate)
                found.trials.append(trial)
                asked.append((handle, trial))
            stale = 0 if new else stale + 1

            def told(games: int) -> None:
                if progress:
                    progress(status(found, spend, "search", games))

            stopped = race(new, base, setup.seed, batch, spend, told) if new else None
            for handle, trial in asked:
                values = _told(trial, found.trials, len(directions))
                study.tell(handle, values if len(values) > 1 else values[0])
            if progress:
                progress(status(found, spend, "search", 0))
            batch += 1
            if stopped == "time":
                break
            if stopped:
                found.stopped = "interrupted" if stopped == "interrupted" else "failure"
                found.failure = None if stopped == "interrupted" else stopped
                break
            if stale >= STALE:
                found.stopped = "stale"
                break
    except TimeUp:  # a setting's preparation took what was left of the search's time
        found.stopped = "budget"
    except KeyboardInterrupt:  # between rounds: the optimiser's own work
        found.stopped = "interrupted"
    return found


def _said(setting: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in setting.items())


def _told(trial: Trial, trials: list[Trial], n: int) -> list[float]:
    if trial.status == "repeat" and trial.same_as is not None:
        return _told(trials[trial.same_as], trials, n)
    if trial.candidate is None:
        return [WORST] * n
    return trial.candidate.scores()


def best(found: Found) -> Trial | None:
    """The trial closest to every target so far (fewest missed on its estimates, then
    the smallest total score); degenerate settings never."""
    ranked = ranking(found)
    return ranked[0] if ranked else None


def ranking(found: Found) -> list[Trial]:
    """The raced trials that are not degenerate, best first."""
    out = []
    for t in found.raced():
        c = t.candidate
        assert c is not None
        if c.games and not c.degenerate():
            out.append(t)

    def order(t: Trial) -> tuple[int, float, int]:
        c = t.candidate
        assert c is not None
        missed = sum(s > 0 for s in c.scores())
        return (missed, c.score(), t.number)

    return sorted(out, key=order)


def status(found: Found, spend: Spend, phase: str, games: int) -> dict[str, Any]:
    top = best(found)
    return {
        "phase": phase,
        "trials": len(found.trials),
        "games": spend.games + games,
        "spent": spend.fraction(),
        "left": spend.left(),
        "unit": spend.budget.kind,
        "best": None if top is None else top.setting,
        "best_scores": None if top is None or top.candidate is None else top.candidate.scores(),
    }


HUGE = 10  # a space this many times larger than a budget can try is said to be huge


def reach(budget: Budget) -> int | None:
    """About how many settings a budget in games lets the search try (a full batch's race
    tries `BATCH`); None for a time budget, whose rate is not known before it runs."""
    if budget.kind != "games":
        return None
    base = base_games(Spend(budget))
    return max(BATCH, int(SEARCH_SHARE * budget.amount // batch_cost(base)) * BATCH)


def space_warning(dims: list[Dimension], budget: Budget) -> str | None:
    """A warning when the space holds many times more settings than the budget can try:
    the answer is then a sample of it, and a narrower `--over` would be searched better."""
    size = space_size(dims)
    tried = reach(budget)
    if tried is None or size <= HUGE * tried:
        return None
    held = "endless settings" if math.isinf(size) else f"{int(size):,} settings"
    return (
        f"the space holds {held} and {budget.text} tries about {tried:,} of them: "
        "narrow --over (A..B or fewer keys) or give a larger --budget"
    )
