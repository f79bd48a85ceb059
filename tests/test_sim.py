"""The simulation runner, the metrics and the HTML report."""

from __future__ import annotations

import re
import sys
import types

import pytest

from pnp.contract.gamedef import cutoffs
from pnp.contract.hooks import EngineHooks
from pnp.games.exploding_dice import engine
from pnp.games.exploding_dice.params import ExplodingDiceParams
from pnp.play.outcome import CUTOFF, GameRecord, Termination
from pnp.sim.metrics import Accumulator, duration, lead_changes, metrics, summary
from pnp.sim.report import render_report
from pnp.sim.runner import run
from pnp.sim.worker import game_seed, play_chunk

COLOURS = ("red", "green", "blue", "purple")


def rec(turns, winners, leaders=None, end="fifty", colours=(("red",), ("green",))):
    scores = tuple(10 if s in winners else 5 for s in range(len(colours)))
    return GameRecord(
        turns,
        end,
        scores,
        tuple(winners),
        colours,
        tuple(leaders) if leaders is not None else (-1,) * turns,
    )


# --- metrics from hand-made records -----------------------------------------------------


def test_lead_changes_ignore_ties_and_the_first_leader():
    assert lead_changes(()) == 0
    assert lead_changes((-1, 0, 0, -1, 0)) == 0  # a tie in between is not a change
    assert lead_changes((0, 1, -1, 1, 0, 2)) == 3
    assert lead_changes((-1, -1, 2)) == 0


def test_duration_uses_nearest_rank_percentiles_and_a_true_median():
    from collections import Counter

    hist = Counter({v: 1 for v in range(1, 21)})  # 1..20
    assert duration(hist) == {"mean": 10.5, "median": 10.5, "p5": 1.0, "p95": 19.0}
    hist[100] += 1  # 21 values: median is the 11th
    d = duration(hist)
    assert d["median"] == 11.0 and d["p95"] == 20.0 and d["mean"] == round(310 / 21, 3)


def test_metrics_split_shared_wins_and_count_seats_colours_and_the_midgame_leader():
    acc = Accumulator(2)
    # game 1: seat 0 (red) wins; leader after turn 2 (of 4) is seat 0
    acc.add(rec(4, [0], leaders=[-1, 0, 1, 0]))
    # game 2: shared win; mid-game (turn 3 of 6) leader is seat 1, one lead change
    acc.add(rec(6, [0, 1], leaders=[0, 0, 1, 1, 1, -1], colours=(("green",), ("red",))))
    # game 3: seat 1 wins after a timeout; no sole leader at mid-game
    acc.add(rec(2, [1], leaders=[-1, 1], end="timeout"))
    # game 4: seat 1 wins; 2 lead changes; mid-game (turn 2 of 3) leader seat 0 loses
    acc.add(rec(3, [1], leaders=[1, 0, 1], end="stalled"))
    m = metrics(acc, COLOURS, unfinished=("timeout", "stalled"))
    assert m["win_rate_by_seat"] == [0.375, 0.625]  # (1 + 0.5) / 4, (0.5 + 1 + 1) / 4
    assert m["advantage_p1"] == 0.375
    assert m["balance"] == 0.75
    assert m["completion"] == 0.5 and m["timeouts"] == 0.25
    assert m["drawishness"] == 0.25
    assert m["lead_changes"] == (2 + 1 + 0 + 2) / 4
    # mid-game leaders: game 1 seat 0 (won), game 2 seat 1 (shared: 0.5), game 4 seat 0
    # (lost); game 3 has a tie then
    assert m["leader_at_midgame_wins"] == 0.5
    # red: games 1 (won), 2 (shared), 3 (lost), 4 (lost) -> 1.5 / 4
    assert m["win_rate_by_colour"] == {"red": 0.375, "green": 0.625}
    assert m["duration_turns"]["mean"] == 3.75


class _Ends(Termination):
    WIN = "fifty"
    STUCK = "stuck", CUTOFF


def test_completion_and_the_cap_warning_leave_out_the_engines_cut_offs():
    typed = types.SimpleNamespace(TERMINATION=_Ends)
    assert cutoffs(typed) == ("stuck",)
    acc = Accumulator(2)
    for end in ("fifty", "stuck", "stuck", "timeout"):
        acc.add(rec(4, [0], end=end))
    assert metrics(acc, unfinished=cutoffs(typed))["completion"] == 0.5  # its cut-off: stuck
    assert metrics(acc)["completion"] == 1.0  # no cut-offs named: every end is a finish


