"""A sweep's part of the HTML report: the designer's reading (`pnp.sim.reading`), one plot
per metric against the swept keys, and the table of the settings.

One key: the metric as a line over the key's values with its 95 % interval as a band. Two
keys: a heatmap per metric, each cell annotated. More keys: small multiples, one heatmap of
the first two keys per combination of the others, on one colour scale. Drawn like the rest
of the report (`pnp.sim.report`: SVG canvas, fixed metadata and hash salt), so the page is
byte-identical for the same results.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import matplotlib
from matplotlib.figure import Figure

from pnp.sim.grid import Grid, label
from pnp.sim.reading import Setting, reading
from pnp.sim.report import INK, RC, _svg
from pnp.sim.tables import Table, grid_rows
from pnp.sim.verdicts import plus_minus

if TYPE_CHECKING:
    from pnp.sim.command import Runs

Summary = Mapping[str, Any]
PANELS_PER_ROW = 4
MAX_TICKS = 12  # a line plot names every value up to this many


@dataclass(frozen=True)
class Metric:
    """A figure every setting has: how to read it and its interval from a summary."""

    key: str
    name: str
    value: Callable[[Summary], float | None]
    interval: Callable[[Summary], list[float] | None]
    digits: int = 3


@dataclass(frozen=True)
class SweepSection:
    title: str
    reading: list[str]
    plots: list[str]
    table: Table
    first: str  # the setting shown in detail below the sweep


def _none(s: Summary) -> None:
    return None


def _metric(key: str, name: str) -> Metric:
    return Metric(
        key, name, lambda s: s["metrics"].get(key), lambda s: s["metrics"].get(f"{key}_ci")
    )


def _counter(key: str) -> Metric:
    """A counter the game declares (captures, passes): its mean per game."""
    name = f"{key.replace('_', ' ')} per game (mean)"
    return Metric(
        key, name, lambda s: s["metrics"][key]["mean"], lambda s: s["metrics"][key].get("ci"), 2
    )


def metrics(summaries: Sequence[Summary]) -> list[Metric]:
    """The metrics worth a plot for these settings: length, completion, seat 1's share and
    balance (competitive games), draws and timeouts where any happened, and each counter
    the game declares that counted something."""
    first = summaries[0]
    out = [
        Metric(
            "duration_turns",
            "turns per game (mean)",
            lambda s: s["metrics"]["duration_turns"]["mean"],
            lambda s: s["metrics"]["duration_turns"].get("ci"),
            1,
        ),
        _metric("completion", "team win rate" if first.get("cooperative") else "completion"),
    ]
    if "advantage_p1" in first["metrics"]:
        out.append(_metric("advantage_p1", "seat 1 win share"))
        balance = Metric(
            "balance", "balance (1 = equal seats)", lambda s: s["metrics"]["balance"], _none
        )
        out.append(balance)
    for key, name in (("drawishness", "drawishness"), ("timeouts", "timeouts (turn cap)")):
        if any(s["metrics"].get(key) for s in summaries):
            out.append(_metric(key, name))
    for key, value in first["metrics"].items():
        if isinstance(value, dict) and "total" in value:
            if any(s["metrics"][key]["total"] for s in summaries):
                out.append(_counter(key))
    return out


def sweep_section(grid: Grid, runs: Runs) -> SweepSection:
    """The reading, the plots and the table of a sweep's settings (those that finished)."""
    settings = [(s, sim.summary) for s, sim in runs if sim.summary["games"]]
    summaries = [s for _, s in settings]
    keys = list(grid.keys)
    plots = []
    for metric in metrics(summaries) if summaries else []:
        if len(keys) == 1:
            plots.append(line_plot(keys[0], grid.values[0], settings, metric))
        else:
            plots.append(heatmaps(grid, settings, metric))
    names = " and ".join(k.replace("_", " ") for k in keys)
    return SweepSection(
        title=f"How do{'es' if len(keys) == 1 else ''} {names} change the game?",
        reading=reading(keys, [(s, sim.summary) for s, sim in runs], len(grid)),
        plots=plots,
        table=grid_rows(keys, [([s[k] for k in keys], sim.summary) for s, sim in runs]),
        first=label(runs[0][0]),
    )


