"""Answers to a designer's yes/no questions, with the tests behind them.

"Is there a first-player advantage?" is two tests at 95 %, both over the decided games
(someone won; a shared win split), because a game no one won says nothing about the
seats and counting it would make the test too cautious (at a third of games undecided,
its true size was 2.2 %, not 5 %): seat 1's win share against the fair share 1/players,
and all seats together (chi-square goodness of fit of the seats' wins against equal
wins). The share of undecided games is reported beside them. When seat 1's test finds
nothing, the answer says how many games (decided and undecided, at the share seen) would
detect a difference of one point (two-sided, 5 %, 80 % power).

Both tests lean on the normal approximation, which needs a few wins expected in every
seat: below `min_decided` decided games (30, and 5 per seat) no p-value, verdict or
games-to-detect figure is given, only "too few games". The tests are made for runs where
every seat plays the same bot (mcts included); a run of mixed bots measures the bots
instead (`pnp.sim.metrics.bot_shares`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from pnp.sim.intervals import ALPHA, chi_square_test, games_to_detect, share_test

if TYPE_CHECKING:
    from pnp.sim.metrics import Accumulator

DETECT = 0.01  # the difference `games_to_detect` is quoted for: one point of win share
MIN_DECIDED = 30  # decided games below which the seat tests say "too few games"
MIN_PER_SEAT = 5  # ... and wins expected per seat at the fair share


def min_decided(players: int) -> int:
    """Decided games the seat tests need: 30, and 5 expected wins in every seat."""
    return max(MIN_DECIDED, MIN_PER_SEAT * players)


def too_few(decided: int, players: int) -> str:
    """The verdict in place of a test's below `min_decided`."""
    return f"too few games: {decided:,} decided, the test needs at least {min_decided(players):,}"


def fairness(acc: Accumulator) -> dict[str, Any] | None:
    """The fairness object of the JSON (None without games or seats to compare)."""
    n = acc.games
    if n == 0 or acc.players < 2:
        return None
    decided = acc.team_wins
    wins = [w / acc.unit for w in acc.seat_wins]
    fair = 1 / acc.players
    share = wins[0] / decided if decided else 0.0
    enough = decided >= min_decided(acc.players)
    p_seat = share_test(share, decided, fair)
    chi2, p_all = chi_square_test(wins)
    needed = None
    if enough and 0 < fair < 1 - DETECT:
        needed = math.ceil(games_to_detect(DETECT, fair) * n / decided)
    seat1 = {
        "share": round(share, 4),
        "fair": round(fair, 4),
        "difference": round(share - fair, 4),
        "p_value": round(p_seat, 4) if enough else None,
        "significant": enough and p_seat < ALPHA,
    }
    seats = {
        "chi_square": round(chi2, 3) if enough else None,
        "df": acc.players - 1,
        "p_value": round(p_all, 4) if enough else None,
        "significant": enough and p_all < ALPHA,
    }
    return {
        "level": 1 - ALPHA,
        "decided_games": decided,
        "min_decided_games": min_decided(acc.players),
        "undecided": round(1 - decided / n, 4),
        "seat_1": seat1,
        "all_seats": seats,
        "games_to_detect_1_point": needed,
        "first_player_advantage": (
            first_player_verdict(seat1, needed) if enough else too_few(decided, acc.players)
        ),
        "seats_differ": seats_verdict(seats) if enough else too_few(decided, acc.players),
    }


def first_player_verdict(seat1: dict[str, Any], needed: int | None) -> str:
    """ "yes, seat 1 +2.8 points", or why not."""
    points = 100 * seat1["difference"]
    if seat1["significant"]:
        if points > 0:
            return f"yes, seat 1 {points:+.1f} points"
        return f"no, seat 1 is behind: {points:+.1f} points"
    if needed is None:
        return "no evidence at this sample size"
    return f"no evidence at this sample size: {needed:,} games would detect 1 point"


