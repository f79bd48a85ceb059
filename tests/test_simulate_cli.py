"""`pnp simulate` end to end: JSON shape, jobs-independence, report, config, bad input."""

from __future__ import annotations

import json

import pytest
from cli_run import one_error_line, pnp, run

from pnp.runtime.errors import PnpError
from pnp.sim.command import cap_warning, run_simulation

KEYS = ["game", "players", "bot", "games", "seed", "metrics", "end_reasons"]
KEYS += ["end_reasons_ci", "fairness", "params"]  # today's keys, then the intervals' keys


class Ran:
    """What `pnp ARGV` did, run in this process (a real process costs a Python start-up)."""

    def __init__(self, capsys, *argv: str) -> None:
        self.returncode, self.stdout, self.stderr = run(capsys, *argv)


@pytest.fixture
def simulate(capsys, monkeypatch):
    """`pnp simulate exploding-dice ARGS` in this process, as wide as a real run's table."""
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("NO_COLOR", "1")
    return lambda *args: Ran(capsys, "simulate", "exploding-dice", *args)


def test_json_to_stdout_is_the_agreed_object_and_nothing_else():
    """In a real process: nothing but the JSON object reaches stdout."""
    r = pnp(
        "simulate",
        "exploding-dice",
        "--games",
        "80",
        "--players",
        "3",
        "--seed",
        "4",
        "--jobs",
        "1",
        "--json",
        "-",
    )
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)  # fails if a table were printed too
    assert list(data) == KEYS
    assert data["game"] == "exploding-dice" and data["players"] == 3 and data["games"] == 80
    assert data["bot"] == "random" and data["seed"] == 4
    assert sum(data["end_reasons"].values()) == 80
    assert len(data["metrics"]["win_rate_by_seat"]) == 3
    assert abs(sum(data["metrics"]["win_rate_by_seat"]) - 1) < 1e-3


def test_the_same_seed_gives_the_same_json_for_any_number_of_jobs(simulate):
    one = simulate("--games", "600", "--jobs", "1", "--json", "-")
    two = simulate("--games", "600", "--jobs", "2", "--json", "-")
    assert one.returncode == two.returncode == 0
    assert one.stdout == two.stdout


def test_json_file_report_and_table(simulate, tmp_path):
    out = tmp_path / "out"
    r = simulate(
        "--games",
        "100",
        "--jobs",
        "1",
        "--players",
        "2",
        "--two-colours",
        "--json",
        str(tmp_path / "r.json"),
        "--report",
        "--out",
        str(out),
    )
    assert r.returncode == 0, r.stderr
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["games"] == 100 and data["players"] == 2
    assert "turns (mean / median)" in r.stdout  # the readable table
    report = out / "exploding-dice" / "report.html"
    html = report.read_text()
    assert html.count("<svg") == 3 and "two colours each" in html
    assert not list(report.parent.glob(".*.tmp"))  # written atomically


def test_greedy_bot_runs():
    data = run_simulation("exploding-dice", games=20, players=2, bot="greedy").summary
    assert data["bot"] == "greedy" and data["games"] == 20


def test_custom_faces_from_a_config_are_what_gets_simulated(tmp_path):
    # Only ones and sixes: neighbours match far more often, so dice explode sooner.
    cfg = tmp_path / "faces.toml"
    cfg.write_text(
        "[faces]\n"
        + "".join(f"{c} = [1, 1, 1, 6, 6, 6]\n" for c in ("red", "green", "blue", "purple"))
    )
    custom = run_simulation("exploding-dice", games=300, config=cfg)
    plain = run_simulation("exploding-dice", games=300)
    assert custom.summary["metrics"] != plain.summary["metrics"]
    assert custom.options == {"config": "faces.toml"}
    # with only 1s and 6s, a placed die touches an equal number far more often
    assert (
        custom.summary["metrics"]["duration_turns"]["mean"]
        != plain.summary["metrics"]["duration_turns"]["mean"]
    )


