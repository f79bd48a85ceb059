"""Interval statistics, verdicts and n/a metrics, against hand-worked values."""

from __future__ import annotations

import io
import math
from collections import Counter

import pytest

from pnp.play.outcome import GameRecord
from pnp.sim import intervals as iv
from pnp.sim.metrics import Accumulator, metrics, summary
from pnp.sim.report import render_report
from pnp.sim.verdicts import fairness, plain_summary, plus_minus


def test_wilson_matches_the_hand_worked_interval():
    lo, hi = iv.wilson(10, 100)  # p = 0.1, z = 1.96: centre 0.1146, half 0.0596
    assert (round(lo, 4), round(hi, 4)) == (0.0552, 0.1744)
    assert iv.wilson(0, 50)[0] == 0.0 and 0 < iv.wilson(0, 50)[1] < 0.08  # never below 0
    assert iv.wilson(50, 50)[1] == 1.0
    assert iv.wilson(0, 0) == (0.0, 0.0)


@pytest.mark.parametrize(
    ("x", "df", "p"),
    [
        (3.841, 1, 0.05),
        (5.991, 2, 0.05),
        (7.815, 3, 0.05),
        (9.488, 4, 0.05),
        (11.070, 5, 0.05),
        (6.635, 1, 0.01),
        (11.345, 3, 0.01),
        (2.706, 1, 0.10),
        (4.605, 2, 0.10),
    ],
)
def test_chi_square_tail_matches_the_printed_table(x, df, p):
    assert iv.chi_square_sf(x, df) == pytest.approx(p, abs=2e-4)


def test_chi_square_tail_in_closed_form():
    assert iv.chi_square_sf(4.0, 2) == pytest.approx(math.exp(-2))  # df 2: e^(-x/2)
    assert iv.chi_square_sf(0.0, 3) == 1.0
    stat, p = iv.chi_square_test([60, 40])  # (10^2 + 10^2) / 50 = 4
    assert stat == pytest.approx(4.0) and p == pytest.approx(0.0455, abs=1e-4)


def test_share_test_and_games_to_detect():
    assert iv.share_test(0.6, 100, 0.5) == pytest.approx(0.0455, abs=1e-4)  # z = 2
    # ((1.96 * 0.5 + 0.8416 * sqrt(0.55 * 0.45)) / 0.05)^2 = 782.5
    assert iv.games_to_detect(0.05, 0.5) == 783
    assert iv.games_to_detect(0.01, 0.25) > iv.games_to_detect(0.02, 0.25) * 3.9


@pytest.mark.parametrize(
    ("p", "df", "x"),
    [(0.2, 4, 1.649), (0.975, 1, 5.024), (0.025, 10, 3.247), (0.95, 30, 43.773), (0.5, 2, 1.386)],
)
def test_chi_square_quantiles_match_the_printed_table(p, df, x):
    assert iv.chi_square_quantile(p, df) == pytest.approx(x, abs=1e-3)


def test_gamma_quantiles_of_shape_one_are_exponential():
    for p in (0.001, 0.025, 0.5, 0.975):
        assert iv.gamma_quantile(p, 1.0) == pytest.approx(-math.log(1 - p), rel=1e-9)


def test_mean_interval_of_a_large_sample_is_the_normal_one():
    """At 10,000 games the gamma interval is the normal one: mean 1, s = 1, 1.96 / 100."""
    (lo, hi), method = iv.mean_interval({0: 5000, 2: 5000})
    assert method == "gamma"
    assert (hi - lo) / 2 == pytest.approx(0.0196, rel=0.02)
    assert (lo + hi) / 2 == pytest.approx(1.0, abs=0.001)


def test_mean_intervals_stay_in_range_or_say_na():
    """The issue's cases: two games of a count gave [-64.09, 101.09]; a mean of a count or
    a length never goes below 0, and below 5 games (or with no spread) there is none."""
    assert iv.mean_interval(Counter({0: 1, 37: 1})) == (None, "n/a")  # 2 games
    assert iv.mean_interval(Counter({0: 2, 5: 2})) == (None, "n/a")  # 4 games
    assert iv.mean_interval(Counter({0: 9})) == (None, "n/a")  # no spread to read
    (lo, hi), method = iv.mean_interval(Counter({0: 4, 37: 1}))  # zero-inflated, mean 7.4
    assert method == "gamma" and 0 <= lo < 7.4 < hi
    assert hi - 7.4 > 7.4 - lo  # the long side is the tail's
    skewed = Counter({0: 80, 1: 10, 20: 10})
    assert iv.mean_interval(skewed) == iv.mean_interval(Counter(dict(reversed(skewed.items()))))


def test_plus_minus_shapes():
    assert plus_minus(0.267, [0.240, 0.294]) == "0.267 \u00b1 0.027"
    assert plus_minus(0.0, [0.0, 0.0126]) == "0.000 (0.000-0.013)"
    assert plus_minus(None, None) == "n/a"
    # the asymmetric Wilson interval: never '0.375 ± 0.279'
    assert plus_minus(0.375, [0.137, 0.694]) == "0.375 (0.137-0.694)"
    assert plus_minus(0.3, [0.2724, 0.3291]) == "0.300 (0.272-0.329)"  # 0.028 below, 0.029 above
    assert plus_minus(12.5, [10.0, 15.0], 1) == "12.5 \u00b1 2.5"


