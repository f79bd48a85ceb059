"""Exploding Dice's compiled kernel plays the readable rules, game by game.

The kernel (`pnp/games/exploding_dice/fast/_kernel.c`) plays every random and greedy game of a
simulation on the kits it covers. It is checked against the readable rules (the State API
through `pnp.play.forward.play`) on whole games from the same seed (the records and the
generator afterwards) on the default kit, on every player count and option, on kits of
every kind (hypothesis) and against the recorded games of the conformance data, both one
game at a time and in the batches the runner hands it (it seeds its own generator there,
as `random.Random(text)` does). Kits it does not cover play as before, and without the
kernel pnp says so once and gives the same JSON.
"""

from __future__ import annotations

import ctypes
import dataclasses
import json
import os
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_ed_properties import kits

from pnp.games import get_game
from pnp.games.exploding_dice import engine, rules
from pnp.games.exploding_dice.fast import kernel
from pnp.games.exploding_dice.params import ExplodingDiceParams, play_model
from pnp.play import fastpath
from pnp.reference import conformance
from pnp.runtime import notice
from pnp.sim.command import run_simulation
from pnp.sim.metrics import Accumulator
from pnp.sim.worker import play_chunk

pytestmark = pytest.mark.skipif(
    kernel._kernel is None and not os.environ.get("CI"),
    reason="pnp was installed without a C compiler: the kernel was not built",
)  # in CI a kernel that did not build fails `test_compiled.py`

GAME = get_game("exploding-dice")
DEFAULT = play_model(ExplodingDiceParams())
DATA = json.loads(
    (Path(__file__).parent / "conformance" / "exploding-dice.json").read_text(encoding="utf-8")
)


def both_ways(model, players, bot, seed, two_colours=False):
    """(kernel record, readable rules' record); the generators must end alike too."""
    each = 2 if two_colours else 1
    r1, r2 = random.Random(seed), random.Random(seed)
    ours = kernel.play(model, players, each, bot == "greedy", r1)
    assert ours is not None  # the kernel really played
    theirs = engine.play_one(model, players, bot, r2, two_colours, reference=True)
    assert r1.getstate() == r2.getstate()
    return ours, theirs


@pytest.mark.parametrize(
    ("players", "two_colours"), [(2, False), (3, False), (4, False), (2, True)]
)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_the_kernel_plays_the_readable_games_on_the_default_kit(players, two_colours, bot):
    for i in range(25 if bot == "random" else 8):
        ours, theirs = both_ways(DEFAULT, players, bot, f"5:{i}", two_colours)
        assert ours == theirs


@settings(max_examples=40, deadline=None)
@given(
    kits(per_die=False),
    st.sampled_from([2, 4, 6, 8]),
    st.integers(1, 12),
    st.integers(2, 4),
    st.booleans(),
    st.integers(0, 2**32),
)
def test_the_kernel_plays_the_reference_games_on_every_kind_of_kit(
    params, n, per_colour, players, greedy, seed
):
    """Any size it holds, custom faces, pinwheel arrows, either stall rule, few dice."""
    model = play_model(dataclasses.replace(params, n=n, dice_per_colour=per_colour))
    bot = "greedy" if greedy else "random"
    ours, theirs = both_ways(model, players, bot, seed, two_colours=players == 2 and greedy)
    assert ours == theirs


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=300))
def test_the_kernel_seeds_its_generator_as_random_random_does(text):
    assert list(kernel._kernel.seeded(text)) == list(random.Random(text).getstate()[1])


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_a_batch_of_seeds_plays_the_games_one_by_one_plays(bot):
    seeds = [f"9:{i}" for i in range(60 if bot == "random" else 15)]
    batch = engine.play_many(DEFAULT, 3, bot, seeds)
    assert batch == [engine.play_one(DEFAULT, 3, bot, random.Random(s)) for s in seeds]


def kernel_cases():
    return [
        pytest.param(e, id=conformance.label(e))
        for e in DATA["games"]
        if kernel.covers(conformance.model_of(GAME, e))
    ]


