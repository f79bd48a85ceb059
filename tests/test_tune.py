"""`pnp tune`: bad requests are one line; the toy game's best parameters, known in closed
form (tests/tune_toy.py), are found within the budget and shown on fresh seeds; the answer
is the same for a seed; where targets conflict the closest settings come with their
misses and the Pareto front; a degenerate setting is never recommended."""

from __future__ import annotations

import json
import os
import signal
import time

import procs
import pytest
from cli_run import one_error_line, run
from tune_toy import GAME as ONES
from tune_toy import mean_turns, seat_gap

from pnp.games import registered
from pnp.sim.metrics import Accumulator
from pnp.tune import plan_tune, run_tune
from pnp.tune.measure import games_to_decide, verdict
from pnp.tune.measure import seat_gap as measured_gap
from pnp.tune.targets import Target

pytest.importorskip("optuna")


@pytest.fixture
def ones():
    with registered(ONES):
        yield


ED = ("tune", "exploding-dice", "--players", "3", "--budget", "1000games", "--progress", "none")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--target", "length in 1..3"), "reports no metric 'length'"),
        (("--target", "turns in 5..3"), "the range 5..3 is empty"),
        (("--target", "turns between 5 and 9"), "is not a target"),
        (("--target", "completion >= 1.5"), "a share of games, from 0 to 1"),
        (("--target", "turns in 5..9", "--target", "turns <= 7"), "names turns twice"),
        (("--target", "turns in 5..9", "--over", "die_size"), "rules do not read 'die_size'"),
        (("--target", "turns in 5..9", "--over", "colours"), "holds a list or a table"),
        (("--target", "turns in 5..9", "--over", "sides"), "has no config key 'sides'"),
        (("--target", "turns in 5..9", "--over", "dice_per_colour=0..9"), "must be from 1 to 64"),
        (("--target", "turns in 5..9", "--over", "n=4..99"), "'n' must be from 2 to 16"),
        (("--target", "turns in 5..9", "--over", "arrows=all,spiral"), "must be one of all"),
        (("--target", "turns in 5..9", "--over", "n=8..4"), "the range is empty"),
        (("--target", "turns in 5..9", "--over", "players"), "not with --players"),
        (("--target", "turns in 5..9", "--budget", "20 minutes"), "is not a budget"),
        (("--target", "turns in 5..9", "--budget", "5games"), "from 200 to"),
        (("--target", "turns in 5..9", "--budget", "0s"), "from 1 second"),
        ((), "give at least one --target"),
    ],
)
def test_a_bad_request_is_one_error_line(capsys, args, said):
    code, out, err = run(capsys, *ED, *args)
    assert code == 2, err
    assert said in one_error_line(err)
    assert out == ""


def test_a_cooperative_game_has_no_seat_gap(capsys):
    code, _, err = run(capsys, "tune", "building-community", "--target", "seat_gap <= 0.1")
    assert code == 2
    assert "cooperative" in one_error_line(err)


def test_the_seat_gap_interval_holds_the_gap_between_best_and_worst_seat():
    """Hand-worked: 3 seats over 300 games winning 120, 100, 80: gap 40/300; the interval
    is [highest low end - lowest high end, highest high end - lowest low end] of Wilson
    intervals at 1 - 0.05/3 each."""
    acc = Accumulator(3)
    acc.games = 300
    acc.seat_wins = [120 * acc.unit, 100 * acc.unit, 80 * acc.unit]
    value, ci = measured_gap(acc)
    assert value == pytest.approx(40 / 300, abs=1e-4)
    assert ci[0] < value < ci[1]
    # z = 2.394 (the 1 - 0.05/6 quantile): seat 1 in 0.3348-0.4690, seat 3 in 0.2103-0.3317
    assert ci == pytest.approx([0.3348 - 0.3317, 0.4690 - 0.2103], abs=2e-4)


def test_a_target_is_met_only_when_its_whole_interval_is_inside():
    t = Target("turns in 18..25", "turns", 18, 25)
    assert verdict(t, (20.0, [19.0, 21.0])) == "met"
    assert verdict(t, (18.5, [17.9, 19.1])) == "undecided"
    assert verdict(t, (30.0, [27.0, 33.0])) == "missed"
    assert verdict(t, (None, None)) == "undecided"
    # an interval that narrows as 1/sqrt(n): 4x the games halve it
    assert games_to_decide(t, (18.5, [17.5, 19.5]), 100) == 401


@pytest.mark.slow
def test_the_toy_games_best_parameters_are_found_and_shown(ones):
    """Mean length sides/hits in 9.5..10.5: only 10/1, 20/2, 30/3 and 29/3 lie strictly
    inside (out of 180 settings); the answer must be one of them, met on fresh seeds."""
    setup, dims, budget = plan_tune("ones", ["turns in 9.5..10.5"], ["sides,hits"],
                                    budget="30000games", seed=3)  # fmt: skip
    tuned = run_tune(setup, dims, budget, check_kits=False)
    answer = tuned.json
    assert answer["answer"] == "meets every target"
    sides, hits = answer["best"]["sides"], answer["best"]["hits"]
    assert 9.5 < mean_turns(sides, hits) < 10.5
    (target,) = answer["recommended"][0]["targets"]
    assert target["verdict"] == "met"
    lo, hi = target["ci"]
    assert lo <= mean_turns(sides, hits) <= hi  # the evidence covers the truth
    assert answer["games"]["total"] <= 30000
    assert answer["games"]["evidence"] > 0
    replay = (
        f"pnp simulate ones --config FILE --games {answer['recommended'][0]['games']} "
        f"--seed {answer['evidence_seed']} --bot random"
    )
    assert tuned.config == (
        "# pnp tune ones: meets every target\n#   target: turns in 9.5..10.5\n"
        f"# its evidence again: {replay}\nsides = {sides}\nhits = {hits}\n"
    )
    again = run_tune(*plan_tune("ones", ["turns in 9.5..10.5"], ["sides,hits"],
                                budget="30000games", seed=3), check_kits=False)  # fmt: skip
    assert json.dumps(again.json) == json.dumps(answer)  # a seed gives the same answer


