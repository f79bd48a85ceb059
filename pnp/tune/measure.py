"""A target's value and 95 % interval, read from a setting's games.

Most come from the summary `pnp simulate --json` writes for the same games (its means and
shares carry their intervals). Two are made here:

- ``seat_gap``: the highest seat win share minus the lowest, each share over all games
  played (a shared win split, a drawn game no seat's). Its interval comes from a Wilson
  interval for each of the k seats at level 1 - 0.05 / k (Bonferroni: all k hold together
  at least 95 % of the time, however the seats' wins depend on each other), as
  [max(0, highest lower end - lowest upper end), highest upper end - lowest lower end].
- ``mcts_vs_greedy``: the mcts bot's win share pooled over the seats it held, against
  greedy seats, seat orders rotated (`pnp.sim.metrics.bot_shares`), with its Wilson interval.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

from pnp.sim.intervals import ALPHA, wilson
from pnp.sim.metrics import Accumulator
from pnp.tune.targets import SKILL, WORST, Target

Reading = tuple[float | None, list[float] | None]  # a value and its 95 % interval


def seat_gap(acc: Accumulator) -> Reading:
    """The gap between the best and the worst seat's win share, with its interval."""
    n, k = acc.games, acc.players
    if n == 0 or k < 2:
        return None, None
    wins = [w / acc.unit for w in acc.seat_wins]
    shares = [w / n for w in wins]
    z = NormalDist().inv_cdf(1 - ALPHA / (2 * k))
    spans = [wilson(w, n, z) for w in wins]
    lo = max(0.0, max(s[0] for s in spans) - min(s[1] for s in spans))
    hi = max(s[1] for s in spans) - min(s[0] for s in spans)
    return round(max(shares) - min(shares), 4), [round(lo, 4), round(hi, 4)]


def read(target: Target, summary: dict[str, Any], acc: Accumulator, skill: dict | None) -> Reading:
    """The target's metric from the setting's summary (and its tallies, and the summary of
    its mcts-against-greedy games for the skill metric)."""
    m = summary["metrics"]
    name = target.metric
    if name == "turns":
        d = m["duration_turns"]
        return d["mean"], d.get("ci")
    if name == "seat_gap":
        return seat_gap(acc)
    if name == SKILL:
        share = (skill or {}).get("bot_shares", {}).get("mcts")
        return (share["share"], share["ci"]) if share else (None, None)
    value = m.get(name)
    if isinstance(value, dict):  # a counter: its mean per game
        return value["mean"], value.get("ci")
    return value, m.get(f"{name}_ci")


def verdict(target: Target, reading: Reading) -> str:
    """met (the whole interval inside the range), missed (the whole interval outside it),
    else undecided; a metric that could not be measured is undecided too."""
    value, ci = reading
    if value is None or not ci:
        return "undecided"
    lo, hi = ci
    if target.lo <= lo and hi <= target.hi:
        return "met"
    if hi < target.lo or lo > target.hi:
        return "missed"
    return "undecided"


def games_to_decide(target: Target, reading: Reading, games: int) -> int | None:
    """About how many games would put the interval wholly on one side of the nearest end
    of the range, if the value stayed where it is (an interval narrows as 1/sqrt(games));
    None when the value sits on an end, or there is no interval to go by."""
    value, ci = reading
    if value is None or not ci or games <= 0:
        return None
    edges = [e for e in (target.lo, target.hi) if abs(e) != float("inf")]
    if not edges:
        return games
    inside = target.lo <= value <= target.hi
    if not inside:  # a miss is shown by the interval clearing the nearest end
        edges = [min(edges, key=lambda e: abs(e - value))]
    most = 0
    for edge in edges:  # inside, it must clear both ends
        room = abs(value - edge)
        side = (ci[1] - value) if edge >= value else (value - ci[0])
        if room <= 0:
            return None
        most = max(most, int(games * (max(side, 0.0) / room) ** 2) + 1)
    return max(most, 1)


def score_bounds(target: Target, reading: Reading) -> tuple[float, float]:
    """The least and the most `Target.score` a value anywhere in the reading's interval
    would have: the score is convex in the value (it falls into the range and rises out of
    it), so its most is at an end of the interval and its least at an end or at one of the
    score's corners inside the interval."""
    value, ci = reading
    if value is None:
        return WORST, WORST
    a, b = (ci[0], ci[1]) if ci else (value, value)
    corners = [target.lo, target.hi, target.lo + target.scale, target.hi - target.scale]
    corners.append((target.lo + target.hi) / 2)
    inner = [x for x in corners if math.isfinite(x) and a < x < b]
    at = [target.score(x) for x in (a, b, *inner)]
    return min(at), max(at)


def separating_games(
    best: tuple[float, float, float], other: tuple[float, float, float], games: int
) -> int | None:
    """About how many games each would let two settings' total scores be told apart
    ((least, value, most) of each, measured on `games` games), were their values to stay
    where they are (an interval narrows as 1/sqrt(games)); None when their values are the
    same, so no number of games would."""
    gap = abs(other[1] - best[1])
    if gap <= 1e-12 or games <= 0:
        return None
    spread = (best[2] - best[1]) + (other[1] - other[0])  # the sides that overlap
    return max(games, int(games * (spread / gap) ** 2) + 1)