@pytest.mark.parametrize("entry", kernel_cases())
def test_the_kernel_ends_each_recorded_game_as_recorded(entry):
    """One game at a time (the generator handed over) and in a batch (seeded in C)."""
    model = conformance.model_of(GAME, entry)
    players, bot, options = entry["players"], entry["bot"], entry.get("options", {})
    each = 2 if options.get("two_colours") else 1
    one = kernel.play(model, players, each, bot == "greedy", random.Random(entry["seed"]))
    (batch,) = kernel.play_seeded(model, players, each, bot == "greedy", [entry["seed"]])
    for who, got in (("kernel", one), ("kernel, batch", batch)):
        assert got is not None
        ending = (got.end, got.winners, got.turns, got.scores, got.counters)
        conformance.same_end(who, entry, ending, entry)


def test_the_recorded_games_reach_the_kernel_on_more_than_one_kit():
    assert len(kernel_cases()) >= 3
    assert len({json.dumps(e.values[0]["config"]) for e in kernel_cases()}) >= 2


@pytest.mark.parametrize(
    ("changes", "path"),
    [
        ({"n": 10}, "fast path"),  # over 64 cells
        ({"faces": {"red": ((1, 2, 3, 4, 5, 6), (1, 1, 1, 1, 1, 1)) * 2}}, "readable rules"),
    ],
)
def test_kits_the_kernel_does_not_cover_play_as_before(changes, path):
    model = play_model(ExplodingDiceParams(**changes))
    assert not kernel.covers(model) and kernel.boards(model) is None
    assert engine.play_many(model, 2, "random", ["1:0"]) is None
    assert (engine._tables(model) is not None) == (path == "fast path")
    for i in range(3):
        got = engine.play_one(model, 2, "random", f"2:{i}")
        assert got == engine.play_one(model, 2, "random", f"2:{i}", reference=True)


def test_the_runner_tallies_batches_as_it_tallies_games(monkeypatch):
    """`play_chunk` hands the kernel batches: the tallies are those of game-by-game play."""
    batched = play_chunk(engine, DEFAULT, 4, "random", 3, 0, 450, {})
    # the runner finds `play_many` among the engine's hooks: without it, one game at a time
    monkeypatch.setattr(engine, "HOOKS", dataclasses.replace(engine.HOOKS, play_many=None))
    one_by_one = play_chunk(engine, DEFAULT, 4, "random", 3, 0, 450, {})
    assert batched == one_by_one and batched.games == 450


def test_a_raised_halt_stops_a_chunk_before_its_next_batch():
    acc = play_chunk(engine, DEFAULT, 4, "random", 3, 0, 450, {}, halt=ctypes.c_bool(True))
    assert acc == Accumulator(4)


def test_the_kernel_refuses_bad_arguments():
    board = kernel.boards(DEFAULT)
    words = random.Random(1).getstate()[1]
    play = kernel._kernel.play
    with pytest.raises(ValueError, match="max_turns: out of range"):
        play(board, {**kernel.settings(4, 1, False), "max_turns": 0}, words)
    with pytest.raises(ValueError, match="players"):
        play(board, kernel.settings(3, 2, False), words)  # six colours wanted
    with pytest.raises(ValueError, match="625 numbers"):
        play(board, kernel.settings(4, 1, False), words[:-1])
    with pytest.raises(ValueError, match="PyCapsule"):
        play("not a board", kernel.settings(4, 1, False), words)
    with pytest.raises(ValueError, match="1,000 bytes"):
        kernel._kernel.play_seeded(board, kernel.settings(4, 1, False), ["x" * 1001])


def test_the_kernel_names_a_field_left_out_misspelt_or_unknown():
    """Positions and settings cross the seam as named fields: a slip is an error naming
    the field, never a game played on a shifted argument."""
    board = kernel.boards(DEFAULT)
    words = random.Random(1).getstate()[1]
    right = kernel.settings(4, 1, True)
    left_out = {k: v for k, v in right.items() if k != "target"}
    with pytest.raises(ValueError, match="settings field target: missing"):
        kernel._kernel.play(board, left_out, words)
    with pytest.raises(ValueError, match="settings field targets: not one the kernel knows"):
        kernel._kernel.play(board, {**right, "targets": 50}, words)
    packed = kernel.position(rules.new_game(DEFAULT, 4, random.Random(1)))
    with pytest.raises(ValueError, match="position field quiet: missing"):
        kernel._kernel.playout(board, {k: v for k, v in packed.items() if k != "quiet"}, 99, 1)
    with pytest.raises(ValueError, match="position field cells: wrong length"):
        kernel._kernel.playout(board, {**packed, "cells": packed["cells"] + [-1] * 64}, 99, 1)
    search = fastpath.SearchSettings(10, 40, 0.7, False).fields()
    with pytest.raises(ValueError, match="search field budget: out of range"):
        kernel._kernel.tree_search(board, packed, {**search, "budget": 0}, words)


