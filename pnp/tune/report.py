"""The tune's HTML report: the answer and its evidence, each target's value against each
varied key over every trial, the search's progress, the Pareto front where targets
conflict, and the table of trials.

Drawn as the simulation report is (`pnp.sim.report`: matplotlib's SVG canvas, fixed
metadata and hash salt), so the same answer gives the same page.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib
from matplotlib.figure import Figure

from pnp.draw.templating import render
from pnp.runtime.atomic import write_text
from pnp.sim.report import ACCENT, INK, RC, _svg

if TYPE_CHECKING:
    from pnp.tune import Tuned

BAND = "#009E73"  # the target's range
MAX_PAIRS = 3  # Pareto plots: the first pairs of targets


def _raced(answer: dict[str, Any]) -> list[dict[str, Any]]:
    return [t for t in answer["trials"] if t["status"] in ("raced", "behind") and "metrics" in t]


def _numeric(values: list[Any]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def _band(ax: Any, target: dict[str, Any], vertical: bool = False) -> None:
    lo, hi = target["lo"], target["hi"]
    span = ax.axvspan if vertical else ax.axhspan
    line = ax.axvline if vertical else ax.axhline
    if lo is not None and hi is not None:
        span(lo, hi, color=BAND, alpha=0.15, linewidth=0)
    for edge in (lo, hi):
        if edge is not None:
            line(edge, color=BAND, linewidth=1, linestyle="--")


def target_plot(answer: dict[str, Any], target: dict[str, Any]) -> str:
    """One target's value (95 % interval as a bar) against each varied key, a panel a
    key; the range shaded, the recommended settings in orange."""
    metric = target["metric"]
    keys = [d["key"] for d in answer["over"]]
    trials = [t for t in _raced(answer) if t["metrics"][metric]["value"] is not None]
    chosen = {r["trial"] for r in answer["recommended"]}
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=(min(12.0, 3.2 * len(keys) + 0.6), 2.8), layout="constrained")
        axes = fig.subplots(1, len(keys), squeeze=False)[0]
        for ax, key in zip(axes, keys, strict=True):
            values = [t["setting"][key] for t in trials]
            numeric = _numeric(values)
            order = {v: i for i, v in enumerate(dict.fromkeys(sorted(map(str, values))))}
            for t in trials:
                x = t["setting"][key] if numeric else order[str(t["setting"][key])]
                m = t["metrics"][metric]
                ci = m["ci"] or [m["value"], m["value"]]
                if t.get("degenerate"):  # no game lasted a turn: never a candidate
                    ax.plot(x, m["value"], "x", color="#999999", markersize=4)
                    continue
                colour = ACCENT if t["number"] in chosen else INK
                ax.errorbar(
                    x, m["value"], yerr=[[m["value"] - ci[0]], [ci[1] - m["value"]]],
                    fmt="o", color=colour, markersize=3.5, elinewidth=0.8, alpha=0.8,
                )  # fmt: skip
            if not numeric:
                ax.set_xticks(list(order.values()), list(order))
            _band(ax, target)
            ax.set_xlabel(key.replace("_", " "))
            ax.set_ylabel(metric.replace("_", " "))
        fig.suptitle(
            f"{target['target']}: every trial (orange: recommended; bars: 95 %; x: degenerate)"
        )
        return _svg(fig)


def progress_plot(answer: dict[str, Any]) -> str:
    """Each trial's total score in the order it was proposed (below 0: every target met on
    the search's estimates), and the best so far."""
    trials = _raced(answer)
    xs = [t["number"] for t in trials]
    ys = [sum(t["scores"]) for t in trials]
    shown = [min(y, 10.0) for y in ys]  # a degenerate setting's score is off the chart
    best, low = [], math.inf
    for y in shown:
        low = min(low, y)
        best.append(low)
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=(6, 2.8))
        ax = fig.add_subplot()
        ax.scatter(xs, shown, s=10, color=INK, label="trial")
        ax.step(xs, best, where="post", color=ACCENT, linewidth=1.2, label="best so far")
        ax.axhline(0, color=BAND, linewidth=1, linestyle="--")
        ax.set_xlabel("trial")
        ax.set_ylabel("score (below 0: inside every range)")
        ax.set_title("The search (scores capped at 10)")
        ax.legend(frameon=False, loc="best")
        fig.tight_layout()
        return _svg(fig)


def pareto_plots(answer: dict[str, Any]) -> list[str]:
    """The trials on two targets at a time, the Pareto front (no trial closer to both)
    joined up: where the targets pull apart, the trade-offs to choose among."""
    targets = answer["targets"]
    front = set(answer.get("pareto", []))
    trials = _raced(answer)
    pairs = [(a, b) for i, a in enumerate(targets) for b in targets[i + 1 :]][:MAX_PAIRS]
    out = []
    for a, b in pairs:
        points = [
            (t["metrics"][a["metric"]]["value"], t["metrics"][b["metric"]]["value"], t["number"])
            for t in trials
            if t["metrics"][a["metric"]]["value"] is not None
            and t["metrics"][b["metric"]]["value"] is not None
            and not t.get("degenerate")
        ]
        with matplotlib.rc_context(RC):
            fig = Figure(figsize=(4.6, 3.4))
            ax = fig.add_subplot()
            ax.scatter(
                [p[0] for p in points],
                [p[1] for p in points],
                s=10,
                color=INK,
                alpha=0.6,
                label="trial",
            )
            edge = sorted((p for p in points if p[2] in front), key=lambda p: (p[0], p[1]))
            if edge:
                ax.plot(
                    [p[0] for p in edge],
                    [p[1] for p in edge],
                    "o-",
                    color=ACCENT,
                    markersize=4,
                    linewidth=1,
                    label="Pareto front",
                )
            _band(ax, a, vertical=True)
            _band(ax, b)
            ax.set_xlabel(a["target"])
            ax.set_ylabel(b["target"])
            ax.legend(frameon=False, loc="best")
            ax.set_title("Where the targets conflict")
            fig.tight_layout()
            out.append(_svg(fig))
    return out


def said(setting: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in setting.items())


def render_tune_report(tuned: Tuned) -> str:
    answer = tuned.json
    html = render(
        "tune_report.html.j2",
        a=answer,
        said=said,
        budget=", ".join(f"{v:,} {k}" for k, v in answer["budget"].items()),
        config=tuned.config,
        plots={
            "targets": [target_plot(answer, t) for t in answer["targets"]]
            if _raced(answer)
            else [],
            "progress": progress_plot(answer) if _raced(answer) else "",
            "pareto": pareto_plots(answer) if len(answer["targets"]) > 1 else [],
        },
        trials=_raced(answer),
    )
    return re.sub(r"[ \t]+\n", "\n", html)


def write_tune_report(tuned: Tuned, path: Path, root: Path | None = None) -> Path:
    """Write the report atomically to `path` (never through a link below `root`)."""
    return write_text(path, render_tune_report(tuned), root=root)
