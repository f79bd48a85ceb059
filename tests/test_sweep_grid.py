"""Sweep grids: `--sweep` given once per key, ranges, checks before play, the JSON of each
setting against a single run of it, the grid's report, progress and Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import signal

import pytest
from cli_run import one_error_line, run

import pnp.runtime.progress
import pnp.sim.command
from pnp.contract.gamedef import rule_keys
from pnp.games import get_game
from pnp.runtime.errors import PnpError
from pnp.sim.command import Request, run_all, write_run_report
from pnp.sim.grid import MAX_SETTINGS, parse_axis, parse_grid, sweep_keys

ED = ("simulate", "exploding-dice")


@pytest.fixture(autouse=True)
def wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("NO_COLOR", "1")


@pytest.mark.parametrize(
    "text, values",
    [
        ("radius=2..5", [2, 3, 4, 5]),
        ("board_height=250..600:50", [250, 300, 350, 400, 450, 500, 550, 600]),
        ("h=250..420:50", [250, 300, 350, 400]),  # the stop is not hit: not included
        ("s=0.5..1.5:0.25", [0.5, 0.75, 1.0, 1.25, 1.5]),
        ("s=0.1..0.3:0.1", [0.1, 0.2, 0.3]),  # exact decimal steps land on the stop
        ("n=-2..1", [-2, -1, 0, 1]),
        ("n=2..4,8", [2, 3, 4, 8]),
        ("x=4", [4]),
        ("arrows=all,none", ["all", "none"]),
        ("k=1.5,2", [1.5, 2]),
    ],
)
def test_a_value_list_reads_ranges_and_scalars(text, values):
    key, got = parse_axis(text)
    assert key == text.partition("=")[0] and got == values
    assert [type(v) for v in got] == [type(v) for v in values]


@pytest.mark.parametrize(
    "texts, needle",
    [
        (["n=4,6", "n=8"], "--sweep n is given twice"),
        (["n="], "--sweep takes KEY=V1,V2,... or KEY=A..B[:STEP], got 'n='"),
        (["n= , ,"], "--sweep takes KEY=V1,V2"),
        (["=1,2"], "--sweep takes KEY=V1,V2"),
        (["n=1..5:0"], "--sweep n=1..5:0: the step must be above 0"),
        (["n=1..5:-1"], "the step must be above 0"),
        (["n=5..1"], "--sweep n=5..1: the range runs from 5 up to a stop below it"),
        (["n=1..51"], "51 values, at most 50 for one key"),
        (["n=1..40,41..60"], "at most 50 values of a key, n has more"),
        (["n=2,3,2"], "--sweep n: the value 2 is given twice"),
        (["a=1..15", "b=1..15"], f"15 x 15 = 225 settings, at most {MAX_SETTINGS}"),
    ],
)
def test_a_bad_grid_is_one_line(texts, needle):
    with pytest.raises(PnpError) as exc:
        parse_grid(texts)
    assert needle in str(exc.value) and "\n" not in str(exc.value)


def test_the_settings_are_the_product_with_the_first_key_outermost():
    grid = parse_grid(["a=1..2", "b=x,y,z"])
    assert grid.keys == ("a", "b") and len(grid) == 6
    assert grid.settings() == [
        {"a": a, "b": b} for a, b in [(1, "x"), (1, "y"), (1, "z"), (2, "x"), (2, "y"), (2, "z")]
    ]


@pytest.fixture
def played(monkeypatch):
    """Every `run_jobs` call the command makes, with the jobs it was given."""
    calls: list[list] = []
    real = pnp.sim.command.run_jobs

    def spy(jobs, *args, **kwargs):
        calls.append(list(jobs))
        return real(jobs, *args, **kwargs)

    monkeypatch.setattr(pnp.sim.command, "run_jobs", spy)
    return calls


def test_a_bad_setting_in_the_middle_of_a_grid_plays_nothing(capsys, played, monkeypatch):
    monkeypatch.setattr(pnp.runtime.progress, "EVERY", 0)  # a progress line at every chunk, if any
    # n = 18 (on the step, past the range) is the second of six settings: the first is
    # fine, and still not played
    args = ("--sweep", "dice_per_colour=2..4", "--sweep", "n=4,18", "--progress", "plain")
    code, out, err = run(capsys, *ED, "--games", "500", "--jobs", "1", *args)
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert line.startswith("error: dice_per_colour = 2, n = 18: ") and "in steps of 2" in line
    assert played == []  # no game was played, and no progress line was written


def test_players_is_swept_or_given_never_both(capsys, played):
    args = ("--players", "3", "--sweep", "players=2,4", "--games", "10", "--jobs", "1")
    code, _, err = run(capsys, *ED, *args)
    assert code == 2 and "--sweep players sets the player count" in one_error_line(err)
    assert played == []


@pytest.mark.parametrize(
    "slug, key",
    [
        ("exploding-dice", "die_size"),  # a kit size: the dice roll the same
        ("exploding-dice", "margin"),  # a print setting never reaches the rules
        ("parcheesi", "board_size"),
        ("desert-home", "blade_length"),
    ],
)
def test_a_sweep_of_a_key_the_rules_do_not_read_is_refused_before_play(capsys, played, slug, key):
    """Such a sweep would play the same games at every value: one line naming what can be
    swept instead, and no game played."""
    code, out, err = run(capsys, "simulate", slug, "--games", "10", "--sweep", f"{key}=10,20")
    assert code == 2 and out == "" and played == []
    line = one_error_line(err)
    assert line.startswith(f"error: --sweep {key}: ") and f"rules do not read '{key}'" in line
    offered = line.rsplit("sweep one of ", 1)[1].split(", ")
    assert offered[0] == "players" and key not in offered
    game = get_game(slug)
    assert set(offered[1:]) <= set(rule_keys(game))


def test_the_sweep_keys_are_the_one_value_keys_the_rules_read():
    game = get_game("exploding-dice")
    assert rule_keys(game) == ("n", "colours", "dice_per_colour", "faces", "arrows", "stall")
    assert sweep_keys(game) == ("players", "n", "dice_per_colour", "arrows", "stall")


def test_a_grid_is_one_run_of_every_setting(capsys, played):
    code, out, _ = run(
        capsys,
        *ED,
        "--games",
        "40",
        "--jobs",
        "1",
        "--sweep",
        "dice_per_colour=2,3",
        "--sweep",
        "n=4,6",
        "--json",
        "-",
    )
    assert code == 0
    assert len(played) == 1 and len(played[0]) == 4  # one call, with all four settings
    assert len(json.loads(out)["runs"]) == 4


def _single(capsys, tmp_path, players: int, **config) -> dict:
    toml = tmp_path / "one.toml"
    toml.write_text("".join(f"{k} = {v}\n" for k, v in config.items()))
    args = ("--config", str(toml), "--players", str(players), "--games", "60", "--seed", "9")
    code, out, err = run(capsys, *ED, *args, "--jobs", "1", "--json", "-")
    assert code == 0, err
    return json.loads(out)


def test_each_setting_of_a_grid_is_what_a_single_run_of_it_writes(capsys, tmp_path):
    grid = ("--sweep", "dice_per_colour=2..3", "--sweep", "players=2,4", "--sweep", "n=4,6")
    code, out, err = run(
        capsys, *ED, "--games", "60", "--seed", "9", "--jobs", "2", *grid, "--json", "-"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["sweep"] == ["dice_per_colour", "players", "n"]
    assert len(data["runs"]) == 8
    means = set()
    for one in data["runs"]:
        values = one.pop("values")
        assert list(values) == data["sweep"]
        players = values.pop("players")
        assert one == _single(capsys, tmp_path, players, **values)
        assert one["players"] == players and one["params"]["n"] == values["n"]
        means.add(one["metrics"]["duration_turns"]["mean"])
    assert len(means) > 2  # the settings are different games


def test_a_one_key_sweep_keeps_its_json_shape_and_each_run_is_a_single_run(capsys, tmp_path):
    code, out, err = run(
        capsys,
        *ED,
        "--games",
        "60",
        "--seed",
        "9",
        "--jobs",
        "1",
        "--sweep",
        "n=4,6",
        "--json",
        "-",
    )
    assert code == 0, err
    data = json.loads(out)
    assert list(data) == ["sweep", "runs"] and data["sweep"] == "n"
    for one, n in zip(data["runs"], [4, 6], strict=True):
        assert list(one)[0] == "value" and one.pop("value") == n
        assert one == _single(capsys, tmp_path, 4, n=n)


@pytest.mark.slow
def test_a_two_key_report_has_a_heatmap_per_metric_and_the_reading_on_top(tmp_path):
    request = Request("exploding-dice", 120, None, "random", 3, 1, None, {})
    grid = parse_grid(["dice_per_colour=2..4", "n=4,6"])
    runs = run_all(request, grid)
    path = write_run_report(request, runs, tmp_path, grid)
    html = path.read_text()
    assert (
        write_run_report(request, runs, tmp_path / "again", grid).read_bytes() == path.read_bytes()
    )
    top = html.index("<h2>How do dice per colour and n change the game?</h2>")
    assert top < html.index("<h2>In short</h2>")  # the grid's reading comes first
    section = html[top : html.index("</table>", top)]
    reading = re.findall(r"<li>(.*?)</li>", section)
    # 120 games a setting: the seats' shares may or may not differ beyond their intervals
    balance = ("Closest to balanced: ", "Seat win shares do not differ between")
    assert reading[0].startswith(balance)
    assert reading[1].startswith("Shortest games: ")
    assert any("most common end" in line for line in reading)
    figures = re.findall(r"<figure>(.*?)</figure>", section, flags=re.S)
    titles = ["Turns per game (mean)", "Completion", "Seat 1 win share"]
    titles.append("Balance (1 = equal seats)")
    for title in titles:
        (figure,) = [f for f in figures if f">{title}</text>" in f]
        assert "<image" in figure  # a heatmap is an image of its cells
    assert all("<image" in f for f in figures) and len(figures) >= len(titles)
    (length,) = [f for f in figures if ">Turns per game (mean)</text>" in f]
    for _, sim in runs:  # each cell is annotated with its setting's figure
        assert f">{sim.summary['metrics']['duration_turns']['mean']:.1f}" in length
    assert len(re.findall(r"<tr><td class=\"num\">", section)) == 6  # a row per setting


@pytest.mark.slow  # draws the plots; the grid's report tables stay in the fast tier
def test_a_one_key_report_draws_a_line_per_metric(tmp_path):
    request = Request("exploding-dice", 120, None, "random", 3, 1, None, {})
    grid = parse_grid(["dice_per_colour=2..4"])
    html = write_run_report(request, run_all(request, grid), tmp_path, grid).read_text()
    top = html.index("<h2>How does dice per colour change the game?</h2>")
    figures = re.findall(r"<figure>(.*?)</figure>", html[top : html.index("</table>", top)], re.S)
    assert figures and not any("<image" in f for f in figures)
    assert any(">Turns per game (mean), 95 % band</text>" in f for f in figures)


def test_grid_progress_counts_settings_and_games_on_stderr_never_in_the_json(capsys, monkeypatch):
    monkeypatch.setattr(pnp.runtime.progress, "EVERY", 0)
    args = ("--games", "3000", "--jobs", "1", "--sweep", "n=4,6", "--progress", "plain")
    code, out, err = run(capsys, *ED, *args, "--json", "-")
    assert code == 0
    json.loads(out)  # nothing but the JSON on stdout
    lines = err.splitlines()
    assert lines and all(ln.startswith("exploding-dice: ") for ln in lines)
    assert "of 6,000 games (0 of 2 settings done, " in lines[0]
    assert any("(1 of 2 settings done, " in ln for ln in lines)
    assert all(re.search(r"\d games/s\)\u2026$", ln) for ln in lines)


def test_ctrl_c_in_a_grid_reports_the_settings_that_finished(capsys, monkeypatch, ctrl_c_raises):
    real = pnp.sim.command.run_jobs

    def ctrl_c_in_the_second_setting(jobs, workers, progress, *rest):
        def told(settings: int, games: int) -> None:
            if settings == 1 and games > jobs[0].games:  # a chunk of the second is in
                os.kill(os.getpid(), signal.SIGINT)
            if progress:
                progress(settings, games)

        return real(jobs, workers, told, *rest)

    monkeypatch.setattr(pnp.sim.command, "run_jobs", ctrl_c_in_the_second_setting)
    args = ("--games", "6000", "--jobs", "1", "--sweep", "dice_per_colour=2..4", "--json", "-")
    code, out, err = run(capsys, *ED, *args, "--progress", "none")
    assert code == 130
    runs = json.loads(out)["runs"]
    assert [r["value"] for r in runs] == [2, 3]  # the third setting never started
    assert runs[0]["games"] == 6000 and 0 < runs[1]["games"] < 6000
    assert err.splitlines() == [
        f"interrupted: 1 of 3 settings finished, and {runs[1]['games']} of 6000 games of "
        "dice_per_colour = 3; they are reported"
    ]


def _summary(mean: float, ends: dict[str, int], seats: list[float] | None = None, team=None):
    m: dict = {"duration_turns": {"mean": mean, "ci": [mean - 1, mean + 1]}}
    s: dict = {"games": sum(ends.values()), "end_reasons": ends, "metrics": m}
    if seats is not None:
        m["win_rate_by_seat"] = seats
    if team is not None:
        s["cooperative"] = True
        m["completion"], m["completion_ci"] = team, [max(0, team - 0.05), team + 0.05]
    return s


def test_the_reading_names_the_balanced_and_shortest_settings_and_where_ends_change():
    from pnp.sim.reading import reading

    cells = {  # (a, b): (mean turns, seat shares, most common end)
        (1, "x"): (30.0, [0.6, 0.4], "cap"),
        (1, "y"): (20.0, [0.52, 0.48], "cap"),
        (2, "x"): (12.0, [0.7, 0.3], "home"),
        (2, "y"): (25.0, [0.55, 0.45], "cap"),
    }
    runs = [
        ({"a": a, "b": b}, _summary(mean, {end: 60, "other": 40}, seats))
        for (a, b), (mean, seats, end) in cells.items()
    ]
    lines = reading(["a", "b"], runs, 4)
    assert lines[0].startswith("Closest to balanced: a = 1, b = y, where the seats win 0.480")
    assert "the widest gap is at a = 2, b = x: 0.300 to 0.700" in lines[0]
    assert lines[1].startswith("Shortest games: a = 2, b = x, 12.0 ± 1.0 turns")
    assert "longest: a = 1, b = x, 30.0 ± 1.0 turns" in lines[1]
    assert lines[2:] == [
        "The most common end changes from 'cap' to 'home' between a = 1 and 2 (at b = x).",
        "The most common end changes from 'home' to 'cap' between b = x and y (at a = 2).",
    ]
    stopped = reading(["a", "b"], runs[:3], 4)[-1]
    assert stopped.startswith("The run was stopped: 3 of 4 settings were played")


def test_a_cooperative_reading_names_the_highest_team_win_rate_and_the_ties():
    from pnp.sim.reading import reading

    runs = [
        ({"r": r}, _summary(10.0 + r, {"stuck": 50}, team=t))
        for r, t in [(2, 0.3), (3, 0.0), (4, 0.0)]
    ]
    first = reading(["r"], runs, 3)[0]
    assert first.startswith("The team wins most at r = 2: 0.300 ± 0.050")
    assert "least at r = 3 (and 1 other settings): 0.000 (0.000-0.050)" in first


def _with_intervals(mean: float, seats: list[float], half: float) -> dict:
    """A competitive setting's summary whose figures carry intervals `half` wide each way."""
    s = _summary(mean, {"home": 90, "cap": 10}, seats)
    s["metrics"]["duration_turns"]["ci"] = [mean - half, mean + half]
    s["metrics"]["win_rate_by_seat_ci"] = [[x - half, x + half] for x in seats]
    return s