@pytest.mark.parametrize(
    "args, needle",
    [
        (["--games", "0"], "--games must be between 1 and 10,000,000"),
        (["--games", "-5"], "--games must be between 1 and 10,000,000"),
        (["--players", "5"], "takes 2 to 4 players, got 5"),
        (["--players", "1"], "takes 2 to 4 players, got 1"),
        (["--bot", "clever"], "unknown bot 'clever'"),
        (["--players", "3", "--two-colours"], "two-colours-each variant is for 2 players"),
    ],
)
def test_bad_options_are_one_clear_line(simulate, args, needle):
    r = simulate(*args, "--jobs", "1")
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr + r.stdout
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], r.stderr


def test_unknown_game_is_one_clear_line(capsys):
    r = Ran(capsys, "simulate", "chess", "--games", "10")
    assert r.returncode == 2 and "unknown game 'chess'" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize(
    "toml, needle",
    [
        ("dice_per_colour = 0\n", "'dice_per_colour' must be from 1 to 64"),
        ("[faces]\nred = [2, 3, 4, 5, 6, 6]\n", "red die cannot show 1"),
        # per-die faces where the start die (the first) has no 1
        (
            "[faces]\nred = [[2, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6], [1, 1, 1, 1, 1, 1],"
            " [1, 2, 3, 4, 5, 6]]\n",
            "first red die cannot show 1",
        ),
    ],
)
def test_a_config_whose_dice_cannot_start_the_game_is_refused(tmp_path, toml, needle):
    cfg = tmp_path / "bad.toml"
    cfg.write_text(toml)
    with pytest.raises(PnpError, match=needle):
        run_simulation("exploding-dice", games=10, config=cfg)


def test_a_bad_config_through_the_cli_is_exit_2(simulate, tmp_path):
    cfg = tmp_path / "bad.toml"
    cfg.write_text("dice_per_colour = 0\n")
    r = simulate("--config", str(cfg), "--games", "10")
    assert r.returncode == 2 and r.stderr.startswith("error: ")
    assert "Traceback" not in r.stderr


@pytest.mark.slow  # a second or more: the fast tier stays under a minute
def test_a_sweep_runs_once_per_value_and_the_report_plots_it(simulate, tmp_path):
    r = simulate(
        "--games",
        "150",
        "--jobs",
        "1",
        "--sweep",
        "dice_per_colour=2,4",
        "--report",
        "--out",
        str(tmp_path),
        "--json",
        str(tmp_path / "s.json"),
    )
    assert r.returncode == 0, r.stderr
    data = json.loads((tmp_path / "s.json").read_text())
    assert data["sweep"] == "dice_per_colour" and [run["value"] for run in data["runs"]] == [2, 4]
    means = [run["metrics"]["duration_turns"]["mean"] for run in data["runs"]]
    assert means[0] != means[1]  # fewer dice per colour is a different game
    html = (tmp_path / "exploding-dice" / "report.html").read_text()
    assert "How does dice per colour change the game?" in html
    # the run's three, and the sweep's line per metric: length, completion, seat 1's share,
    # balance and draws (some games of the seed were drawn)
    assert html.count("<svg") == 8 and "Drawishness, 95 % band" in html


@pytest.mark.parametrize(
    "sweep, needle",
    [
        ("nokey", "--sweep takes KEY=V1,V2"),
        ("bogus=1,2", "unknown key 'bogus'"),
        ("n=0,4", "'n' must be from 2 to 16"),
        ("die_size=10,12", "rules do not read 'die_size' (it changes the printed kit only)"),
    ],
)
def test_a_bad_sweep_is_one_clear_line(simulate, sweep, needle):
    r = simulate("--games", "10", "--jobs", "1", "--sweep", sweep)
    assert r.returncode == 2 and needle in r.stderr and "Traceback" not in r.stderr


def test_the_json_records_the_effective_kit_parameters(simulate, tmp_path):
    cfg = tmp_path / "kit.toml"
    cfg.write_text('die_size = 12\ncolours = ["red", "green", "blue", "black"]\n')
    r = simulate("--games", "20", "--jobs", "1", "--config", str(cfg), "--json", "-")
    assert r.returncode == 0, r.stderr
    params = json.loads(r.stdout)["params"]
    assert params["die_size"] == 12.0 and params["colours"] == ["red", "green", "blue", "black"]
    assert params["dice_per_colour"] == 4  # a default the file did not set is there too
    r = simulate("--games", "20", "--jobs", "1", "--sweep", "dice_per_colour=2,3", "--json", "-")
    runs = json.loads(r.stdout)["runs"]
    assert [run["params"]["dice_per_colour"] for run in runs] == [2, 3]


