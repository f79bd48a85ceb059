"""Honest evidence: the recommended settings played again on fresh seeds.

The search's figures are biased in the settings' favour: of many settings measured with
noise, the best-looking are partly lucky. So the `TOP` best are played again, on seeds no
round of the search used, each with an even share of what is left of the budget (the
mcts-against-greedy games, which cost a hundred times more, sized by what the search's
own interval says they need, with a `SAFETY` margin). The search keeps `1 - SEARCH_SHARE`
of the budget for this, so the evidence has games enough for the intervals to lie inside
the targets' ranges where the settings truly meet them. A target is then met (its interval inside the range), missed
(its interval wholly outside), or undecided at this budget, never met on a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pnp.tune.budget import Spend
from pnp.tune.measure import Reading, games_to_decide, verdict
from pnp.tune.search import Found, Progress, Trial, ranking
from pnp.tune.targets import SKILL, Target
from pnp.tune.trial import MIN_SKILL_GAMES, Candidate, derive_seed, play_round

TOP = 3
SAFETY = 1.5


@dataclass
class Evidence:
    """A recommended setting as played again: each target's reading and verdict."""

    trial: Trial
    candidate: Candidate
    readings: dict[str, Reading]
    verdicts: dict[str, str]
    kit_errors: list[str] = field(default_factory=list)  # what `pnp check` refuses in its kit

    @property
    def meets_all(self) -> bool:
        return all(v == "met" for v in self.verdicts.values())

    def order(self) -> tuple[int, int, int, int, float, int]:
        verdicts = list(self.verdicts.values())
        return (
            0 if self.meets_all else 1,
            1 if self.kit_errors else 0,
            1 if self.candidate.degenerate() else 0,
            verdicts.count("missed"),
            self.candidate.score(),
            self.trial.number,
        )


def _needed(c: Candidate, targets: tuple[Target, ...]) -> tuple[int, int]:
    """(games, mcts-against-greedy games) that should decide every target of `c`."""
    found = c.readings()
    main = skill = 0
    for t in targets:
        played = c.skill_acc.games if t.metric == SKILL else c.games
        n = games_to_decide(t, found[t.metric], played) or 4 * played
        if t.metric == SKILL:
            skill = max(skill, int(SAFETY * n))
        else:
            main = max(main, int(SAFETY * n))
    return main, skill


SKILL_SHARE = 0.2  # of a games budget's share, at most, for mcts-against-greedy games
SKILL_TIME = 0.5  # of a time budget's share, at most, for them


def sizes(chosen: list[Candidate], spend: Spend) -> list[tuple[int, int]]:
    """Games for each chosen setting: an even share of what is left of the budget (more
    games only narrow the intervals), the mcts-against-greedy games sized by what the
    skill target needs (they cost a hundred times more time than others)."""
    out = []
    left = spend.left()
    timed = spend.budget.kind == "seconds"
    for i, c in enumerate(chosen):
        share = left / (len(chosen) - i)
        _, need = _needed(c, c.setup.targets)
        skill = 0
        if c.skill_plan is not None:
            need = max(need, MIN_SKILL_GAMES)
            if timed:
                rate = spend.rate("skill") or 1.0
                skill = int(min(need / rate, SKILL_TIME * share) * rate)
            else:
                skill = int(min(need, SKILL_SHARE * share))
            skill = skill // c.players * c.players
        if timed:
            rate = spend.rate("skill") or 1.0
            rest = share - (skill / rate if skill else 0.0)
            main = int(max(0.0, rest) * (spend.rate("main") or 0.0))
        else:
            main = int(share - skill)
        left -= share
        out.append((main, skill))
    return out


def verify(
    found: Found, spend: Spend, progress: Progress | None = None
) -> tuple[list[Evidence], str | None]:
    """The best settings played again on fresh seeds, best first, and what stopped that
    early (see `pnp.tune.trial.play_round`), else None."""
    ranked = ranking(found)[:TOP]
    if not ranked:
        return [], None
    chosen = [t.candidate.fresh() for t in ranked if t.candidate is not None]
    planned = sizes(chosen, spend)
    playing = [(c, g, k) for c, (g, k) in zip(chosen, planned, strict=True) if g > 0]
    stopped = None
    if playing:
        setup = chosen[0].setup
        seed = derive_seed(setup.seed, "verify")

        def told(games: int) -> None:
            if progress:
                progress({"phase": "verify", "games": spend.games + games, "trials": len(found.trials),
                          "spent": spend.fraction(), "left": spend.left(), "unit": spend.budget.kind,
                          "best": ranked[0].setting, "best_scores": None})

        stopped = play_round(
            [c for c, _, _ in playing],
            [g for _, g, _ in playing],
            seed,
            spend,
            told,
            skill=[k for _, _, k in playing],
        )
    out = []
    for trial, c in zip(ranked, chosen, strict=True):
        if not c.games:
            continue
        readings = c.readings()
        verdicts = {t.metric: verdict(t, readings[t.metric]) for t in c.setup.targets}
        if c.degenerate():
            verdicts = {k: "missed" for k in verdicts}
        out.append(Evidence(trial, c, readings, verdicts))
    return sorted(out, key=Evidence.order), stopped


def target_json(t: Target, e: Evidence) -> dict[str, Any]:
    """One target's evidence: value, interval, verdict, by how much it is missed, and
    about how many games would decide it when undecided."""
    value, ci = e.readings[t.metric]
    played = e.candidate.skill_acc.games if t.metric == SKILL else e.candidate.games
    out: dict[str, Any] = {
        "target": t.text,
        "value": value,
        "ci": ci,
        "verdict": e.verdicts[t.metric],
        "games": played,
    }
    if value is not None:
        out["missed_by"] = round(max(0.0, t.lo - value, value - t.hi), 4)
    if out["verdict"] == "undecided":
        out["games_to_decide"] = games_to_decide(t, (value, ci), played)
    return out