def test_settings_within_each_others_intervals_are_not_ranked():
    """Shares 0.48-0.52 and lengths 20-21 turns, every interval +-0.05 / +-1 wide: no
    setting is named closest to balanced, widest or shortest."""
    from pnp.sim.reading import reading

    runs = [
        ({"k": 1}, _with_intervals(20.0, [0.52, 0.48], 1.0)),
        ({"k": 2}, _with_intervals(21.0, [0.49, 0.51], 1.0)),
        ({"k": 3}, _with_intervals(20.5, [0.50, 0.50], 1.0)),
    ]
    lines = reading(["k"], runs, 3)
    text = " ".join(lines)
    assert "Closest to balanced" not in text and "widest gap" not in text
    assert "Shortest games" not in text
    assert lines[0] == (
        "Seat win shares do not differ between the settings beyond their 95 % intervals "
        "(every seat wins 0.480 to 0.520 of the games in every setting), so none is closer "
        "to balanced than another."
    )
    assert lines[1] == (
        "Game length does not differ between the settings beyond its 95 % intervals "
        "(20.0 to 21.0 turns on average), so none plays shorter than another."
    )


def test_one_setting_apart_from_another_is_ranked_again():
    """The same three settings, the second now 0.70/0.30 with narrow intervals: it is the
    widest gap, and the others are ranked against it."""
    from pnp.sim.reading import reading

    runs = [
        ({"k": 1}, _with_intervals(20.0, [0.52, 0.48], 0.02)),
        ({"k": 2}, _with_intervals(30.0, [0.70, 0.30], 0.02)),
        ({"k": 3}, _with_intervals(20.5, [0.50, 0.50], 0.02)),
    ]
    lines = reading(["k"], runs, 3)
    assert lines[0].startswith("Closest to balanced: k = 3, where the seats win 0.500 to 0.500")
    assert "the widest gap is at k = 2: 0.300 to 0.700" in lines[0]
    assert lines[1].startswith("Shortest games: k = 1")