def _ends(capped: int, games: int = 100) -> dict:
    return {"games": games, "end_reasons": {"home": games - capped, "timeout": capped}}


def test_the_cap_warning_starts_above_five_percent():
    assert cap_warning(_ends(5)) is None
    line = cap_warning(_ends(6))
    assert line is not None and "6.0 % of the games (6 of 100)" in line and "'timeout'" in line
    assert cap_warning({"games": 10, "end_reasons": {"home": 10}}) is None


def test_simulate_warns_when_the_random_bot_mostly_hits_the_cap(capsys):
    r = Ran(capsys, "simulate", "home-in-one-piece", "--games", "40", "--jobs", "1", "--json", "-")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    capped = data["end_reasons"].get("timeout", 0)
    assert capped > 0.05 * 40  # the random bot rarely brings its dough home
    warnings = [ln for ln in r.stderr.splitlines() if ln.startswith("warning: ")]
    assert len(warnings) == 1 and f"({capped} of 40)" in warnings[0]
    greedy = Ran(
        capsys,
        "simulate",
        "home-in-one-piece",
        "--games",
        "40",
        "--jobs",
        "1",
        "--bot",
        "greedy",
        "--json",
        "-",
    )
    assert (
        greedy.returncode == 0 and json.loads(greedy.stdout)["end_reasons"].get("timeout", 0) <= 2
    )
    assert "warning:" not in greedy.stderr


def test_simulate_says_plainly_when_no_game_lasted_a_turn(capsys, tmp_path):
    """One die per colour: every game ends at the first draw (0 turns, all "drawn"); the
    JSON and a warning say the setting is degenerate, and why, in the game's words."""
    cfg = tmp_path / "one.toml"
    cfg.write_text("dice_per_colour = 1\n")
    args = ("simulate", "exploding-dice", "--players", "3", "--games", "30", "--jobs", "1")
    r = Ran(capsys, *args, "--config", str(cfg), "--json", "-")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["metrics"]["duration_turns"]["mean"] == 0.0
    assert data["degenerate"].startswith("no game lasted a turn")
    assert "reserve is empty" in data["degenerate"]
    (warning,) = [ln for ln in r.stderr.splitlines() if ln.startswith("warning: ")]
    assert "degenerate setting" in warning
    plain = Ran(capsys, *args, "--json", "-")  # a game that lasts: no such key, no warning
    assert "degenerate" not in json.loads(plain.stdout) and "warning:" not in plain.stderr


def test_solve_checks_the_player_count_as_simulate_does():
    from pnp.sim.solve import run_solve

    with pytest.raises(PnpError, match=r"takes \d+ to \d+ players, got 9"):
        run_solve("building-community", players=9, budget=10)


def test_an_implementation_the_game_does_not_have_is_one_error_line(capsys, monkeypatch):
    monkeypatch.setenv("PNP_IMPLEMENTATION", "kernal")
    code, out, err = run(capsys, "simulate", "parcheesi", "--games", "2")
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert "PNP_IMPLEMENTATION=kernal" in line and "readable, kernel" in line


def test_the_readable_implementation_plays_the_same_games_as_the_default(capsys, monkeypatch):
    """`PNP_IMPLEMENTATION=readable` (no kernel at all) gives the very same JSON."""
    args = ("simulate", "desert-home", "--games", "4", "--seed", "2", "--json", "-")
    code, default, _ = run(capsys, *args, "--progress", "none")
    monkeypatch.setenv("PNP_IMPLEMENTATION", "readable")
    again, readable, err = run(capsys, *args, "--progress", "none")
    assert code == again == 0 and readable == default and json.loads(readable)["games"] == 4
    assert "compiled kernel" not in err  # a choice, not a missing compiler
