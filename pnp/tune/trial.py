"""A candidate setting and its games: the same simulation jobs `pnp simulate` plays
(`pnp.sim.command.plan_simulation`, `pnp.sim.runner.run_jobs`), so the compiled kernels,
the local pool and the Dask backend are all reused, and a killed Dask worker's chunk is
played again elsewhere.

A candidate gathers games in rounds: each round plays a fresh block of seeded games
(`derive_seed`) and merges its tallies into the candidate's, so a promising one can be
given more games without playing any game twice. Every candidate of a round plays on the
same seeds (common random numbers: the settings are compared on the same dice).
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.runtime import interrupt
from pnp.sim.command import Plan, degenerate, finish_simulation, plan_simulation
from pnp.sim.grid import PLAYERS
from pnp.sim.metrics import Accumulator
from pnp.sim.runner import RunResult, run_jobs
from pnp.tune.budget import Spend, TimeUp, hard_stop
from pnp.tune.measure import Reading, read, score_bounds
from pnp.tune.targets import SKILL, WORST, Target

MAX_SEED = 2**62
SKILL_SHARE = 10  # a round plays one mcts game against greedy for every this many others
MIN_SKILL_GAMES = 12


def derive_seed(seed: int, *parts: object) -> int:
    """A round's master seed, from the tune's seed and the round's name: fresh seeds for
    every round, the same on every machine."""
    digest = hashlib.sha256(repr((seed, *parts)).encode()).digest()
    return int.from_bytes(digest[:8], "little") % MAX_SEED


@dataclass(frozen=True)
class Setup:
    """What every trial of a tune shares."""

    game: str
    players: int | None
    bot: str
    targets: tuple[Target, ...]
    seed: int = 1
    jobs: int = 1
    config: Path | None = None
    bot_budget: int | None = None
    scheduler: str | None = None
    timeout: float = 10.0
    values: dict[str, Any] | None = (
        None  # config keys every setting starts from (the studio's form)
    )

    @property
    def skill(self) -> bool:
        return any(t.metric == SKILL for t in self.targets)


def skill_games(games: int, players: int) -> int:
    """The mcts-against-greedy games that go with `games` others: a whole number of seat
    rotations, so the mcts seat sits in every seat equally often."""
    n = max(MIN_SKILL_GAMES, games // SKILL_SHARE)
    return -(-n // players) * players


class Candidate:
    """One setting, its plans (checked and prepared as `pnp simulate` would) and the
    tallies of every game it has played so far."""

    def __init__(self, setup: Setup, setting: dict[str, Any]) -> None:
        self.setting = dict(setting)
        self.setup = setup
        values = {**(setup.values or {}), **{k: v for k, v in setting.items() if k != PLAYERS}}
        players = setting.get(PLAYERS, setup.players)
        self.plan = plan_simulation(
            setup.game, 1, players, setup.bot, setup.seed, 1, setup.config,
            values=values or None, budget=setup.bot_budget,
        )  # fmt: skip
        n = self.plan.job.players
        self.skill_plan: Plan | None = None
        if setup.skill:
            lineup = ",".join(["mcts", *["greedy"] * (n - 1)])
            self.skill_plan = plan_simulation(
                setup.game, 1, players, setup.bot, setup.seed, 1, setup.config,
                values=values or None, bots=lineup, budget=setup.bot_budget,
            )  # fmt: skip
        self.acc = Accumulator(n)
        self.skill_acc = Accumulator(n)
        self.rung = -1
        self._read: tuple[tuple[int, int], dict[str, Reading]] | None = None

    @property
    def players(self) -> int:
        return self.plan.job.players

    def fresh(self) -> Candidate:
        """The same setting with no games yet (to be played again on fresh seeds)."""
        twin = Candidate.__new__(Candidate)
        twin.__dict__.update(self.__dict__)
        twin.acc, twin.skill_acc = Accumulator(self.players), Accumulator(self.players)
        twin.rung, twin._read = -1, None
        return twin

    @property
    def games(self) -> int:
        return self.acc.games

    def summary(self) -> dict[str, Any]:
        return finish_simulation(self.plan, RunResult(self.acc)).summary

    def skill_summary(self) -> dict[str, Any] | None:
        if self.skill_plan is None or not self.skill_acc.games:
            return None
        return finish_simulation(self.skill_plan, RunResult(self.skill_acc)).summary

    def degenerate(self) -> str | None:
        return degenerate(self.plan, self.acc)

    def readings(self) -> dict[str, Reading]:
        """Each target's value and interval from the games so far (worked out once for
        each number of games: a summary's bootstrap is not free)."""
        seen = (self.acc.games, self.skill_acc.games)
        if self._read is not None and self._read[0] == seen:
            return self._read[1]
        found: dict[str, Reading]
        if not self.acc.games:
            found = {t.metric: (None, None) for t in self.setup.targets}
        else:
            s, skill = self.summary(), self.skill_summary()
            found = {t.metric: read(t, s, self.acc, skill) for t in self.setup.targets}
        self._read = (seen, found)
        return found

    def scores(self) -> list[float]:
        """What the optimiser minimises, one a target (`Target.score`); the worst for a
        degenerate setting, so it is never recommended."""
        if self.degenerate() or not self.acc.games:
            return [WORST] * len(self.setup.targets)
        found = self.readings()
        return [t.score(found[t.metric][0]) for t in self.setup.targets]

    def score(self) -> float:
        return sum(self.scores())

    def score_span(self) -> tuple[float, float, float]:
        """(least, value, most) of the total score over its targets' intervals
        (`score_bounds`): two settings whose spans overlap cannot be told apart yet."""
        if self.degenerate() or not self.acc.games:
            n = len(self.setup.targets)
            return WORST * n, WORST * n, WORST * n
        found = self.readings()
        bounds = [score_bounds(t, found[t.metric]) for t in self.setup.targets]
        return sum(b[0] for b in bounds), self.score(), sum(b[1] for b in bounds)


