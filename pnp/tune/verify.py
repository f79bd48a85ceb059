"""Honest evidence: the recommended settings played again on fresh seeds.

The search's figures are biased in the settings' favour: of many settings measured with
noise, the best-looking are partly lucky. So the `TOP` best are played again, on seeds no
round of the search used, each with an even share of what is left of the budget (the
search keeps `1 - SEARCH_SHARE` of it for this; `sizes` says how a time budget's share
is used). A target is then met (its interval inside the range), missed
(its interval wholly outside), or undecided at this budget, never met on a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pnp.tune.budget import Spend
from pnp.tune.measure import Reading, games_to_decide, separating_games, verdict
from pnp.tune.search import Found, Progress, Trial, ranking
from pnp.tune.targets import SKILL, WORST, Target
from pnp.tune.trial import Candidate, derive_seed, play_round

TOP = 3
SAFETY = 2.0


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

    def miss(self) -> float:
        """The total of its targets' misses (`Target.miss`: the distance from the range,
        in the range's widths), on the evidence."""
        total = 0.0
        for t in self.candidate.setup.targets:
            value = self.readings[t.metric][0]
            total += WORST if value is None else t.miss(value)
        return total

    def order(self) -> tuple[int, int, int, int, int, float, float, int]:
        """`RANKING`, as a sort key."""
        verdicts = list(self.verdicts.values())
        return (
            0 if self.meets_all else 1,
            1 if self.kit_errors else 0,
            1 if self.candidate.degenerate() else 0,
            verdicts.count("missed"),
            -verdicts.count("met"),
            round(self.miss(), 9),
            self.candidate.score(),
            self.trial.number,
        )


RANKING = (
    "ranked: meets every target first; then a kit pnp check accepts; the fewest targets "
    "missed; the most met; the smallest total miss (each target's distance from its "
    "range, in widths of the range); the value deepest inside the ranges"
)
"""The rule the recommended settings are ranked by (`Evidence.order`), said with them."""


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


MIN_GAMES = 1000  # a recommended setting's games at the least (the budget allowing)
MIN_SKILL_EVIDENCE = 120  # mcts-against-greedy games of a setting at the least
TIME_PART = 0.25  # of a time budget's share, at least, for a setting's evidence
SKILL_SHARE = 0.2  # of a games budget's share, at most, for mcts-against-greedy games
SKILL_TIME = 0.5  # of a time budget's share, at most, for them


def sizes(chosen: list[Candidate], spend: Spend) -> list[tuple[int, int]]:
    """Games for each chosen setting, within an even share of what is left of the budget:
    the whole share of a games budget (the search's estimates flatter the best settings,
    so what they say is needed is too little); of a time budget, what the targets need
    (`_needed`) or a `TIME_PART` of the share, whichever is more, so a search that ended
    early does not spend the rest of the time on evidence. The mcts-against-greedy games,
    a hundred times dearer, get what they need, within their part of the share."""
    out = []
    left = spend.left()
    timed = spend.budget.kind == "seconds"
    main_rate = (spend.rate("main") or 1.0) if timed else 1.0
    skill_rate = (spend.rate("skill") or 1.0) if timed else 1.0
    for i, c in enumerate(chosen):
        share = left / (len(chosen) - i)
        main, skill = _needed(c, c.setup.targets)
        skill = max(skill, MIN_SKILL_EVIDENCE) if c.skill_plan is not None else 0
        skill = int(
            min(skill / skill_rate, share * (SKILL_TIME if timed else SKILL_SHARE)) * skill_rate
        )
        skill = skill // c.players * c.players
        rest = share - skill / skill_rate
        if timed:
            rest = min(rest, max(main / main_rate, TIME_PART * rest, MIN_GAMES / main_rate))
        main = int(rest * main_rate)
        left -= main / main_rate + skill / skill_rate
        out.append((main, skill))
    return out


def evidence_seed(seed: int) -> int:
    """The master seed the evidence is played on, from the tune's."""
    return derive_seed(seed, "verify")


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
        seed = evidence_seed(setup.seed)

        def told(games: int) -> None:
            if progress:
                progress(
                    {
                        "phase": "verify",
                        "games": spend.games + games,
                        "trials": len(found.trials),
                        "spent": spend.fraction(),
                        "left": spend.left(),
                        "unit": spend.budget.kind,
                        "best": ranked[0].setting,
                        "best_scores": None,
                    }
                )

        stopped = play_round(
            [c for c, _, _ in playing],
            [g for _, g, _ in playing],
            seed,
            spend,
            told,
            skill=[k for _, _, k in playing],
            phase="end",
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


def ties(evidence: list[Evidence]) -> dict[str, Any] | None:
    """The recommended settings that cannot be told apart from the first at this budget
    (their total scores' spans overlap: `Candidate.score_span`), and about how many games
    each would separate them; None when the first stands apart."""
    if len(evidence) < 2:
        return None
    first = evidence[0]
    lead = first.candidate.score_span()
    tied: list[dict[str, Any]] = [first.trial.setting]
    needed: int | None = 0
    for e in evidence[1:]:
        if e.order()[1:3] != first.order()[1:3]:
            continue  # its kit is refused, or its games are degenerate: told apart
        span = e.candidate.score_span()
        if span[0] > lead[2] or lead[0] > span[2]:
            continue
        tied.append(e.trial.setting)
        games = separating_games(lead, span, min(first.candidate.games, e.candidate.games))
        needed = None if games is None or needed is None else max(needed, games)
    if len(tied) < 2:
        return None
    return {"settings": tied, "games_to_separate": needed}
