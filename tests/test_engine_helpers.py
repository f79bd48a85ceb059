"""The small helpers every engine shares: its random draws, its bot names, its per-model
tables."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pnp.play.chance import below, pick
from pnp.play.memo import PerModel
from pnp.play.outcome import bot_maker


def test_below_draws_getrandbits_of_the_bit_length_until_the_draw_fits():
    """n = 5 takes 3 bits a draw; draws of 5, 6 or 7 are thrown away."""
    rng, twin = random.Random(11), random.Random(11)
    got = below(rng, 5)
    draws = [twin.getrandbits(3)]
    while draws[-1] >= 5:
        draws.append(twin.getrandbits(3))
    assert got == draws[-1] and rng.getstate() == twin.getstate()
    counts = Counter(below(rng, 5) for _ in range(5000))
    assert set(counts) == set(range(5)) and min(counts.values()) > 850


def test_nothing_to_choose_spends_no_randomness():
    rng = random.Random(3)
    before = rng.getstate()
    assert below(rng, 1) == 0 and below(rng, 0) == 0 and pick(rng, ["only"]) == "only"
    assert rng.getstate() == before


def test_bot_maker_makes_a_new_bot_per_call_and_names_the_bots_it_knows():
    make = bot_maker({"random": list, "greedy": dict})
    assert make("random") == [] and make("random") is not make("random")
    assert make("greedy") == {}
    with pytest.raises(ValueError, match="unknown bot 'clever': choose one of random, greedy"):
        make("clever")


def test_per_model_builds_once_per_model_and_keeps_only_the_last_few():
    built = []
    tables = PerModel(lambda m: built.append(m) or len(built), most=2)
    assert tables(("a",)) == tables(("a",)) == 1
    assert tables(("b",)) == 2 and tables(("a",)) == 1 and built == [("a",), ("b",)]
    tables(("c",))  # a third model: the cache starts over
    assert tables(("a",)) == 4 and built[-1] == ("a",)
    calls = []
    none = PerModel(lambda m: calls.append(m))  # a remembered None is still remembered
    none(("x",)), none(("y",)), none(("x",))
    assert calls == [("x",), ("y",)]
