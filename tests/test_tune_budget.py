"""`pnp tune` keeps its budget and proposes only settings the game allows: a time budget
ends although a setting's preparation would take minutes; a key declared in steps (an
even grid) is never proposed off its step; a setting the game refuses is never raced;
a budget of any length of digits is one error line."""

from __future__ import annotations

import dataclasses
import time

import pytest
from cli_run import one_error_line, run
from tune_toy import GAME as ONES
from tune_toy import Engine as OnesEngine

from pnp.games import registered
from pnp.runtime.errors import PnpError
from pnp.tune import plan_tune, run_tune
from pnp.tune.budget import Budget, parse_budget

pytest.importorskip("optuna")

SLOW = 600.0  # seconds a slow setting's preparation would take, were it not cut


class SlowEngine(OnesEngine):
    """Ones, whose settings with many sides take `SLOW` seconds to prepare."""

    def prepare(self, params, players):
        if params.sides >= 10:
            time.sleep(SLOW)
        return super().prepare(params, players)


SLOW_ONES = dataclasses.replace(ONES, slug="slow-ones", title="Slow Ones", engine=SlowEngine())


@pytest.mark.slow
def test_a_time_budget_ends_though_a_preparation_would_take_minutes():
    """A 2 s budget over settings of which most take ten minutes to prepare: the tune
    ends, says it spent its budget, and raced only settings that prepared."""
    with registered(SLOW_ONES):
        setup, dims, budget = plan_tune(
            "slow-ones", ["turns in 4..6"], ["sides=2..30", "hits=1..1"], budget="2s"
        )
        began = time.monotonic()
        tuned = run_tune(setup, dims, budget, check_kits=False)
        took = time.monotonic() - began
    assert took < SLOW / 10  # the preparation was cut, not waited for
    assert tuned.stopped == "budget"
    raced = [t for t in tuned.json["trials"] if t.get("games")]
    assert all(t["setting"]["sides"] < 10 for t in raced)


@pytest.mark.slow
def test_a_budget_in_games_with_a_time_limit_stops_at_the_limit():
    with registered(SLOW_ONES):
        setup, dims, budget = plan_tune(
            "slow-ones", ["turns in 4..6"], ["sides=12..30"], budget="100000games,2s"
        )
        began = time.monotonic()
        tuned = run_tune(setup, dims, budget, check_kits=False)
        took = time.monotonic() - began
    assert took < SLOW / 10
    assert tuned.json["budget"] == {"games": 100000, "seconds": 2.0}
    assert tuned.json["games"]["total"] == 0  # no setting prepared in time


def test_a_budget_reads_games_time_or_both():
    assert parse_budget("5000games") == Budget("games", 5000)
    assert parse_budget("90s") == Budget("seconds", 90.0)
    assert parse_budget("5000games,10m") == Budget("games", 5000, 600.0)
    for bad in ("10m,5000games", "5000games,300games", "1" * 309 + "games"):
        with pytest.raises(PnpError):
            parse_budget(bad)


@pytest.mark.parametrize("digits", ["1" * 309, "9" * 400, "1" * 25])
@pytest.mark.parametrize("unit", ["games", "s", "h"])
def test_a_budget_of_hundreds_of_digits_is_one_error_line(capsys, digits, unit):
    code, out, err = run(
        capsys, "tune", "exploding-dice", "--target", "turns in 5..9", "--budget", digits + unit
    )
    assert code == 2, err
    assert "--budget" in one_error_line(err)
    assert out == ""


def test_a_stepped_key_is_never_proposed_off_its_step():
    """Exploding Dice's grid size is declared even (from 2 in steps of 2): the whole
    declared range, and a narrower one, propose even sizes only."""
    import optuna

    from pnp.games import get_game
    from pnp.tune.space import parse_over, suggest

    game = get_game("exploding-dice")
    for over in (["n"], ["n=4..12"]):
        (dim,) = parse_over(over, game, 3)
        study = optuna.create_study(sampler=optuna.samplers.RandomSampler(seed=1))
        sizes = {suggest(study.ask(), [dim])["n"] for _ in range(60)}
        assert sizes and all(n % 2 == 0 for n in sizes), sizes
        assert max(sizes) <= 16


@pytest.mark.parametrize(
    ("over", "said"),
    [("n=5..9", "'n' must be from 2 to 16 in steps of 2"), ("n=4..8:3", "steps of 2")],
)
def test_a_range_off_the_declared_step_is_one_error_line(capsys, over, said):
    code, _, err = run(capsys, "tune", "exploding-dice", "--target", "turns in 5..9",
                       "--over", over)  # fmt: skip
    assert code == 2, err
    assert said in one_error_line(err)


@pytest.mark.slow
def test_a_setting_the_game_refuses_is_never_raced():
    """Ones refuses as many hits as sides or more: of sides 2..4 and hits 1..6, only 6 of
    18 settings play. None of the others may be a trial; they are listed as refused."""
    with registered(ONES):
        setup, dims, budget = plan_tune(
            "ones", ["turns in 1.5..2.5"], ["sides=2..4", "hits=1..6"], budget="2000games"
        )
        answer = run_tune(setup, dims, budget, check_kits=False).json
    settings = [t["setting"] for t in answer["trials"]]
    assert settings and all(s["hits"] < s["sides"] for s in settings)
    assert answer["refused"]
    assert all("must be fewer than sides" in r for r in answer["refused"])


def test_a_space_huge_for_the_budget_is_warned_of_and_a_small_one_not():
    from pnp.games import get_game
    from pnp.tune import space_note
    from pnp.tune.space import parse_over

    game = get_game("exploding-dice")
    every = parse_over([], game, 3)
    note = space_note(every, parse_budget("1000games"))
    assert note and "narrow --over" in note
    assert space_note(parse_over(["n=4..8"], game, 3), parse_budget("1000games")) is None
