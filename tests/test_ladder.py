"""`pnp simulate --ladder`: a ladder of skill, its verdict rule on hand-made intervals, and
the command end to end on a few games."""

from __future__ import annotations

import json
import re

import pytest
from cli_run import one_error_line, run

from pnp.sim.ladder import DEPENDS, DIFFERS, HOLDS, OPEN, SAME, verdict

RUNGS = ["random", "greedy", "mcts"]


@pytest.mark.parametrize(
    ("cis", "values", "expected"),
    [
        ([[1.0, 2.0], [1.5, 2.5], [1.8, 3.0]], (), HOLDS),  # one point (1.8-2.0) in all
        ([[1.0, 2.0], [1.5, 2.5], [2.6, 3.0]], (), DEPENDS),  # greedy ends below mcts starts
        ([[5.0, 6.0], [1.5, 2.5], [2.0, 3.0]], (), DIFFERS),  # random alone apart
        ([[1.0, 2.0], [1.5, 2.5], None], (), OPEN),  # the mcts rung has no interval
        ([[5.0, 6.0], [1.0, 2.0], None], (), OPEN),
        ([None, None, None], (20.0, 20.0, 20.0), SAME),
        ([None, None, None], (20.0, 21.0, 20.0), OPEN),
        ([[1.0, 2.0], [2.0, 3.0], [3.0, 4.0]], (), DIFFERS),  # touching ends do overlap
    ],
)
def test_the_verdict_rule_on_hand_made_intervals(cis, values, expected):
    assert verdict(RUNGS, cis, values) == expected


def test_a_second_mcts_budget_apart_from_greedy_is_enough():
    names = ["random", "greedy", "mcts", "mcts 400"]
    cis = [[0.0, 1.0], [0.0, 1.0], [0.5, 1.5], [2.0, 3.0]]
    assert verdict(names, cis) == DEPENDS


def test_without_a_greedy_rung_the_strongest_naive_one_is_compared():
    assert verdict(["random", "mcts"], [[0.0, 1.0], [2.0, 3.0]]) == DEPENDS


@pytest.fixture
def simulate(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("NO_COLOR", "1")
    return lambda *args: run(capsys, "simulate", "exploding-dice", *args)


FEW = ("--games", "12", "--ladder-games", "5", "--bot-budget", "8", "--jobs", "1")


def test_ladder_json_reads_every_rung_and_says_who_played(simulate):
    code, out, _ = simulate("--ladder", *FEW, "--players", "2", "--json", "-")
    assert code == 0
    data = json.loads(out)
    steps = data["ladder"]
    assert [s["rung"] for s in steps] == RUNGS
    assert [s["games"] for s in steps] == [12, 12, 5]
    for step in steps:
        assert step["seats"] == [step["rung"]] * 2 == [step["bot"]] * 2
        assert "fairness" in step and "bot_shares" not in step  # one bot in every seat
    assert steps[2]["bot_budget"] == 8 and "8 playouts" in steps[2]["players_said"]
    assert {"duration_turns", "completion", "seat_1", "seat_2"} <= set(data["skill"])
    for key, reading in data["skill"].items():
        cis = []
        for step in steps:
            one = reading["rungs"][step["rung"]]
            m = step["metrics"]
            if key == "duration_turns":
                assert one == {"value": m[key]["mean"], "ci": m[key]["ci"]}
            elif key.startswith("seat_"):
                seat = int(key[5:]) - 1
                assert one["value"] == m["win_rate_by_seat"][seat]
                assert one["ci"] == m["win_rate_by_seat_ci"][seat]
            cis.append(one["ci"])
        greedy, mcts = cis[1], cis[2]
        if greedy and mcts and (greedy[1] < mcts[0] or mcts[1] < greedy[0]):
            assert reading["verdict"] == DEPENDS, key
        elif all(cis) and max(c[0] for c in cis) <= min(c[1] for c in cis):
            assert reading["verdict"] == HOLDS, key
    # 5 decided games are too few for a seat test: no p-value is given
    assert steps[2]["fairness"]["seat_1"]["p_value"] is None
    assert data["first_player_advantage"]["mcts"].startswith("too few games")


@pytest.mark.slow
def test_ladder_table_and_report(simulate, tmp_path):
    code, out, err = simulate("--ladder", *FEW, "--report", "--out", str(tmp_path))
    assert code == 0, err
    assert "ladder of skill" in out and "every seat mcts (8 playouts a decision)" in out
    assert re.search(r"(depends on skill|holds on every rung|differs between rungs)", out)
    html = (tmp_path / "exploding-dice" / "report.html").read_text()
    assert "A ladder of skill" in html and "every seat mcts" in html
    section = html[html.index("A ladder of skill") : html.index("In short")]
    # a chart for each metric the table reads (length, completion, 4 seats, the counters)
    rows = section.count("<tr>") - 2  # less the header and the first-player row
    assert section.count("<svg") == rows
    again = tmp_path / "again"
    assert simulate("--ladder", *FEW, "--report", "--out", str(again))[0] == 0
    assert (again / "exploding-dice" / "report.html").read_text() == html  # byte for byte


def test_a_ladder_twice_gives_the_same_json(simulate):
    first = simulate("--ladder", *FEW, "--json", "-")[1]
    assert simulate("--ladder", *FEW, "--json", "-")[1] == first


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--bots", "random,random,random,random"), "--ladder chooses the seats"),
        (("--ladder-games", "0"), "--ladder-games must be at least 1"),
        (("--ladder-budget", "0"), "--bot-budget must be 1 to"),
        (("--sweep", "dice_per_colour=2,3"), "--ladder chooses the seats"),
    ],
)
def test_bad_ladder_requests_are_one_error_line(simulate, args, said):
    code, out, err = simulate("--ladder", "--games", "4", *args)
    assert code == 2 and out == ""
    assert said in one_error_line(err)
