"""Desert Home's compiled kernel plays the readable rules, game by game.

The kernel (`pnp/games/desert_home/fast/_kernel.c`) plays every game of a simulation, with
random bots or with the greedy bot's ratings. It is checked against the readable rules (the
State API through `pnp.play.forward.play`, with `bots.py`'s bots) on whole games from the same
seed, for both bots: the records and the random generator afterwards, on the default kit,
on kits of every size (hypothesis), on the largest board the parameters allow and on kits
that reach the rare rules (the deck's end, the shortage), one game at a time and in the
batches the runner hands it (`play_many`: it seeds its own generator there, as
`random.Random(text)` does). Threads may play kernel games side by side (it keeps no state
between calls and lets the GIL go).
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kernels import assert_no_batch_on_the_readable_rules
from test_dh_properties import kits
from tiers import ci_keeps

from pnp.games.desert_home import engine, rules
from pnp.games.desert_home.fast import kernel as compiled
from pnp.games.desert_home.params import DesertHomeParams
from pnp.games.desert_home.rules import moves, turn
from pnp.games.desert_home.rules.model import play_model
from pnp.sim.worker import play_chunk

pytestmark = pytest.mark.skipif(
    engine._kernel is None and not os.environ.get("CI"),
    reason="pnp was installed without a C compiler: the kernel was not built",
)  # in CI a kernel that did not build fails `test_compiled.py`


def both_ways(model, seed, max_rounds: int = 300, bot: str = "random"):
    """(kernel record, readable rules' record); the generators must end alike too."""
    r1, r2 = random.Random(seed), random.Random(seed)
    kernel = engine.play_one(model, 2, bot, r1, max_rounds=max_rounds)
    reference = engine.play_one(model, 2, bot, r2, max_rounds=max_rounds, reference=True)
    assert r1.getstate() == r2.getstate()
    return kernel, reference


def test_the_kernel_plays_the_readable_greedy_games_on_the_default_kit(monkeypatch):
    """Every kind of action is chosen in these games (counted in the readable ones), so
    every rating of the greedy bot is compared, with its ties drawn."""
    chosen = Counter()
    apply = turn.apply
    monkeypatch.setattr(turn, "apply", lambda state, a: (chosen.update([a[0]]), apply(state, a)))
    model = engine.prepare(DesertHomeParams(), 2)
    for i in range(12):
        kernel, reference = both_ways(model, f"5:{i}", bot="greedy")
        assert kernel == reference
        assert kernel.end == "refuge"  # greedy games on the default kit end with a winner
    kinds = {rules.REROLL, rules.INFLUX_COLOUR, rules.INFLUX, rules.NUMBER, rules.ROAD}
    kinds |= {rules.TILE, rules.DRAW, rules.ENTER, rules.MOVE, rules.SEND, rules.PROTECT}
    assert kinds | {rules.STOP} <= set(chosen)


@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_the_kernel_plays_the_readable_games_on_the_default_kit():
    model = engine.prepare(DesertHomeParams(), 2)
    ends = Counter()
    for i in range(30):
        kernel, reference = both_ways(model, f"3:{i}")
        assert kernel == reference
        ends[kernel.end] += 1
    assert ends["refuge"] and ends["timeout"]  # both ends met (a quarter time out)


@pytest.mark.parametrize("groups", ["split", "whole"])
def test_the_kernel_reads_the_groups_and_the_influx_as_the_readable_rules(groups, monkeypatch):
    """Both readings of the groups rule (parts of a group moved, or only whole groups), and
    the influx that places every figure due: the games compared reach each, for both bots
    (counted in the readable games)."""
    narrowed, parts = Counter(), Counter()
    fields, apply = moves.influx_fields, turn.apply

    def counted_fields(state, pending):
        out = fields(state, pending)
        narrowed[out != moves.influx_cells(state, pending[0])] += 1
        return out

    def counted_apply(state, action):
        if action[0] == rules.MOVE and action[3] != rules.BEARER:
            whole = (state.figs[action[1]], state.tents[action[1]])
            parts[action[5:] != whole] += 1
        apply(state, action)

    monkeypatch.setattr(moves, "influx_fields", counted_fields)
    monkeypatch.setattr(turn, "apply", counted_apply)
    model = engine.prepare(DesertHomeParams(groups=groups), 2)
    for bot in ("greedy", "random"):
        for i in range(4):
            kernel, reference = both_ways(model, f"6:{i}", max_rounds=100, bot=bot)
            assert kernel == reference
    assert narrowed[True] > 0
    assert parts[True] > 0 if groups == "split" else parts[True] == 0


@settings(max_examples=30, deadline=None)
@given(kits(), st.integers(0, 2**32))
def test_the_kernel_plays_the_reference_games_on_every_kind_of_kit(params, seed):
    kernel, reference = both_ways(play_model(params), seed, max_rounds=80)
    assert kernel == reference


@settings(max_examples=20, deadline=None)
@given(kits(), st.integers(0, 2**32))
def test_the_kernel_plays_the_greedy_reference_games_on_every_kind_of_kit(params, seed):
    kernel, reference = both_ways(play_model(params), seed, max_rounds=60, bot="greedy")
    assert kernel == reference


@pytest.mark.parametrize(
    ("rule", "changes"),
    [
        ("deck", {"deck_safe": 4, "deck_thirst": 2}),
        ("shortage", {"figures_per_colour": 4, "tents_per_colour": 1}),
        ("thirst", {"deck_thirst": 36, "deck_safe": 0, "protection_cards": 20}),
        ("largest", {"rows": 15, "path_columns": 12, "refuge_rows": (14, 0), "deck_safe": 400}),
    ],
)
@pytest.mark.parametrize("bot", ci_keeps(["random", "greedy"], 0))
@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_the_kernel_plays_whole_reference_games_on_kits_with_rare_rules(
    rule, changes, bot, monkeypatch
):
    """Each kit reaches its rule in the reference games (counted there): the deck's end,
    the shortage's swaps, thirst deaths, the largest board's far corners."""
    swaps = Counter()
    swap = turn.swap
    monkeypatch.setattr(turn, "swap", lambda state, c: (swaps.update([c]), swap(state, c)))
    model = engine.prepare(DesertHomeParams(**changes), 2)
    games = []
    # the shortage comes in about 1 random game in 30 on its kit: games 63 and 68 reach it;
    # greedy games 2 and 19 reach it, and greedy games 6 and 8 the deck's end
    seeds = {"shortage": (0, 1, 63, 68)} if bot == "random" else {"shortage": (2, 19)}
    seeds |= {"deck": (6, 8)} if bot == "greedy" else {}
    for i in seeds.get(rule, range(6) if bot == "random" else range(2)):
        kernel, reference = both_ways(model, f"4:{i}", max_rounds=120, bot=bot)
        assert kernel == reference
        games.append(kernel)
    if rule == "deck":
        assert any(g.end == "deck" for g in games)
    if rule == "shortage":
        assert swaps.total() > 0
    if rule == "thirst":
        assert sum(g.counters["deaths"] for g in games) > 0
    if rule == "largest":
        assert min(g.counters["tiles_placed"] for g in games) > 90


def test_the_kernel_refuses_bad_arguments():
    model = engine.prepare(DesertHomeParams(), 2)
    board = engine._kernel_board(model)
    words = random.Random(1).getstate()[1]
    ten = engine.settings(10, False)
    with pytest.raises(ValueError, match="settings field max_rounds: out of range"):
        engine._kernel.play(board, engine.settings(0, False), words)
    with pytest.raises(ValueError, match="settings field greedy: missing"):
        engine._kernel.play(board, {"max_rounds": 10}, words)
    with pytest.raises(ValueError, match="settings field seats: not one the kernel knows"):
        engine._kernel.play(board, {**ten, "seats": 2}, words)
    with pytest.raises(ValueError, match="625 numbers"):
        engine._kernel.play(board, ten, words[:-1])
    with pytest.raises(ValueError, match="PyCapsule"):
        engine._kernel.play("not a board", ten, words)
    with pytest.raises(ValueError, match="1,000 bytes"):
        engine._kernel.play_seeded(board, ten, ["x" * 1001])


@pytest.mark.parametrize("greedy", [False, True])
def test_a_game_seeded_from_its_text_is_the_game_on_that_seeds_generator(greedy):
    """`play_seeded` seeds the kernel's generator from each text as `random.Random(text)`
    does: the games `play` gives on those generators, one after another on one block."""
    model = engine.prepare(DesertHomeParams(), 2)
    board, settings = engine._kernel_board(model), engine.settings(300, greedy)
    seeds = [f"5:{i}" for i in range(4)]
    seeded = engine._kernel.play_seeded(board, settings, seeds)
    for text, game in zip(seeds, seeded, strict=True):
        played, _ = engine._kernel.play(board, settings, random.Random(text).getstate()[1])
        assert game == played
        named = {"turns", "end", "winners", "scores", "leaders", *engine.COUNTERS}
        assert set(game) == named  # a record by name: each field the engine reads, no other


@pytest.mark.parametrize("groups", ["split", "whole"])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_a_batch_of_seeds_plays_the_games_one_by_one_plays(bot, groups):
    """`play_many`, the runner's path: the kernel seeds each game from its text itself and
    hands back records by name, the games `play_one` plays on those seeds' generators."""
    model = engine.prepare(DesertHomeParams(groups=groups), 2)
    seeds = [f"9:{i}" for i in range(40)]
    batch = engine.play_many(model, 2, bot, seeds)
    assert batch == [engine.play_one(model, 2, bot, random.Random(s)) for s in seeds]
    assert len({(g.end, g.turns) for g in batch}) > 10  # games that differ, not one repeated
    short = engine.play_many(model, 2, bot, seeds[:4], max_rounds=12)
    assert short == [engine.play_one(model, 2, bot, s, max_rounds=12) for s in seeds[:4]]
    assert short is not None and max(g.counters["duration_rounds"] for g in short) <= 12


def test_without_the_kernel_play_many_leaves_the_games_to_play_one():
    assert_no_batch_on_the_readable_rules(engine, engine.prepare(DesertHomeParams(), 2), 2)


def test_the_runner_tallies_batches_as_it_tallies_games(monkeypatch):
    """`play_chunk` hands the kernel batches (more than one here): the tallies are those of
    game-by-game play."""
    model = engine.prepare(DesertHomeParams(), 2)
    batched = play_chunk(engine, model, 2, "random", 3, 0, 250, {})
    monkeypatch.setattr(engine, "HOOKS", dataclasses.replace(engine.HOOKS, play_many=None))
    one_by_one = play_chunk(engine, model, 2, "random", 3, 0, 250, {})
    assert batched == one_by_one and batched.games == 250


def test_the_kernel_refuses_a_board_it_cannot_hold():
    """The board goes to the kernel by name (`compiled.board_fields`): a field missing,
    unknown or of the wrong size, or numbers the kernel cannot hold, is a clear error."""
    model = engine.prepare(DesertHomeParams(), 2)
    fields = compiled.board_fields(model)
    engine._kernel.board(fields)  # fine
    with pytest.raises(ValueError, match="board field figures: wrong length"):
        engine._kernel.board({**fields, "figures": (*fields["figures"], 3)})  # seven colours
    with pytest.raises(ValueError, match="board field goal: missing"):
        engine._kernel.board({k: v for k, v in fields.items() if k != "goal"})
    with pytest.raises(ValueError, match="board field seats: not one the kernel knows"):
        engine._kernel.board({**fields, "seats": 2})
    with pytest.raises(ValueError, match="one number per cell"):
        engine._kernel.board({**fields, "kind": fields["kind"][:-1]})
    with pytest.raises(ValueError, match="kernel's range"):
        engine._kernel.board({**fields, "cells": 300 * 6, "width": 6, "rows": 300})
    with pytest.raises(ValueError, match="every distance"):  # a weight missing for the farthest
        engine._kernel.board({**fields, "near": fields["near"][:-1]})
    for keep in ([], [0.5] * 9):  # the thirst weights: one to eight
        with pytest.raises(ValueError, match="thirst weights"):
            engine._kernel.board({**fields, "thirst_keep": keep})
    gap = list(fields["reach"])
    row = next(i for i in range(0, len(gap), 4) if gap[i] >= 0 and gap[i + 1] >= 0)
    gap[row] = -1  # a field after a row's end
    with pytest.raises(ValueError, match="row is not of this board"):
        engine._kernel.board({**fields, "reach": gap})
    with pytest.raises(ValueError, match="off the board"):
        engine._kernel.board({**fields, "path_cells": [fields["cells"]]})


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_threads_play_kernel_games_side_by_side(bot):
    """No state is kept between calls: games played at once in threads give the records
    they give one after another."""
    model = engine.prepare(DesertHomeParams(), 2)
    seeds = [f"7:{i}" for i in range(8)]
    alone = [engine.play_one(model, 2, bot, s) for s in seeds]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda s: engine.play_one(model, 2, bot, s), seeds))
    assert together == alone