def test_a_whole_game_comes_back_by_name():
    """A game crosses back as named fields too (`_kernel.c`'s ``RECORD``), each the
    readable rules' own: a field renamed, dropped or swapped in C fails here by name."""
    words = random.Random("by name").getstate()[1]
    game, _ = kernel._kernel.play(kernel.boards(DEFAULT), kernel.settings(2, 2, False), words)
    theirs = engine.play_one(DEFAULT, 2, "random", random.Random("by name"), True, reference=True)
    assert set(game) == {"turns", "end", "scores", "winners", "deal", "leaders"}
    assert (game["turns"], kernel.ENDS[game["end"] - 1]) == (theirs.turns, theirs.end)
    assert game["scores"] == theirs.scores and game["winners"] == theirs.winners
    assert game["leaders"] == theirs.leaders and len(game["leaders"]) == game["turns"]
    owners = rules._deals(len(DEFAULT.colours), 2, 2)[game["deal"]]
    assert rules._names(DEFAULT.colours, owners) == theirs.colours


def test_the_kernel_refuses_a_board_it_cannot_hold():
    """The board goes by name (`kernel.board_fields`): a field missing, misspelt, extra or
    out of range is an error naming it, as is a table that is not of the grid."""
    fields = kernel.board_fields(DEFAULT)
    kernel._kernel.board(fields)  # as given: fine
    with pytest.raises(ValueError, match="board field skip: missing"):
        kernel._kernel.board({k: v for k, v in fields.items() if k != "skip"})
    with pytest.raises(ValueError, match="board field stall: not one the kernel knows"):
        kernel._kernel.board({**fields, "stall": True})
    with pytest.raises(ValueError, match="board field n: out of range"):
        kernel._kernel.board({**fields, "n": 10})
    with pytest.raises(ValueError, match="board field lines: wrong length"):
        kernel._kernel.board({**fields, "lines": fields["lines"][:-1]})
    with pytest.raises(ValueError, match="board field lines: expected at least one entry"):
        kernel._kernel.board({**fields, "lines": []})
    neighbours = [0, *fields["neighbours"][1:]]
    with pytest.raises(ValueError, match="board field neighbours: not those of an n x n grid"):
        kernel._kernel.board({**fields, "neighbours": neighbours})
    with pytest.raises(ValueError, match="board field faces: .*out of range"):
        kernel._kernel.board({**fields, "faces": [0, 1, 2, 3, 4, 5] * 4})


def test_threads_play_kernel_games_side_by_side():
    """No state is kept between calls: games played at once in threads give the records
    they give one after another."""
    seeds = [f"7:{i}" for i in range(8)]
    alone = [engine.play_one(DEFAULT, 4, "greedy", s) for s in seeds]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda s: engine.play_one(DEFAULT, 4, "greedy", s), seeds))
    assert together == alone


def simulate_without_kernel(monkeypatch, games: int, jobs: int) -> tuple[str, str]:
    """(JSON summary with the kernel, JSON summary without it)."""
    request = {"games": games, "players": 3, "bot": "greedy", "seed": 4, "jobs": jobs}
    built = json.dumps(run_simulation("exploding-dice", **request).summary)
    monkeypatch.setattr(kernel, "_kernel", None)  # as if the import had failed
    monkeypatch.setattr(notice, "_said", set())
    return built, json.dumps(run_simulation("exploding-dice", **request).summary)


def test_without_the_kernel_the_fast_path_gives_the_same_json_and_says_so_once(monkeypatch, capfd):
    built, fallback = simulate_without_kernel(monkeypatch, games=30, jobs=1)
    assert fallback == built
    assert capfd.readouterr().err.splitlines() == [kernel.NO_KERNEL]


@pytest.mark.slow
def test_without_the_kernel_forked_workers_say_nothing_more(monkeypatch, capfd):
    """Over 50 games the runner forks two workers: the notice is still one line."""
    built, fallback = simulate_without_kernel(monkeypatch, games=120, jobs=2)
    assert fallback == built
    assert capfd.readouterr().err.splitlines() == [kernel.NO_KERNEL]