def rec(turns, winners, leaders=(), end="fifty", counters=None):
    return GameRecord(turns, end, (0, 0), tuple(winners), ((), ()), tuple(leaders), counters or {})


def test_first_player_verdict_yes_and_no_evidence():
    acc = Accumulator(2)
    for i in range(1000):
        acc.add(rec(5, [0] if i < 600 else [1]))
    fair = fairness(acc)
    assert fair["first_player_advantage"] == "yes, seat 1 +10.0 points"
    assert fair["all_seats"]["chi_square"] == pytest.approx(40.0) and fair[
        "seats_differ"
    ].startswith("yes")
    even = Accumulator(2)
    for i in range(200):
        even.add(rec(5, [i % 2]))
    verdict = fairness(even)["first_player_advantage"]
    needed = iv.games_to_detect(0.01, 0.5)
    assert verdict == f"no evidence at this sample size: {needed:,} games would detect 1 point"


def test_no_seat_test_below_the_minimum_of_decided_games():
    """The issue's one-game run printed 'p = 0.392' and a games-to-detect figure."""
    one = Accumulator(2)
    one.add(rec(5, [0]))
    fair = fairness(one)
    assert fair["seat_1"]["p_value"] is None and fair["all_seats"]["p_value"] is None
    assert fair["games_to_detect_1_point"] is None and not fair["seat_1"]["significant"]
    assert fair["first_player_advantage"].startswith("too few games: 1 decided")
    assert fair["seats_differ"].startswith("too few games")
    edge = Accumulator(2)  # 30 decided games, 29 won by seat 1: the test runs
    for i in range(30):
        edge.add(rec(5, [0] if i else [1]))
    assert fairness(edge)["first_player_advantage"].startswith("yes, seat 1")
    six = Accumulator(6)  # six seats need 5 expected wins each: 30 decided is enough
    for i in range(29):
        six.add(rec(5, [i % 6]))
    assert fairness(six)["min_decided_games"] == 30
    assert fairness(six)["first_player_advantage"].startswith("too few games: 29")
    eight = Accumulator(8)
    assert fairness(eight) is None  # no games
    eight.add(rec(5, [0]))
    assert fairness(eight)["min_decided_games"] == 40


def test_every_seat_one_bot_gets_the_seat_verdict_mcts_too():
    """Seats that all play mcts are tallied per bot (the generic path), yet the seat
    tests apply: only mixed seats trade them for each bot's share."""
    acc = Accumulator(2)
    for i in range(40):
        acc.add(rec(5, [1] if i % 4 == 0 else [0]), ("mcts", "mcts"))
    s = summary("x", 2, "mcts", 1, acc, bots=("mcts", "mcts"))
    assert "bot_shares" not in s
    assert s["fairness"]["first_player_advantage"].startswith("yes, seat 1 +25.0")
    mixed = Accumulator(2)
    for i in range(40):
        mixed.add(rec(5, [0]), ("mcts", "random") if i % 2 else ("random", "mcts"))
    m = summary("x", 2, "mcts,random", 1, mixed, bots=("mcts", "random"))
    assert "fairness" not in m and m["bot_shares"]["mcts"]["share"] == 0.5


def test_metrics_that_do_not_apply_are_null_and_draws_count():
    acc = Accumulator(2)
    acc.add(rec(4, [0], counters={"passes": 0}))
    acc.add(rec(6, [], end="draw", counters={"passes": 0}))  # no one won, by a rule: a draw
    acc.add(rec(8, [], end="timeout", counters={"passes": 0}))  # a cut-off, not a draw
    m = metrics(
        acc, counters=("passes",), ratios={"per": ("passes", "passes")}, unfinished=("timeout",)
    )
    assert m["lead_changes"] is None and m["leader_at_midgame_wins"] is None  # no leaders
    assert m["per"] is None  # 0 / 0
    assert m["drawishness"] == round(1 / 3, 4)
    s = summary("x", 2, "random", 1, acc, counters=("passes",), unfinished=("timeout",))
    html = render_report(s, acc, "X", {})
    assert html.count("<svg") == 3  # the always-zero counter gets no histogram
    assert "n/a" in html and any(line.startswith("Decisiveness") for line in plain_summary(s))


def test_leaders_reported_keep_lead_metrics():
    acc = Accumulator(2)
    acc.add(rec(4, [0], leaders=(0, 1, 1, 0)))
    acc.add(rec(2, [1], leaders=(-1, -1)))
    m = metrics(acc)
    assert m["lead_changes"] == 1.0
    assert m["lead_changes_ci"] is None and m["lead_changes_ci_method"] == "n/a"  # two games
    from pnp.sim.tables import summary_rows

    table = summary_rows(summary("x", 2, "random", 1, acc))
    assert table.rows[table.keys.index("lead_changes")][1] == "1.000 (interval n/a)"
    assert "every seat random" in table.title
    assert m["leader_at_midgame_wins"] == 0.0  # seat 1 led at turn 2 of 4, seat 0 won


def test_plain_progress_writes_lines_to_its_stream():
    from pnp.cli.simulate import plain_progress

    out = io.StringIO()
    tick = plain_progress("exploding-dice", 1000, every=0, stream=out)
    tick(250)
    assert out.getvalue() == "exploding-dice: 250 of 1,000 games\u2026\n"