def test_a_cooperative_team_rate_within_its_intervals_is_not_ranked():
    from pnp.sim.reading import reading

    runs = [({"r": r}, _summary(10.0 * r, {"stuck": 50}, team=t)) for r, t in [(1, 0.3), (2, 0.32)]]
    first = reading(["r"], runs, 2)[0]
    assert first == (
        "The team win rate does not differ between the settings beyond its 95 % intervals "
        "(0.300 to 0.320), so none is easier than another."
    )


def test_settings_that_played_the_same_games_say_so_and_nothing_else():
    """A key the rules read may still change nothing at these values: every setting's
    figures are the same, and the reading says so instead of ranking ties."""
    from pnp.sim.reading import reading

    same = _with_intervals(20.0, [0.6, 0.4], 0.01)
    runs = [({"k": k}, {**same, "params": {"k": k}}) for k in (1, 2, 3)]
    lines = reading(["k"], runs, 3)
    assert lines == [
        "All 3 settings played the very same games, to the last figure: the swept values do "
        "not change the play."
    ]


def test_a_range_of_a_stepped_key_goes_by_its_declared_step(capsys):
    """`n` is declared from 2 to 16 in steps of 2 (pnp params): a range without a step
    takes it, a step of several of its steps is kept."""
    code, out, _ = run(capsys, *ED, "--sweep", "n=2..16", "--games", "4", "--jobs", "1",
                       "--json", "-", "--progress", "none")  # fmt: skip
    assert code == 0
    assert [r["value"] for r in json.loads(out)["runs"]] == [2, 4, 6, 8, 10, 12, 14, 16]
    game = get_game("exploding-dice")
    assert parse_grid(["n=4..12:4"], game).values == ((4, 8, 12),)
    assert parse_grid(["n=4,8"], game).values == ((4, 8),)
    assert parse_grid(["n=3..5"]).values == ((3, 4, 5),)  # no game: no declared steps


