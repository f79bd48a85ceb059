"""Home in One Piece through the general runner: roll counts checkable against the dice."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pnp.sim.command import run_simulation


@pytest.mark.slow
def test_roll_counts_follow_the_printed_dice_and_the_abstraction_is_said():
    s = run_simulation("home-in-one-piece", games=150, bot="greedy", jobs=1).summary
    rolls = s["rolls"]
    total = sum(rolls.values())
    expected = {
        "0": Fraction(10, 216),
        "1": Fraction(72, 216),
        "2": Fraction(114, 216),
        "3": Fraction(20, 216),
    }
    assert total > 3000 and set(rolls) == set(expected)
    for k, p in expected.items():  # within 4 standard errors of the dice's own odds
        sd = (float(p) * (1 - float(p)) / total) ** 0.5
        assert abs(rolls[k] / total - float(p)) < 4 * sd, (k, rolls[k] / total, float(p))
    assert "modelled" in s["abstraction"]
    assert set(s["end_reasons"]) <= {"home", "timeout"}
    assert 0 < s["metrics"]["stall_share"] < 1
