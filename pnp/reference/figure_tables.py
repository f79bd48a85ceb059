"""The tables of docs/' figure blocks, made from pnp commands' JSON: each renderer takes
the JSON of a figure's commands, in order, and gives the markdown between its markers.
They format with the same helpers `pnp simulate` prints with (`pnp.sim.tables`,
`pnp.sim.verdicts`), so a page reads as the terminal does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pnp.sim.tables import ladder_rows, short_verdict
from pnp.sim.verdicts import mean_pm, plus_minus

Json = Any
Renderer = Callable[[list[Json]], str]


def one(render: Callable[[Json], str]) -> Renderer:
    """A renderer of one command's JSON, for a figure of one command."""
    return lambda datas: render(datas[0])


# --- small formatting helpers ------------------------------------------------------------


def _int(n: float) -> str:
    return f"{n:,.0f}"


def _interval(value: float, ci: list[float] | None, digits: int = 3) -> str:
    if not ci:
        return f"{value:.{digits}f}"
    return f"{value:.{digits}f} [{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def _table(header: list[str], rows: Iterable[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _ends(reasons: Mapping[str, int]) -> str:
    return ", ".join(f"{k} {_int(v)}" for k, v in sorted(reasons.items()) if v)


# --- the renderers -----------------------------------------------------------------------


def _counters(m: Mapping[str, Any], counters: Iterable[str]) -> list[str]:
    return [mean_pm(m[c], 2) for c in counters]


# A counter whose name does not read as "... a game".
_COUNTED = {"duration_rounds": "rounds (mean)"}


def sweep_table(data: Json, counters: tuple[str, ...] = (), edge: bool = False) -> str:
    """`pnp simulate --sweep ... --json`: a row per setting, a column per swept key (and per
    counter asked for, its mean a game; with `edge`, the first-player verdict)."""
    keys = data["sweep"] if isinstance(data["sweep"], list) else [data["sweep"]]
    rows = []
    for run in data["runs"]:
        values = run["values"] if "values" in run else {keys[0]: run["value"]}
        m = run["metrics"]
        turns = m["duration_turns"]
        rows.append(
            [str(values[k]) for k in keys]
            + [
                mean_pm(turns),
                plus_minus(m["advantage_p1"], m.get("advantage_p1_ci"), 3),
                *_counters(m, counters),
                _ends(run["end_reasons"]),
                *([edge_column(run)] if edge else []),
            ]
        )
    header = [k.replace("_", " ") for k in keys] + ["turns (mean)", "seat 1 wins"]
    header += [_COUNTED.get(c, f"{c.replace('_', ' ')} a game") for c in counters] + ["ends"]
    header += ["first-player advantage?"] if edge else []
    return _table(header, rows)


def sweep_with(*counters: str, edge: bool = True) -> Renderer:
    """A sweep table with a column for each of these counters (deaths, captures, ...) and
    the first-player verdict."""
    return one(lambda data: sweep_table(data, counters, edge))


# The rows of a ladder every game page shows: length, the team's wins or whether games end,
# and seat 1's share (the first-seat edge); a page adds its own counters.
LADDER_ROWS = ("duration_turns", "completion", "seat_1", "first_player_advantage")


def ladder_table(counters: tuple[str, ...] = ()) -> Renderer:
    """`pnp simulate --ladder --json`: the table `pnp simulate` prints (a row per designer
    metric, a column per rung, the skill verdict last), cut to the rows a page answers with
    (`LADDER_ROWS` and `counters`), who played each rung under it."""
    keep = (*LADDER_ROWS, *counters)

    def render(datas: list[Json]) -> str:
        t = ladder_rows(datas[0])
        rows = [row for key, row in zip(t.keys, t.rows, strict=True) if key in keep]
        return _table(t.columns, rows) + "\n\n" + t.caption

    return render


# A column of a table made of several runs: its header and the cell of one run's JSON.
Column = tuple[str, Callable[[Json], str]]


def _said(data: Json, key: str) -> str:
    """How a run was set up, one key: players, bot, an option or a parameter."""
    if key in ("players", "bot"):
        return str(data[key])
    if key in (data.get("options") or {}):
        return "yes" if data["options"][key] is True else str(data["options"][key])
    return str(data["params"].get(key, "no"))


def turns_column(data: Json) -> str:
    d = data["metrics"]["duration_turns"]
    return f"{mean_pm(d)} ({d['median']:.0f}, {d['p5']:.0f}–{d['p95']:.0f})"


def ends_column(data: Json) -> str:
    """Each way a game ended, its share of the games with its interval."""
    n, cis = max(1, data["games"]), data.get("end_reasons_ci", {})
    return ", ".join(
        f"{reason} {plus_minus(100 * k / n, [100 * x for x in cis.get(reason, [])], 1, ' %')}"
        for reason, k in data["end_reasons"].items()
        if k
    )