def seats_verdict(seats: dict[str, Any]) -> str:
    """ "yes, the seats' win shares differ (chi-square p = 0.012)", or no evidence."""
    p = seats["p_value"]
    shown = f"p = {p:.3f}" if p >= 0.001 else "p < 0.001"
    if seats["significant"]:
        return f"yes, the seats' win shares differ (chi-square {shown})"
    return f"no evidence the seats differ ({shown})"


def plus_minus(value: float | None, ci: list[float] | None, digits: int = 3, unit: str = "") -> str:
    """`0.267 ± 0.027` for an interval symmetric about the value (its two sides equal to
    the digits shown); any other as `0.375 (0.137-0.694)`; `n/a` for a metric that does not
    apply. `unit` follows each figure (" %")."""
    if value is None:
        return "n/a"
    if not ci:
        return f"{value:.{digits}f}{unit}"
    lo, hi = ci
    below, above = value - lo, hi - value
    if abs(above - below) <= 0.5 * 10**-digits:
        return f"{value:.{digits}f} \u00b1 {(below + above) / 2:.{digits}f}{unit}"
    return f"{value:.{digits}f}{unit} ({lo:.{digits}f}-{hi:.{digits}f}{unit})"


def mean_pm(d: dict[str, Any], digits: int = 1) -> str:
    """A distribution's mean with its interval; "(interval n/a)" where the sample cannot
    give one (`pnp.sim.intervals.mean_method`), never a zero-width "± 0.0"."""
    if "ci" in d and d["ci"] is None:
        return f"{d['mean']:.{digits}f} (interval n/a)"
    return plus_minus(d["mean"], d.get("ci"), digits)


def is_interval_key(key: str) -> bool:
    """A metrics key that holds another's interval or its method, not a figure."""
    return key.endswith(("_ci", "_ci_method"))


def plain_summary(s: dict[str, Any]) -> list[str]:
    """The report's opening answers, one sentence each: length, fairness, decisiveness,
    what ends games."""
    m = s["metrics"]
    d = m["duration_turns"]
    n = max(1, s["games"])
    out = [
        f"Length: a game lasts {mean_pm(d)} turns on average "
        f"(90 % of games between {d['p5']:.0f} and {d['p95']:.0f})."
    ]
    if s.get("cooperative"):
        won = plus_minus(100 * m["completion"], _pct(m.get("completion_ci")), 1, " %")
        out.append(f"Winning: the team wins {won} of the games.")
    else:
        fair = s.get("fairness") or {}
        if fair:
            undecided = fair.get("undecided") or 0
            over = (
                f" (over the {fair['decided_games']:,} decided games; "
                f"{100 * undecided:.1f} % had no winner)"
                if undecided
                else ""
            )
            out.append(
                f"Fairness{over}: a first-player advantage? {fair['first_player_advantage']}. "
                f"Do the seats differ? {fair['seats_differ']}."
            )
        done = plus_minus(100 * m["completion"], _pct(m.get("completion_ci")), 1, " %")
        drawn = plus_minus(100 * m["drawishness"], _pct(m.get("drawishness_ci")), 1, " %")
        line = f"Decisiveness: {done} of the games end by a rule of the game; {drawn} end drawn"
        line += " or with a shared win"
        if m.get("leader_at_midgame_wins") is not None:
            mid = plus_minus(
                100 * m["leader_at_midgame_wins"], _pct(m.get("leader_at_midgame_wins_ci")), 1
            )
            line += f"; the mid-game leader goes on to win {mid} % of the time"
        out.append(line + ".")
    ends = sorted(s["end_reasons"].items(), key=lambda item: -item[1])
    shown = ", ".join(f"{e} {100 * k / n:.1f} %" for e, k in ends)
    out.append(f"What ends games: {shown}.")
    return out


def _pct(ci: list[float] | None) -> list[float] | None:
    return [100 * x for x in ci] if ci else None