Told = Callable[[int], None]
"""Told the games finished so far in a round (for the progress line)."""


def play_round(
    candidates: Sequence[Candidate],
    games: Sequence[int],
    seed: int,
    spend: Spend,
    told: Told | None = None,
    skill: Sequence[int] | None = None,
    phase: str = "search",
) -> str | None:
    """Play `games[i]` more games of candidate i (and `skill[i]` mcts-against-greedy games,
    by default its share of them: `skill_games`), all on the round's `seed`, in one
    `run_jobs` call for each kind of game; what stopped the round early ('interrupted',
    'time' when the `phase`'s time is up, or why a worker's loss could not be made good),
    else None. The games that finished are kept either way (but a round cut by
    `hard_stop` keeps none of its games)."""
    setup = candidates[0].setup
    pairs = list(zip(candidates, games, strict=True))
    rounds: list[tuple[str, list[tuple[Candidate, Any, int]]]] = [
        ("main", [(c, c.plan, n) for c, n in pairs if n])
    ]
    if setup.skill:
        if skill is None:
            skill = [skill_games(n, c.players) if n else 0 for c, n in pairs]
        mixed = zip(candidates, skill, strict=True)
        rounds.append(("skill", [(c, c.skill_plan, k) for c, k in mixed if k]))
    done_before = 0
    for kind, work in rounds:
        if not work:
            continue
        jobs = [dataclasses.replace(plan.job, games=n, seed=seed) for _, plan, n in work]
        progress = None
        if told is not None:
            base = done_before
            progress = lambda _settings, n, base=base: told(base + n)  # noqa: E731
        if spend.over(phase):
            return "time"
        began = time.monotonic()
        try:
            with hard_stop(spend.cutoff(phase)):
                results = run_jobs(
                    jobs, setup.jobs, progress, setup.scheduler, setup.timeout,
                    deadline=spend.deadline(phase),
                )  # fmt: skip
        except TimeUp:
            spend.note(kind, 0, time.monotonic() - began)
            return "time"
        played = 0
        for (c, _, _), result in zip(work, results, strict=False):
            (c.acc if kind == "main" else c.skill_acc).merge(result.acc)
            played += result.acc.games
        spend.note(kind, played, time.monotonic() - began)
        done_before += played
        last = results[-1] if results else None
        if last is not None and last.interrupted:
            if last.failure:
                return last.failure
            return "time" if not interrupt.stopping() and spend.over(phase) else "interrupted"
        if interrupt.stopping():  # Ctrl-C as the round's last games ended: none was cut
            return "interrupted"
    return None
