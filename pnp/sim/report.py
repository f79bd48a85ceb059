"""The HTML simulation report: the run's numbers plus three plots, in one file (a sweep's
reading and plots above them: `pnp.sim.sweep_report`).

Plots are drawn with matplotlib's object API on the SVG canvas (no pyplot, no GUI
backend) and inlined as SVG; fixed metadata and a fixed hash salt make the file
byte-identical for the same results.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib

matplotlib.use("Agg")  # never a GUI backend, whatever the environment says

from matplotlib.axes import Axes  # noqa: E402
from matplotlib.backends.backend_svg import FigureCanvasSVG  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from pnp.draw.templating import render  # noqa: E402
from pnp.sim.metrics import Accumulator  # noqa: E402
from pnp.sim.tables import Table, ladder_rows, players_said  # noqa: E402
from pnp.sim.verdicts import is_interval_key, mean_pm, plain_summary, plus_minus  # noqa: E402

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

    from pnp.runtime.staging import Staging
    from pnp.sim.sweep_report import SweepSection

INK = "#0072B2"  # Okabe-Ito blue
ACCENT = "#D55E00"
RC: dict[RcKeyType, object] = {
    "svg.hashsalt": "pnp-report",
    "svg.fonttype": "none",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


def _svg(fig: Figure) -> str:
    buf = io.StringIO()
    FigureCanvasSVG(fig)
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": "pnp"})
    text = buf.getvalue()
    return text[text.index("<svg") :]  # drop the XML prolog and doctype for inlining


MAX_BARS = 40  # more distinct values than this are grouped into bins of equal width


def bins(hist: dict[int, int], most: int = MAX_BARS) -> tuple[list[int], list[int], int]:
    """Bin starts, games per bin and the bin width for a histogram of whole numbers.

    Width 1 (one bar per value) while the values span at most `most`; a wider span (Desert
    Home's rounds run from 20 to 1,000) is grouped into at most `most` bins of a whole-number
    width, since one hairline bar per value draws an empty-looking plot.
    """
    if not hist:
        return [], [], 1
    lo, hi = min(hist), max(hist)
    width = max(1, -(-(hi - lo + 1) // most))  # ceiling division
    counts: dict[int, int] = {}
    for value, games in hist.items():
        start = lo + (value - lo) // width * width
        counts[start] = counts.get(start, 0) + games
    starts = sorted(counts)
    return starts, [counts[x] for x in starts], width


def _histogram(ax: Axes, hist: dict[int, int]) -> None:
    starts, heights, width = bins(hist)
    if width == 1:  # a bar centred on each value
        ax.bar(starts, heights, width=0.9, color=INK)
    else:  # bin [start, start + width) drawn edge to edge
        ax.bar(
            starts, heights, width=width, align="edge", color=INK, edgecolor="white", linewidth=0.3
        )


def length_histogram(
    acc: Accumulator, mean: float | None = None, ci: list[float] | None = None
) -> str:
    """Games by length; the mean as a line, its 95 % interval as a band around it."""
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=(6, 2.8))
        ax = fig.add_subplot()
        _histogram(ax, acc.turns)
        if mean is not None and ci:
            ax.axvspan(ci[0], ci[1], color=ACCENT, alpha=0.25, linewidth=0)
            ax.axvline(mean, color=ACCENT, linewidth=1.2, label="mean (band: 95 % interval)")
            ax.legend(frameon=False, loc="best")
        ax.set_xlabel("turns per game")
        ax.set_ylabel("games")
        ax.set_title("Game length")
        fig.tight_layout()
        return _svg(fig)


def _errors(
    values: Sequence[float], cis: Sequence[Sequence[float]] | None
) -> list[list[float]] | None:
    """matplotlib's asymmetric error bars (below, above) from [lo, hi] intervals."""
    if not cis:
        return None
    return [
        [max(0.0, v - c[0]) for v, c in zip(values, cis, strict=True)],
        [max(0.0, c[1] - v) for v, c in zip(values, cis, strict=True)],
    ]


ERROR_BARS: dict[str, Any] = {"ecolor": "#222222", "capsize": 4, "error_kw": {"elinewidth": 1.2}}


def seat_wins(rates: list[float], cis: list[list[float]] | None = None) -> str:
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=(4, 2.8))
        ax = fig.add_subplot()
        seats = [f"seat {i + 1}" for i in range(len(rates))]
        ax.bar(seats, rates, color=INK, yerr=_errors(rates, cis), **ERROR_BARS)
        if rates:
            ax.axhline(sum(rates) / len(rates), color=ACCENT, linestyle="--", linewidth=1)
        ax.set_ylabel("win share")
        ax.set_title("Win share by seat (bars: 95 %; dashed: fair)")
        fig.tight_layout()
        return _svg(fig)


def end_reasons(ends: dict[str, int], cis: dict[str, list[float]] | None = None) -> str:
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=(4, 2.8))
        ax = fig.add_subplot()
        names = list(ends)
        counts = [ends[n] for n in names]
        games = sum(counts)
        errors = None
        if cis and games:
            errors = _errors(counts, [[games * x for x in cis[n]] for n in names])
        bars = ax.barh(names, counts, color=INK, xerr=errors, **ERROR_BARS)
        ax.bar_label(bars, padding=6)
        ax.margins(x=0.2)
        ax.set_xlabel("games (bars: 95 % interval)" if errors else "games")
        ax.set_title("End reasons")
        fig.tight_layout()
        return _svg(fig)