@pytest.mark.parametrize(
    "text, needle",
    [
        ("n=2..16:3", "a step of 3 lands off its values: 'n' goes in steps of 2 from 2"),
        ("n=2..16:1", "a step of 1 lands off its values"),
        ("n=3..9", "the range starts at 3, not one of its values: 'n' goes in steps of 2"),
        ("n=4,5", "--sweep n: 5 is not one of its values: 'n' goes in steps of 2 from 2"),
        ("n=4..8,9", "9 is not one of its values"),
        ("n=4,inf", "inf is not one of its values"),
        ("n=2..16:" + "2" * 399 + "3", "a step of 222222222222... (400 characters) lands off"),
        ("n=4," + "2" * 399 + "3", "is not one of its values: 'n' goes in steps of 2"),
    ],
)
def test_a_step_or_value_off_a_keys_declared_step_is_one_error_line(capsys, played, text, needle):
    code, out, err = run(capsys, *ED, "--sweep", text, "--games", "4", "--jobs", "1")
    assert code == 2 and out == ""
    assert needle in one_error_line(err)
    assert played == []


def test_the_studios_sweep_goes_by_the_declared_step():
    """The studio's one swept key reads its values through the same code."""
    from pnp.sim.command import parse_sweep

    assert parse_sweep("n=2..8", "exploding-dice") == ("n", [2, 4, 6, 8])
    with pytest.raises(PnpError, match="'n' goes in steps of 2 from 2"):
        parse_sweep("n=2..8:3", "exploding-dice")