def test_summary_has_exactly_the_agreed_keys():
    acc = Accumulator(2)
    acc.add(rec(4, [0]))
    acc.add(rec(5, [1], end="full"))
    s = summary("exploding-dice", 2, "random", 9, acc, COLOURS)
    old = ["game", "players", "bot", "games", "seed", "metrics", "end_reasons"]
    assert list(s) == [*old, "end_reasons_ci", "fairness"]  # the intervals' keys come after
    assert s["games"] == 2 and s["end_reasons"] == {"fifty": 1, "full": 1}
    assert set(s["metrics"]) >= {
        "duration_turns",
        "advantage_p1",
        "balance",
        "completion",
        "timeouts",
        "win_rate_by_seat",
        "win_rate_by_colour",
        "lead_changes",
        "leader_at_midgame_wins",
    }


def test_merging_chunks_equals_tallying_everything_at_once():
    model = engine.prepare(ExplodingDiceParams(), 3)
    whole = play_chunk(engine, model, 3, "random", 5, 0, 120, {})
    parts = play_chunk(engine, model, 3, "random", 5, 0, 50, {})
    parts.merge(play_chunk(engine, model, 3, "random", 5, 50, 120, {}))
    assert metrics(parts, COLOURS) == metrics(whole, COLOURS)
    assert parts.turns == whole.turns and parts.ends == whole.ends


# --- the runner -----------------------------------------------------------------------------


def test_game_seeds_depend_on_the_master_seed_and_the_index_only():
    assert game_seed(1, 0) == "1:0" and game_seed(12, 3) != game_seed(1, 23)


def test_results_do_not_depend_on_the_number_of_jobs():
    model = engine.prepare(ExplodingDiceParams(), 4)
    one = run(engine, model, 4, "random", 700, 3, jobs=1)
    two = run(engine, model, 4, "random", 700, 3, jobs=2)
    assert not one.interrupted and not two.interrupted
    assert one.games == two.games == 700
    assert summary("x", 4, "random", 3, one.acc) == summary("x", 4, "random", 3, two.acc)
    other = run(engine, model, 4, "random", 700, 4, jobs=1)
    assert summary("x", 4, "random", 3, other.acc) != summary("x", 4, "random", 3, one.acc)


def _fake_engine(stop_at: int | None) -> types.ModuleType:
    """A tiny engine module: each game lasts (index mod 5) + 1 turns; seat 0 wins."""
    mod = types.ModuleType("fake_sim_engine")

    def play_one(model, players, bot, rng, **options):
        turns = rng.randrange(1, 6)
        if stop_at is not None and model["played"][0] == stop_at:
            raise KeyboardInterrupt
        model["played"][0] += 1
        return GameRecord(turns, "fifty", (2, 1), (0,), (("red",), ("blue",)), (0,) * turns)

    mod.play_one = play_one
    mod.HOOKS = EngineHooks()
    return mod


def test_ctrl_c_in_a_single_process_keeps_the_finished_games():
    eng = _fake_engine(stop_at=137)
    result = run(eng, {"played": [0]}, 2, "random", 1000, 1, jobs=1)
    assert result.interrupted and result.games == 137


def test_ctrl_c_with_workers_stops_and_reports_the_finished_games(monkeypatch):
    mod = _fake_engine(stop_at=None)
    monkeypatch.setitem(sys.modules, "fake_sim_engine", mod)  # workers are forked: they see it
    calls = []

    def progress(done):
        calls.append(done)
        raise KeyboardInterrupt  # as if Ctrl-C came while waiting for the workers

    result = run(mod, {"played": [0]}, 2, "random", 4000, 1, jobs=2, progress=progress)
    assert result.interrupted
    assert 0 < result.games < 4000
    assert calls == [calls[0]]


def test_progress_is_reported_after_every_chunk():
    model = engine.prepare(ExplodingDiceParams(), 2)
    seen = []
    run(engine, model, 2, "random", 300, 1, jobs=1, progress=seen.append)
    assert seen == [50, 100, 150, 200, 250, 300]


# --- the report -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_run():
    model = engine.prepare(ExplodingDiceParams(), 3)
    acc = play_chunk(engine, model, 3, "random", 2, 0, 200, {})
    return summary("exploding-dice", 3, "random", 2, acc, COLOURS), acc


def test_report_has_three_inline_plots_and_the_numbers(small_run):
    s, acc = small_run
    html = render_report(s, acc, "Exploding Dice", {})
    assert html.count("<svg") == 3 and "<img" not in html  # inline, nothing to fetch
    assert "200 games, 3 players" in html
    assert f"{s['metrics']['duration_turns']['mean']:.1f}" in html
    for reason, count in s["end_reasons"].items():
        assert re.search(rf"<td>{reason}</td><td class=\"num\">{count}</td>", html)
    assert "seat 3" in html  # the seat plot's labels are text (svg.fonttype none)


def test_report_is_byte_identical_for_the_same_results(small_run):
    s, acc = small_run
    first = render_report(s, acc, "Exploding Dice", {})
    assert render_report(s, acc, "Exploding Dice", {}) == first