def _numeric(values: Sequence[Any]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def line_plot(key: str, values: Sequence[Any], settings: Sequence[Setting], metric: Metric) -> str:
    """The metric over one key's values, its 95 % interval as a band (numbers on a true
    scale, words evenly spaced)."""
    numeric = _numeric(values)
    where = {v: (v if numeric else i) for i, v in enumerate(values)}
    xs, ys, lows, highs = [], [], [], []
    for setting, s in settings:
        y = metric.value(s)
        if y is None:
            continue
        ci = metric.interval(s)
        xs.append(where[setting[key]])
        ys.append(y)
        lows.append(ci[0] if ci else y)
        highs.append(ci[1] if ci else y)
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=(4.6, 2.8))
        ax = fig.add_subplot()
        if any(lo != hi for lo, hi in zip(lows, highs, strict=True)):
            ax.fill_between(xs, lows, highs, color=INK, alpha=0.2, linewidth=0)
        ax.plot(xs, ys, color=INK, marker="o", markersize=3.5, linewidth=1.4)
        if not numeric:
            ax.set_xticks(range(len(values)), [str(v) for v in values])
        elif len(values) <= MAX_TICKS:
            ax.set_xticks(list(values), [str(v) for v in values])
        ax.set_xlabel(key.replace("_", " "))
        ax.set_ylabel(metric.name)
        ax.set_title(f"{metric.name.capitalize()}, 95 % band")
        fig.tight_layout()
        return _svg(fig)


def heatmaps(grid: Grid, settings: Sequence[Setting], metric: Metric) -> str:
    """The metric over the first two keys, one annotated heatmap per combination of the
    other keys' values (one panel for a two-key grid), all on one colour scale."""
    rows_key, cols_key, *rest = grid.keys
    rows, cols = grid.values[0], grid.values[1]
    found = {tuple(v[k] for k in grid.keys): metric.value(s) for v, s in settings}
    spans = {tuple(v[k] for k in grid.keys): metric.interval(s) for v, s in settings}
    panels: list[tuple[Any, ...]] = [()]
    for values in grid.values[2:]:
        panels = [(*p, v) for p in panels for v in values]
    cells = {p: [[found.get((r, c, *p)) for c in cols] for r in rows] for p in panels}
    intervals = {p: [[spans.get((r, c, *p)) for c in cols] for r in rows] for p in panels}
    known = [x for grid_ in cells.values() for row in grid_ for x in row if x is not None]
    lo, hi = (min(known), max(known)) if known else (0.0, 1.0)
    across = min(PANELS_PER_ROW, len(panels))
    down = -(-len(panels) // across)
    cell_w, cell_h = 0.62 + 0.08 * metric.digits, 0.5
    width = across * (1.0 + cell_w * len(cols)) + 1.2
    height = down * (0.9 + cell_h * len(rows)) + 0.3
    with matplotlib.rc_context(RC):
        fig = Figure(figsize=(max(4.6, width), max(2.8, height)), layout="constrained")
        axes = fig.subplots(down, across, squeeze=False)
        image = None
        for n, p in enumerate(panels):
            ax = axes[n // across][n % across]
            data = [[math.nan if x is None else x for x in row] for row in cells[p]]
            image = ax.imshow(data, cmap="viridis", vmin=lo, vmax=hi, origin="lower", aspect="auto")
            for i, row in enumerate(cells[p]):
                for j, x in enumerate(row):
                    if x is not None:
                        shade = (x - lo) / (hi - lo) if hi > lo else 0.5
                        ink = "black" if shade > 0.55 else "white"
                        ci = intervals[p][i][j]
                        shown = plus_minus(x, ci, metric.digits)  # lopsided: (lo-hi)
                        text = shown.replace(" \u00b1 ", "\n\u00b1").replace(" (", "\n(")
                        ax.text(j, i, text, ha="center", va="center", fontsize=7, color=ink)
            ax.set_xticks(range(len(cols)), [str(c) for c in cols])
            ax.set_yticks(range(len(rows)), [str(r) for r in rows])
            ax.set_xlabel(cols_key.replace("_", " "))
            ax.set_ylabel(rows_key.replace("_", " "))
            ax.spines[:].set_visible(False)
            if rest:
                ax.set_title(label(dict(zip(rest, p, strict=True))), fontsize=8)
        for n in range(len(panels), down * across):
            axes[n // across][n % across].set_visible(False)
        if image is not None:
            fig.colorbar(image, ax=axes, shrink=0.9, label=metric.name)
        fig.suptitle(metric.name.capitalize())
        return _svg(fig)
