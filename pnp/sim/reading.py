"""A sweep read the way a designer asks about it, in sentences: which setting is closest to
balanced (for a cooperative game: which the team wins most), which plays shortest, and
between which neighbouring settings the most common way a game ends changes.

A ranking is only said when the settings differ beyond their 95 % intervals: when every
setting's interval overlaps every other's, the reading says that they do not differ
instead of naming a "closest" or a "widest" that chance picked (and settings that played
the very same games say so). Settings are the grid's points in order; a grid stopped
early reads the settings that finished (neighbours need both ends played).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pnp.sim.grid import label
from pnp.sim.verdicts import mean_pm, plus_minus

MAX_CHANGES = 6  # end-reason changes spelt out; more are counted

Setting = tuple[dict[str, Any], Mapping[str, Any]]  # (the swept values, the summary)


def reading(keys: Sequence[str], runs: Sequence[Setting], planned: int) -> list[str]:
    """The sentences at the top of a sweep's report."""
    played = [r for r in runs if r[1]["games"]]
    if len(played) > 1 and all(_same(played[0][1], s) for _, s in played[1:]):
        lines = [
            f"All {len(played)} settings played the very same games, to the last figure: "
            "the swept values do not change the play."
        ]
    else:
        lines = [_balance(runs), _length(runs), *_end_changes(keys, runs)]
    if len(runs) < planned or runs[-1][1]["games"] == 0:
        last, s = runs[-1]
        lines.append(
            f"The run was stopped: {len(runs)} of {planned} settings were played, the last "
            f"({label(last)}) with {s['games']:,} games; the rest is not shown."
        )
    return [line for line in lines if line]


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Two settings' results are one: the same games, metrics and ends."""
    return all(a.get(k) == b.get(k) for k in ("games", "metrics", "end_reasons"))


Interval = tuple[float, float]


def _apart(intervals: Sequence[Interval]) -> bool:
    """Do some two settings differ beyond their intervals (two of them do not overlap)?
    Intervals on a line overlap pairwise exactly when the highest low is under the lowest
    high."""
    return max(lo for lo, _ in intervals) > min(hi for _, hi in intervals)


def _interval(value: float, ci: Sequence[float] | None) -> Interval:
    """A figure's 95 % interval; the figure itself when it has none."""
    return (float(ci[0]), float(ci[1])) if ci else (float(value), float(value))


def _seats_apart(runs: Sequence[Setting]) -> bool:
    """Does some seat's win share differ between two settings beyond its intervals?"""
    seats = len(runs[0][1]["metrics"]["win_rate_by_seat"])
    for seat in range(seats):
        spans = []
        for _, s in runs:
            m = s["metrics"]
            cis = m.get("win_rate_by_seat_ci")
            spans.append(_interval(m["win_rate_by_seat"][seat], cis[seat] if cis else None))
        if _apart(spans):
            return True
    return False


def _balance(runs: Sequence[Setting]) -> str:
    """Competitive: the smallest gap between the seats' win shares; cooperative: the
    highest team win rate (completion). Neither when no two settings differ beyond their
    intervals."""
    if any(s.get("cooperative") for _, s in runs):
        played = [r for r in runs if r[1]["games"]]
        if not played:
            return ""
        rates = [r[1]["metrics"]["completion"] for r in played]
        spans = [
            _interval(r, s["metrics"].get("completion_ci"))
            for r, (_, s) in zip(rates, played, strict=True)
        ]
        if len(played) > 1 and not _apart(spans):
            return (
                "The team win rate does not differ between the settings beyond its 95 % "
                f"intervals ({min(rates):.3f} to {max(rates):.3f}), so none is easier than another."
            )
        line = f"The team wins most at {_tied(played, rates, max(rates))}"
        if len(played) > 1:
            line += f"; least at {_tied(played, rates, min(rates))}"
        return line + " of the games."
    seated = [(v, s) for v, s in runs if s["metrics"].get("win_rate_by_seat")]
    if not seated:
        return ""
    if len(seated) > 1 and not _seats_apart(seated):
        shares = [x for _, s in seated for x in s["metrics"]["win_rate_by_seat"]]
        return (
            "Seat win shares do not differ between the settings beyond their 95 % "
            f"intervals (every seat wins {min(shares):.3f} to {max(shares):.3f} of the games "
            "in every setting), so none is closer to balanced than another."
        )

    def gap(run: Setting) -> float:
        rates = run[1]["metrics"]["win_rate_by_seat"]
        return float(max(rates) - min(rates))

    ranked = sorted(seated, key=gap)
    best, worst = ranked[0], ranked[-1]
    fairness = best[1].get("fairness") or {}
    fair = fairness.get("seat_1", {}).get("fair")
    said = f" (fair share {fair:.3f})" if fair is not None else ""
    line = (
        f"Closest to balanced: {label(best[0])}, where the seats win "
        f"{_span(best[1])} of the games{said}"
    )
    if fairness.get("seats_differ"):
        line += f", {fairness['seats_differ']}"
    if len(ranked) > 1:
        line += f"; the widest gap is at {label(worst[0])}: {_span(worst[1])}"
        differ = (worst[1].get("fairness") or {}).get("seats_differ")
        line += f", {differ}" if differ else ""
    return line + "."


