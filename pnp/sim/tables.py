"""The readable tables of a run, as rows of text: `pnp simulate` prints them with rich and
the studio shows them in the page, so both show the very same figures.

Every share and mean carries its 95 % interval (`plus_minus`), `n/a` where a metric does
not apply; each row names the metric it shows (its JSON key) so a page can find it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pnp.sim.verdicts import is_interval_key, mean_pm, plus_minus

INTERVAL_NOTE = "\u00b1: 95 % interval"


@dataclass(frozen=True)
class Table:
    """One table of a run's summary, as rows of text, for the terminal and the JSON."""

    title: str
    caption: str
    columns: list[str]
    rows: list[list[str]]
    keys: list[str]  # what each row shows: a metric's JSON key, `end:REASON`, `colour:NAME`

    def as_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "caption": self.caption,
            "columns": self.columns,
            "rows": self.rows,
            "keys": self.keys,
        }


def summary_rows(s: Mapping[str, Any]) -> Table:
    """One run's summary: what the game's JSON holds, nothing fixed."""
    m = s["metrics"]
    d = m["duration_turns"]
    rows: list[list[str]] = []
    keys: list[str] = []

    def add(key: str, label: str, value: str) -> None:
        keys.append(key)
        rows.append([label, value])

    add(
        "duration_turns",
        "turns (mean / median)",
        f"{mean_pm(d)} / {d['median']:.1f}",
    )
    add("duration_range", "turns (p5 - p95)", f"{d['p5']:.0f} - {d['p95']:.0f}")
    cis = s.get("end_reasons_ci", {})
    for reason, count in s["end_reasons"].items():
        share = plus_minus(
            100 * count / max(1, s["games"]), [100 * x for x in cis.get(reason, [])], 1, " %"
        )
        add(f"end:{reason}", f"end: {reason}", f"{count}: {share}")
    for key, value in m.items():
        if key == "duration_turns" or is_interval_key(key):
            continue
        ci = m.get(f"{key}_ci")
        name = key.replace("_", " ")
        if value is not None and m.get(f"{key}_ci_method") == "n/a":
            add(key, name, f"{value:.3f} (interval n/a)")  # a mean of too few games
        elif value is None or isinstance(value, float):
            add(key, name, plus_minus(value, ci))
        elif isinstance(value, list):
            shown = [
                plus_minus(r, c) for r, c in zip(value, ci or [None] * len(value), strict=True)
            ]
            add(key, name, "  ".join(shown))
        elif key == "win_rate_by_colour":
            for colour, rate in value.items():
                add(
                    f"colour:{colour}",
                    f"win rate: {colour}",
                    plus_minus(rate, (ci or {}).get(colour)),
                )
        elif isinstance(value, dict) and "mean" in value:
            add(
                key,
                f"{name} / game (mean, p5 - p95)",
                f"{mean_pm(value, 2)}  ({value['p5']:.0f} - {value['p95']:.0f})",
            )
    for name, b in (s.get("bot_shares") or {}).items():
        by_seat = "  ".join("-" if x is None else f"{x:.3f}" for x in b["by_seat"])
        add(
            f"bot:{name}",
            f"win share: {name} (all seat orders; by seat)",
            f"{plus_minus(b['share'], b['ci'])} (fair {b['fair']:.3f}; {by_seat})",
        )
    fair = s.get("fairness")
    if fair:
        if fair.get("undecided"):
            decided = f"{fair['decided_games']:,} ({100 * fair['undecided']:.1f} % no winner)"
            add("decided_games", "decided games (the seat tests)", decided)
        add("first_player_advantage", "first-player advantage?", fair["first_player_advantage"])
        add("seats_differ", "seats differ?", fair["seats_differ"])
    return Table(
        title=f"{s['game']}: {s['games']} games, {s['players']} players, {players_said(s)}, "
        f"seed {s['seed']}",
        caption=" ".join(filter(None, [s.get("abstraction"), INTERVAL_NOTE + "."])),
        columns=["metric", "value"],
        rows=rows,
        keys=keys,
    )


def players_said(s: Mapping[str, Any]) -> str:
    """Who played the games behind a summary's figures, seat by seat: `every seat mcts
    (1,000 playouts a decision)`, or mixed seats in their order and how it turned."""
    budget = s.get("bot_budget")
    playouts = f" (mcts: {budget:,} playouts a decision)" if budget else ""
    if s.get("bots"):
        turned = ", every seat order in turn" if s.get("seat_order") == "rotated" else ""
        return f"seats {', '.join(s['bots'])}{turned}{playouts}"
    return f"every seat {s['bot']}{playouts}"


