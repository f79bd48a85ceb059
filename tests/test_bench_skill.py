"""The skill table of `make bench` (`pnp.bench.skill`): its verdicts on hand-made tallies,
and a real (tiny) match, whose seats and seeds are the ones the table claims."""

from __future__ import annotations

import pytest

from pnp.bench import decisions as bench_decisions
from pnp.bench import skill as bench_skill
from pnp.bench.skill import SkillRow, Tally
from pnp.sim.intervals import wilson


def tallies(*won: tuple[float, int]) -> list[Tally]:
    return [Tally(w, n) for w, n in won]


def test_a_share_carries_its_wilson_interval():
    share, lo, hi = Tally(12, 40).share()
    assert share == 0.3 and (lo, hi) == wilson(12, 40)


def test_the_search_meets_the_target_only_when_every_seat_order_clears_the_fair_share():
    strong = tallies((30, 50), (28, 50), (27, 50), (29, 50))
    row = SkillRow("g", 4, 100, False, strong, strong)
    assert row.met()
    one_weak = tallies((30, 50), (28, 50), (14, 50), (29, 50))  # 0.28: [0.17, 0.41]
    assert not SkillRow("g", 4, 100, False, one_weak, strong).met()


def test_a_team_meets_the_target_when_its_interval_clears_greedys():
    apart = tallies((20, 50), (0, 50))  # [0.28, 0.54] against [0, 0.07]
    touching = tallies((5, 50), (0, 50))  # [0.04, 0.21] against [0, 0.07]
    assert SkillRow("g", 2, 100, True, apart, apart).met()
    assert not SkillRow("g", 2, 100, True, touching, apart).met()


@pytest.mark.slow
def test_a_match_plays_each_lineup_and_times_only_the_searchs_decisions():
    lineups = bench_skill.seat_orders("mcts", "greedy", 2)
    assert lineups == [("mcts", "greedy"), ("greedy", "mcts")]
    search = bench_skill.match("exploding-dice", lineups, [0, 1], 2, 5, 1)
    naive = bench_skill.match("exploding-dice", [("greedy", "random")], [0], 2, 5, 1)
    for t in search:
        assert t.games == 2 and 0 <= t.wins <= 2 and t.decision_ms
    assert naive[0].games == 2 and not naive[0].decision_ms  # no mcts seat, no timing
    again = bench_skill.match("exploding-dice", lineups, [0, 1], 2, 5, 1)
    assert [t.wins for t in again] == [t.wins for t in search]  # seeded: the same games
    lines = bench_skill.table([SkillRow("exploding-dice", 2, 200, False, search, naive * 2)])
    assert lines[0].startswith("game") and "exploding-dice" in lines[2]


def test_the_table_plays_each_player_count_a_game_takes_else_its_default():
    assert bench_skill.player_counts("parcheesi", [2, 3, 4]) == [2, 3, 4]
    assert bench_skill.player_counts("home-in-one-piece", [3, 4]) == [None]  # 2 only
    assert bench_skill.player_counts("exploding-dice", []) == [None]


def test_decision_timing_plays_every_seat_mcts_then_one_mcts_seat_in_each_place():
    rows = bench_decisions.lineups("parcheesi", 4, 9)
    assert [r.label for r in rows] == [
        f"{p}p mcts vs {other}" for p in (2, 4) for other in ("mcts", "greedy")
    ]
    four_mixed = rows[3].games
    assert [g.bots for g in four_mixed] == [
        tuple("mcts" if s == k else "greedy" for s in range(4)) for k in range(4)
    ]
    assert len({g.seed for g in four_mixed}) == 4  # each game its own seed
    assert all(g.bots == ("mcts", "mcts") for g in rows[0].games)
    assert bench_decisions.player_counts("home-in-one-piece") == [2]


def test_decision_times_are_summed_up_by_nearest_rank_percentiles():
    times = [float(t) for t in range(1, 101)]  # 1..100 ms
    assert bench_decisions.percentile(times, 50) == 50.0
    assert bench_decisions.percentile(times, 99) == 99.0
    assert bench_decisions.percentile([7.0], 99) == 7.0
    line = bench_decisions.summary(times)
    assert "median   50.5" in line and "p99   99.0" in line and "max  100.0" in line
    assert f"(50 over {bench_decisions.DECISION_TARGET_MS} ms)" in line
    assert "over" not in bench_decisions.summary([1.0, 2.0])