def always_zero(hist: dict[int, int]) -> bool:
    """A counter that never counted anything in any game: no histogram for it."""
    return not any(hist)


def counter_histogram(name: str, hist: dict[int, int]) -> str:
    """Games by the value of one counter the game declares (captures, passes, ...)."""
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=(4, 2.8))
        ax = fig.add_subplot()
        _histogram(ax, hist)
        label = name.replace("_", " ")
        ax.set_xlabel(f"{label} per game")
        ax.set_ylabel("games")
        ax.set_title(label.capitalize())
        fig.tight_layout()
        return _svg(fig)


def said(value: object) -> str:
    """A parameter as a designer reads it: lists joined, tables as `key: value` pairs."""
    if isinstance(value, dict):
        return "; ".join(f"{k}: {said(v)}" for k, v in value.items()) or "none"
    if isinstance(value, list | tuple):
        return ", ".join(said(v) for v in value)
    return str(value)


def rung_plot(label: str, names: Sequence[str], values: Sequence[float | None],
              cis: Sequence[Sequence[float] | None], verdict: str) -> str:  # fmt: skip
    """One metric of a ladder of skill: its value on each rung, the 95 % interval as a bar
    (none where the rung has none); the title says the verdict."""
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=(3.2, 2.4))
        ax = fig.add_subplot()
        colour = ACCENT if verdict == "depends on skill" else INK
        for i, (value, ci) in enumerate(zip(values, cis, strict=True)):
            if value is None:
                continue
            err = [[max(0.0, value - ci[0])], [max(0.0, ci[1] - value)]] if ci else None
            ax.errorbar([i], [value], yerr=err, fmt="o", color=colour, ecolor="#222222",
                        capsize=4, elinewidth=1.2)  # fmt: skip
        ax.set_xticks(range(len(names)), list(names))
        ax.set_xlim(-0.5, len(names) - 0.5)
        ax.set_title(f"{label}\n({verdict})", fontsize=9)
        fig.tight_layout()
        return _svg(fig)


@dataclass(frozen=True)
class LadderSection:
    """What a ladder of skill adds at the top of the report: its table (a column per
    rung), a small chart per metric, and which rung the page details below."""

    table: Table
    plots: list[str]
    detailed: str


def ladder_section(data: dict[str, Any]) -> LadderSection:
    names = [st["rung"] for st in data["ladder"]]
    plots = [
        rung_plot(
            r["label"],
            names,
            [r["rungs"][n]["value"] for n in names],
            [r["rungs"][n]["ci"] for n in names],
            r["verdict"],
        )
        for r in data["skill"].values()
    ]
    return LadderSection(ladder_rows(data), plots, names[-1])


def write_ladder_report(
    request: Any,
    ladder: Sequence[tuple[Any, Any]],
    data: dict[str, Any],
    out: Path,
    stage: Staging | None = None,
) -> Path:
    """`OUT/<game>/report.html` of a ladder: the ladder's table and charts, then the
    strongest rung's run in detail; through `stage` when given (to land with the
    gallery)."""
    from pnp.runtime.atomic import write_text

    _, sim = ladder[-1]
    html = render_report(sim.summary, sim.acc, sim.title, sim.options, ladder=ladder_section(data))
    if stage is not None:
        return stage.write_text(f"{request.game}/report.html", html)
    return write_text(out / request.game / "report.html", html, root=out)


def render_report(
    summary: dict[str, Any],
    acc: Accumulator,
    title: str,
    options: dict[str, Any],
    extra: tuple[str, ...] = (),
    sweep: SweepSection | None = None,
    ladder: LadderSection | None = None,
) -> str:
    """The page; `extra` holds further inline SVG plots a game adds; a sweep's reading,
    plots and table come first (`pnp.sim.sweep_report`), then the first setting's run."""
    m = summary["metrics"]
    counters = {k: v for k, v in m.items() if isinstance(v, dict) and "total" in v}
    known = {"advantage_p1", "balance", "completion", "timeouts", "drawishness"}
    known |= {"lead_changes", "leader_at_midgame_wins"}
    ratios = {
        k: v
        for k, v in m.items()
        if (v is None or isinstance(v, float)) and k not in known and not is_interval_key(k)
    }
    d = m["duration_turns"]
    shown = [k for k in counters if not always_zero(acc.counter_hist.get(k, {}))]
    html = render(
        "report.html.j2",
        title=title,
        s=summary,
        m=summary["metrics"],
        options=options,
        counters=counters,
        ratios=ratios,
        sweep=sweep,
        ladder=ladder,
        players=players_said(summary),
        pm=plus_minus,
        mean_pm=mean_pm,
        params={k: said(v) for k, v in summary.get("params", {}).items()},
        answers=plain_summary(summary),
        plots={
            "length": length_histogram(acc, d["mean"], d.get("ci")),
            "seats": (
                seat_wins(m["win_rate_by_seat"], m.get("win_rate_by_seat_ci"))
                if "win_rate_by_seat" in m
                else ""
            ),
            "ends": end_reasons(summary["end_reasons"], summary.get("end_reasons_ci")),
            "extra": [counter_histogram(k, acc.counter_hist.get(k, {})) for k in shown]
            + list(extra),
        },
    )
    return re.sub(r"[ \t]+\n", "\n", html)