def sweep_rows(key: str, runs: list[tuple[Any, Mapping[str, Any]]]) -> Table:
    """The runs of a one-key sweep side by side, one row per value (`grid_rows`)."""
    return grid_rows([key], [([value], summary) for value, summary in runs])


def grid_rows(keys: list[str], runs: list[tuple[list[Any], Mapping[str, Any]]]) -> Table:
    """The settings of a sweep side by side, one row per setting and a column per swept
    key, each figure with its 95 % interval, so two settings differ when their intervals
    do not overlap."""
    seats = any("advantage_p1" in summary["metrics"] for _, summary in runs)
    columns = [*keys, "turns (mean)", "turns (p5 - p95)", "completion"]
    columns += (["seat 1 wins"] if seats else []) + ["ends"]
    rows = []
    for values, summary in runs:
        m = summary["metrics"]
        d = m["duration_turns"]
        row = [str(v) for v in values] + [
            mean_pm(d),
            f"{d['p5']:.0f} - {d['p95']:.0f}",
            plus_minus(m["completion"], m.get("completion_ci")),
        ]
        if seats:
            row.append(plus_minus(m.get("advantage_p1"), m.get("advantage_p1_ci")))
        row.append(", ".join(f"{e} {n}" for e, n in summary["end_reasons"].items()))
        rows.append(row)
    title = "sweep over " + " x ".join(keys)
    if runs:
        title += f", {players_said(runs[0][1])}"
    names = [", ".join(str(v) for v in values) for values, _ in runs]
    return Table(title, INTERVAL_NOTE, columns, rows, names)


def ladder_rows(data: Mapping[str, Any]) -> Table:
    """A ladder of skill (`pnp.sim.ladder.ladder_json`): a column per rung, a row per
    metric with its 95 % interval on each rung and its skill verdict; the caption names
    who played each rung."""
    steps = data["ladder"]
    columns = ["metric"] + [f"{st['rung']} ({st['games']:,} games)" for st in steps]
    columns.append("skill")
    rows: list[list[str]] = []
    keys: list[str] = []
    for key, r in data["skill"].items():
        cells = []
        for st in steps:
            one = r["rungs"][st["rung"]]
            share = key == "completion" or key.startswith("seat_")
            if share:
                cells.append(plus_minus(one["value"], one["ci"]))
            else:
                digits = 1 if key == "duration_turns" else 2
                cells.append(mean_pm({"mean": one["value"], "ci": one["ci"]}, digits))
        rows.append([r["label"], *cells, r["verdict"]])
        keys.append(key)
    if any(data["first_player_advantage"].values()):
        verdicts = [short_verdict(data["first_player_advantage"][st["rung"]]) for st in steps]
        rows.append(["first-player advantage?", *verdicts, ""])
        keys.append("first_player_advantage")
    who = "; ".join(f"{st['rung']}: {st['players_said']}" for st in steps)
    return Table(
        title=f"{data['game']}: ladder of skill, {data['players']} players, seed {data['seed']}",
        caption=f"{who}. {INTERVAL_NOTE}. {LADDER_NOTE}",
        columns=columns,
        rows=rows,
        keys=keys,
    )


def short_verdict(verdict: str | None) -> str:
    """A first-player verdict in a narrow column (a ladder's, a docs table's)."""
    if verdict is None:
        return "n/a"
    verdict = verdict.replace("no evidence at this sample size: ", "no evidence; ")
    head, sep, need = verdict.partition(", the test needs at least ")
    return f"{head} (needs {need})" if sep else verdict


LADDER_NOTE = (
    "depends on skill: the greedy and mcts intervals do not overlap; "
    "holds on every rung: all the intervals overlap."
)


def results_table(data: Mapping[str, Any]) -> Table:
    """The table of `pnp simulate --json`'s object: a ladder's, a sweep's or one run's."""
    if "ladder" in data:
        return ladder_rows(data)
    if isinstance(data.get("sweep"), list):
        keys = data["sweep"]
        return grid_rows(keys, [([r["values"][k] for k in keys], r) for r in data["runs"]])
    if "sweep" in data:
        return sweep_rows(data["sweep"], [(r["value"], r) for r in data["runs"]])
    return summary_rows(data)