def seats_column(data: Json) -> str:
    m = data["metrics"]
    return " / ".join(
        plus_minus(r, ci)
        for r, ci in zip(m["win_rate_by_seat"], m["win_rate_by_seat_ci"], strict=True)
    )


def edge_column(data: Json) -> str:
    return short_verdict((data.get("fairness") or {}).get("first_player_advantage"))


def counter(key: str, label: str | None = None) -> Column:
    """A counter's mean a game (captures, deaths, ...)."""
    return (label or f"{key.replace('_', ' ')} a game", lambda d: mean_pm(d["metrics"][key]))


def share(key: str, label: str, digits: int = 3) -> Column:
    """A share or mean the metrics give with its interval (`KEY` and `KEY_ci`)."""
    return (
        label,
        lambda d: plus_minus(d["metrics"][key], d["metrics"].get(f"{key}_ci"), digits),
    )


TURNS: Column = ("turns: mean (median, p5–p95)", turns_column)
ENDS: Column = ("ends", ends_column)
SEATS: Column = ("seat win shares", seats_column)
EDGE: Column = ("first-player advantage?", edge_column)


def faces_column(data: Json) -> str:
    """Exploding Dice's faces: `standard 1–6`, one list when every colour shares it, or
    each colour's."""
    faces = data["params"]["faces"]
    if not faces:
        return "standard 1–6"
    said = {c: " · ".join(",".join(map(str, f)) for f in sets) for c, sets in faces.items()}
    if len(set(said.values())) == 1:
        return next(iter(said.values()))
    return " · ".join(f"{c} {f}" for c, f in said.items())


def colours_column(data: Json) -> str:
    m = data["metrics"]
    rates, cis = m["win_rate_by_colour"], m["win_rate_by_colour_ci"]
    return " · ".join(f"{c} {plus_minus(r, cis.get(c))}" for c, r in rates.items())


def bots_side_by_side(datas: list[Json]) -> str:
    """Sweeps of one key, one per player count and bot: a row per swept value and player
    count, a column per bot with the share of games won (a team's wins) and the turns."""
    key = datas[0]["sweep"]
    cells: dict[tuple[Any, int], dict[str, str]] = {}
    bots: list[str] = []
    for data in datas:
        for run in data["runs"]:
            m = run["metrics"]
            won = plus_minus(100 * m["completion"], [100 * x for x in m["completion_ci"]], 1, " %")
            cells.setdefault((run["value"], run["players"]), {})[run["bot"]] = (
                f"{won} / {mean_pm(m['duration_turns'])}"
            )
            bots += [run["bot"]] if run["bot"] not in bots else []
    header = [key.replace("_", " "), "players"] + [f"{b}: wins / turns" for b in bots]
    rows = [[str(v), str(p)] + [c.get(b, "") for b in bots] for (v, p), c in sorted(cells.items())]
    return _table(header, rows)


def runs_table(setup: tuple[str, ...], columns: tuple[Column, ...]) -> Renderer:
    """A row per command (one run each): how it was set up (`setup`'s keys), then `columns`."""

    def render(datas: list[Json]) -> str:
        header = [k.replace("_", " ") for k in setup] + [h for h, _ in columns]
        rows = [[_said(d, k) for k in setup] + [cell(d) for _, cell in columns] for d in datas]
        return _table(header, rows)

    return render


# Metrics read as counts a game (one decimal); the rest are shares (three).
_MEAN_METRICS = frozenset({"turns", "lead_changes"})


def _setting(setting: Mapping[str, Any]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in setting.items())


def tune_table(data: Json) -> str:
    """`pnp tune --json`: each recommended setting in order, every target's value with its
    interval and verdict, then the answer and the games it took."""
    metrics = [t["metric"] for t in data["targets"]]
    header = ["setting"] + [f"`{t['target']}`" for t in data["targets"]] + ["fresh games"]
    rows = []
    for rec in data["recommended"]:
        cells = [_setting(rec["setting"])]
        for metric, t in zip(metrics, rec["targets"], strict=True):
            digits = 1 if metric in _MEAN_METRICS else 3
            cells.append(f"{_interval(t['value'], t['ci'], digits)} {t['verdict']}")
        rows.append(cells + [_int(rec["games"])])
    games = data["games"]
    answer = (
        f"Answer: **{data['answer']}**"
        + (f" with `{_setting(data['best'])}`" if data.get("best") else "")
        + f"; {_int(games['search'])} games of search, {_int(games['evidence'])} of evidence."
    )
    tied = data.get("ties")
    if tied:
        answer += (
            f" The first {len(tied['settings'])} cannot be told apart at this budget"
            f" (about {_int(tied['games_to_separate'])} games would separate them)."
        )
    return _table(header, rows) + "\n\n" + answer