def _tied(runs: Sequence[Setting], rates: list[float], rate: float) -> str:
    """The first setting (in grid order) with this team win rate, its rate, and how many
    other settings have the same."""
    at = [i for i, r in enumerate(rates) if r == rate]
    setting, s = runs[at[0]]
    more = f" (and {len(at) - 1} other settings)" if len(at) > 1 else ""
    return f"{label(setting)}{more}: {_share(s, 'completion')}"


def _span(s: Mapping[str, Any]) -> str:
    rates = s["metrics"]["win_rate_by_seat"]
    return f"{min(rates):.3f} to {max(rates):.3f}"


def _share(s: Mapping[str, Any], key: str) -> str:
    return plus_minus(s["metrics"][key], s["metrics"].get(f"{key}_ci"))


def _length(runs: Sequence[Setting]) -> str:
    def mean(run: Setting) -> float:
        return float(run[1]["metrics"]["duration_turns"]["mean"])

    played = [r for r in runs if r[1]["games"]]
    if not played:
        return ""
    spans = [_interval(mean(r), r[1]["metrics"]["duration_turns"].get("ci")) for r in played]
    if len(played) > 1 and not _apart(spans):
        means = [mean(r) for r in played]
        return (
            "Game length does not differ between the settings beyond its 95 % intervals "
            f"({min(means):.1f} to {max(means):.1f} turns on average), so none plays "
            "shorter than another."
        )
    ranked = sorted(played, key=mean)
    short, long = ranked[0], ranked[-1]

    def turns(s: Mapping[str, Any]) -> str:
        d = s["metrics"]["duration_turns"]
        return mean_pm(d)

    line = f"Shortest games: {label(short[0])}, {turns(short[1])} turns on average"
    if len(ranked) > 1:
        line += f"; longest: {label(long[0])}, {turns(long[1])} turns"
    return line + "."


def common_end(s: Mapping[str, Any]) -> str | None:
    """The end reason most games of a setting had (the first named on a tie)."""
    ends = s["end_reasons"]
    return max(ends, key=lambda e: ends[e]) if ends else None


def _end_changes(keys: Sequence[str], runs: Sequence[Setting]) -> list[str]:
    """Where the most common end differs between two settings next to each other along
    one key (the other keys held)."""
    ends = {tuple(v[k] for k in keys): common_end(s) for v, s in runs if s["games"]}
    values = [list(dict.fromkeys(v[k] for v, _ in runs)) for k in keys]
    changes = []
    for point, end in ends.items():
        for axis, key in enumerate(keys):
            at = values[axis].index(point[axis])
            if at + 1 == len(values[axis]):
                continue
            after = (*point[:axis], values[axis][at + 1], *point[axis + 1 :])
            other = ends.get(after)
            if other is None or other == end:
                continue
            held = ", ".join(f"{k} = {point[i]}" for i, k in enumerate(keys) if i != axis)
            changes.append(
                f"The most common end changes from '{end}' to '{other}' between {key} = "
                f"{point[axis]} and {after[axis]}" + (f" (at {held})" if held else "") + "."
            )
    if not changes:
        common = set(ends.values())
        if len(common) == 1:
            return [f"The most common end is '{common.pop()}' in every setting."]
        return []
    more = len(changes) - MAX_CHANGES
    shown = changes[:MAX_CHANGES]
    if more > 0:
        shown.append(f"... and {more} more such changes (the table below lists every setting).")
    return shown