@pytest.mark.slow
def test_conflicting_targets_give_the_closest_with_misses_and_a_front(ones):
    """Short games need a high p, and a high p favours seat 1 (gap p/(2-p)): at most 3
    turns means a gap of at least 0.2, so no setting can meet both."""
    setup, dims, budget = plan_tune(
        "ones", ["turns <= 3", "seat_gap <= 0.1"], ["sides=2..12", "hits=1..3"],
        budget="8000games", seed=5,
    )  # fmt: skip
    answer = run_tune(setup, dims, budget, check_kits=False).json
    assert answer["answer"].startswith("closest")
    best = answer["recommended"][0]
    assert not best["meets_every_target"]
    assert any(t["verdict"] != "met" for t in best["targets"])
    assert any(t["missed_by"] > 0 for t in best["targets"])
    for rec in answer["recommended"]:  # the search's lucky estimates do not survive
        s = rec["setting"]
        truly = s["sides"] / s["hits"] <= 3 and seat_gap(s["sides"], s["hits"]) <= 0.1
        assert not truly and not rec["meets_every_target"]
    assert answer["pareto"]


def test_a_ctrl_c_as_a_rounds_last_games_end_stops_the_tune(ones, monkeypatch):
    """Ctrl-C that lands as a round's games all finish cuts no game, so no result says
    "interrupted": the tune must still stop after that round, not play on to the end."""
    from pnp.runtime import interrupt

    setup, dims, budget = plan_tune("ones", ["turns in 9.5..10.5"], ["sides,hits"],
                                    budget="100000games")  # fmt: skip
    monkeypatch.setattr(interrupt._state, "signum", signal.SIGINT)  # the signal was noted
    tuned = run_tune(setup, dims, budget, check_kits=False)
    assert tuned.stopped == "interrupted"
    assert len({t.batch for t in tuned.found.trials}) == 1  # one round, then the stop


def test_the_pareto_front_keeps_the_trade_offs():
    """Misses (turns, gap) of four trials: (0, 2) and (1, 0) trade off, (1, 2) is beaten by
    both, (0, 3) by (0, 2)."""
    from pnp.tune.answer import front_of

    assert front_of({0: [0, 2], 1: [1, 0], 2: [1, 2], 3: [0, 3]}) == [0, 1]


@pytest.mark.slow
def test_a_degenerate_setting_is_never_recommended():
    """Exploding Dice with one die per colour, or a 2 x 2 grid, ends every game before a
    turn: 0 turns sits inside 'turns <= 5', yet no such setting may be the answer."""
    setup, dims, budget = plan_tune(
        "exploding-dice", ["turns <= 5"], ["dice_per_colour=1..3", "n=2..4:2"], players=3,
        budget="3000games",
    )  # fmt: skip
    answer = run_tune(setup, dims, budget, check_kits=False).json
    degenerate = [t for t in answer["trials"] if t.get("degenerate")]
    assert degenerate and "no game lasted a turn" in degenerate[0]["degenerate"]
    for rec in answer["recommended"]:
        s = rec["setting"]
        assert s["dice_per_colour"] > 1 and s["n"] > 2
        assert "degenerate" not in rec
    assert not answer["best"] or answer["best"]["dice_per_colour"] > 1


@pytest.mark.slow
@pytest.mark.skipif(not procs.needs_proc, reason="Linux")
def test_ctrl_c_stops_a_tune_cleanly_and_writes_what_was_found(tmp_path):
    """Ctrl-C (to the whole group, as a terminal sends it) while the workers play: exit
    130, one line saying what is kept, and the JSON and config of the best so far."""
    answer, best = tmp_path / "tune.json", tmp_path / "best.toml"
    proc = procs.start(
        "tune", "exploding-dice", "--players", "3", "--target", "turns in 18..25",
        "--over", "dice_per_colour", "--over", "n=4..8:2", "--budget", "10m", "--jobs", "2",
        "--progress", "none", "--json", str(answer), "--save-config", str(best),
    )  # fmt: skip
    try:
        procs.until(lambda: len(procs.children(proc.pid)) >= 2, proc=proc,
                    waiting_for="the workers to start")  # fmt: skip
        time.sleep(0.5)
        os.killpg(proc.pid, signal.SIGINT)
        code, out, err = procs.finish(proc)
    finally:
        procs.kill_group(proc)
    assert code == 130, err
    assert "Traceback" not in err
    assert [ln for ln in err.splitlines() if ln.startswith("interrupted: ")], err
    data = json.loads(answer.read_text())
    assert data["stopped"] == "interrupted"
    assert data["trials"] and data["games"]["total"] > 0
    if data["best"]:  # a round had finished: the best so far, as a config too
        assert best.read_text().startswith("# pnp tune exploding-dice")
