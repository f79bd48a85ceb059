"""A designer's targets: `turns in 18..25`, `seat_gap <= 0.02`, `mcts_vs_greedy >= 0.6`.

A target names a metric the game reports and the values it must take: a range (both ends
included) or a bound. Each metric is read from a setting's games as a value and its 95 %
interval (`pnp.tune.measure`); this module only reads the words and says what the game
offers.

Metrics:
- ``turns``: mean turns a game (interval: `pnp.sim.intervals.mean_interval`).
- ``completion``, ``timeouts``: shares of games (Wilson); a cooperative game's
  ``completion`` is the share the team won.
- ``drawishness``, ``seat_gap``, ``lead_changes``, ``mcts_vs_greedy``: competitive games
  only; ``seat_gap`` is the highest seat win share minus the lowest
  (`pnp.tune.measure.seat_gap`), ``mcts_vs_greedy`` the mcts seat's share pooled over the
  seats it held against greedy seats (`pnp.sim.metrics.bot_shares`).
- each counter the game declares (`captures`, `explosions`...): its mean per game.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from pnp.contract.gamedef import Engine
from pnp.runtime.errors import PnpError

SHARES = ("completion", "timeouts", "drawishness", "seat_gap", "mcts_vs_greedy")
"""Metrics that are shares of games: between 0 and 1."""
SKILL = "mcts_vs_greedy"
COMPETITIVE = ("seat_gap", "drawishness", "lead_changes", SKILL)

_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"
_TARGET = re.compile(
    rf"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:in\s+({_NUMBER})\s*\.\.\s*({_NUMBER})|(<=|>=)\s*({_NUMBER}))\s*"
)


@dataclass(frozen=True)
class Target:
    """A metric and the closed range [lo, hi] it must lie in (a bound leaves one end open)."""

    text: str
    metric: str
    lo: float = -math.inf
    hi: float = math.inf

    def as_json(self) -> dict[str, object]:
        return {
            "target": self.text,
            "metric": self.metric,
            "lo": None if math.isinf(self.lo) else self.lo,
            "hi": None if math.isinf(self.hi) else self.hi,
        }

    @property
    def scale(self) -> float:
        """What a miss is measured in: the range's width, else the bound's size (at least
        a point of a share, or one unit of a count)."""
        if math.isfinite(self.lo) and math.isfinite(self.hi) and self.hi > self.lo:
            return self.hi - self.lo
        bound = self.hi if math.isfinite(self.hi) else self.lo
        floor = 0.01 if self.metric in SHARES else 1.0
        return max(abs(bound), floor)

    def miss(self, value: float) -> float:
        """How far `value` lies outside the range, in the target's `scale` (0 inside)."""
        return max(0.0, self.lo - value, value - self.hi) / self.scale

    def margin(self, value: float) -> float:
        """How far `value` lies inside the range, in `scale` (0 outside)."""
        return max(0.0, min(value - self.lo, self.hi - value)) / self.scale

    def score(self, value: float | None) -> float:
        """What the optimiser minimises: the miss outside the range, minus the margin
        inside it (a setting well inside is easier to prove); `WORST` when unmeasured."""
        if value is None:
            return WORST
        return self.miss(value) - min(self.margin(value), 1.0)


WORST = 1e6
"""The score of a target that could not be measured, or of a degenerate setting."""


def metric_names(engine: Engine) -> list[str]:
    """The metrics a target may name for this game, in the order the help lists them."""
    names = ["turns", "completion", "timeouts"]
    if not engine.COOPERATIVE:
        names += ["seat_gap", "drawishness", "lead_changes"]
        if "greedy" in engine.BOTS:
            names.append(SKILL)
    return names + [c for c in engine.COUNTERS if c not in names]


def parse_target(text: str, engine: Engine, title: str) -> Target:
    """One `--target`; a one-line error for a metric the game does not report, a range
    that runs backwards, or words that are not a target."""
    found = _TARGET.fullmatch(text)
    if not found:
        raise PnpError(
            f"--target '{text}' is not a target: write METRIC in A..B, METRIC <= X or "
            "METRIC >= X (e.g. 'turns in 18..25', 'seat_gap <= 0.02')"
        )
    metric, a, b, op, x = found.groups()
    names = metric_names(engine)
    if metric not in names:
        why = ""
        if metric in COMPETITIVE and engine.COOPERATIVE:
            why = f" ({title} is cooperative: its seats win or lose together)"
        raise PnpError(
            f"--target '{text}': {title} reports no metric '{metric}'{why}; "
            f"choose from {', '.join(names)}"
        )
    if op is None:
        lo, hi = float(a), float(b)
        if hi < lo:
            raise PnpError(
                f"--target '{text}': the range {a}..{b} is empty (its end is below its start)"
            )
    elif op == "<=":
        lo, hi = -math.inf, float(x)
    else:
        lo, hi = float(x), math.inf
    if metric in SHARES and (hi < 0 or lo > 1):
        raise PnpError(f"--target '{text}': {metric} is a share of games, from 0 to 1")
    return Target(" ".join(text.split()), metric, lo, hi)


def parse_targets(texts: list[str], engine: Engine, title: str) -> list[Target]:
    if not texts:
        raise PnpError(
            "give at least one --target, e.g. --target 'turns in 18..25' (metrics: "
            + ", ".join(metric_names(engine))
            + ")"
        )
    targets = [parse_target(t, engine, title) for t in texts]
    seen: set[str] = set()
    for t in targets:
        if t.metric in seen:
            raise PnpError(f"--target names {t.metric} twice: give one range for each metric")
        seen.add(t.metric)
    return targets
