"""The HTML simulation report: the run's numbers plus three plots, in one file.

Plots are drawn with matplotlib's object API on the SVG canvas (no pyplot, no GUI
backend) and inlined as SVG; fixed metadata and a fixed hash salt make the file
byte-identical for the same results.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import TYPE_CHECKING

import matplotlib

matplotlib.use("Agg")  # never a GUI backend, whatever the environment says

from matplotlib.backends.backend_svg import FigureCanvasSVG  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from pnp.atomic import write_text  # noqa: E402
from pnp.sim.metrics import Accumulator  # noqa: E402
from pnp.templating import render  # noqa: E402

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

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


def _histogram(ax, hist: dict[int, int]) -> None:
    starts, heights, width = bins(hist)
    if width == 1:  # a bar centred on each value
        ax.bar(starts, heights, width=0.9, color=INK)
    else:  # bin [start, start + width) drawn edge to edge
        ax.bar(
            starts, heights, width=width, align="edge", color=INK, edgecolor="white", linewidth=0.3
        )


def length_histogram(acc: Accumulator) -> str:
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=(6, 2.8))
        ax = fig.add_subplot()
        _histogram(ax, acc.turns)
        ax.set_xlabel("turns per game")
        ax.set_ylabel("games")
        ax.set_title("Game length")
        fig.tight_layout()
        return _svg(fig)


def seat_wins(rates: list[float]) -> str:
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=(4, 2.8))
        ax = fig.add_subplot()
        seats = [f"seat {i + 1}" for i in range(len(rates))]
        ax.bar(seats, rates, color=INK)
        if rates:
            ax.axhline(1 / len(rates), color=ACCENT, linestyle="--", linewidth=1)
        ax.set_ylabel("win share")
        ax.set_title("Win rate by seat (dashed: fair share)")
        fig.tight_layout()
        return _svg(fig)


def end_reasons(ends: dict[str, int]) -> str:
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=(4, 2.8))
        ax = fig.add_subplot()
        names = list(ends)
        bars = ax.barh(names, [ends[n] for n in names], color=INK)
        ax.bar_label(bars, padding=2)
        ax.margins(x=0.15)
        ax.set_xlabel("games")
        ax.set_title("End reasons")
        fig.tight_layout()
        return _svg(fig)


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


def sweep_plot(key: str, runs: list) -> str:
    """Mean game length (with the 5th-95th percentile band) for each swept value."""
    labels = [str(v) for v, _ in runs]
    means = [sim.summary["metrics"]["duration_turns"]["mean"] for _, sim in runs]
    lows = [sim.summary["metrics"]["duration_turns"]["p5"] for _, sim in runs]
    highs = [sim.summary["metrics"]["duration_turns"]["p95"] for _, sim in runs]
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=(6, 2.8))
        ax = fig.add_subplot()
        xs = list(range(len(runs)))
        ax.fill_between(xs, lows, highs, color=INK, alpha=0.15, linewidth=0)
        ax.plot(xs, means, color=INK, marker="o")
        ax.set_xticks(xs, labels)
        ax.set_xlabel(key.replace("_", " "))
        ax.set_ylabel("turns per game")
        ax.set_title("Game length against " + key.replace("_", " ") + " (band: p5-p95)")
        fig.tight_layout()
        return _svg(fig)


def render_report(
    summary: dict,
    acc: Accumulator,
    title: str,
    options: dict,
    extra: tuple[str, ...] = (),
    sweep: dict | None = None,
) -> str:
    """The page; `extra` holds further inline SVG plots a game or a sweep adds."""
    m = summary["metrics"]
    counters = {k: v for k, v in m.items() if isinstance(v, dict) and "total" in v}
    known = {"advantage_p1", "balance", "completion", "timeouts", "drawishness"}
    known |= {"lead_changes", "leader_at_midgame_wins"}
    ratios = {k: v for k, v in m.items() if isinstance(v, float) and k not in known}
    html = render(
        "report.html.j2",
        title=title,
        s=summary,
        m=summary["metrics"],
        options=options,
        counters=counters,
        ratios=ratios,
        sweep=sweep,
        plots={
            "length": length_histogram(acc),
            "seats": seat_wins(m["win_rate_by_seat"]) if "win_rate_by_seat" in m else "",
            "ends": end_reasons(summary["end_reasons"]),
            "extra": [counter_histogram(k, acc.counter_hist.get(k, {})) for k in counters]
            + list(extra),
        },
    )
    return re.sub(r"[ \t]+\n", "\n", html)


def write_report(
    summary: dict,
    acc: Accumulator,
    path: Path,
    title: str,
    options: dict | None = None,
    extra: tuple[str, ...] = (),
    root: Path | None = None,
    sweep: dict | None = None,
) -> Path:
    """Write the report atomically to `path` (never through a link below `root`)."""
    html = render_report(summary, acc, title, options or {}, extra, sweep)
    return write_text(path, html, root=root)
