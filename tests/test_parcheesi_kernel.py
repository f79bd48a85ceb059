"""Parcheesi's compiled kernel plays the readable rules: roll by roll and game by game.

The kernel (`pnp/games/parcheesi/fast/_kernel.c`) is what every simulation runs. It is checked
against the readable rules (`rules.py`): the allowed results of the hand-made tricky
rolls, the allowed results of every roll met in random games, and whole games from the
same seed (records and the generator after; `test_conformance.py` replays the
recorded games). Without the kernel pnp plays on the readable rules, says so once, and
gives the same JSON. The source stays portable C with no mutable static data.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kernels import without_compiler
from test_parcheesi_properties import MODELS, TRICKY
from tiers import ci_keeps

from pnp.games import get_game
from pnp.games.parcheesi import engine, rules
from pnp.games.parcheesi.fast import kernel as compiled
from pnp.games.parcheesi.rules import state as game
from pnp.games.parcheesi.rules.bots import make_bot
from pnp.play.state import CHANCE
from pnp.reference import conformance
from pnp.runtime import notice
from pnp.sim.command import run_simulation

N = rules.NEST
GAME = get_game("parcheesi")
SOURCE = Path(engine.__file__).parent / "fast" / "_kernel.c"
needs_kernel = pytest.mark.skipif(
    engine._kernel is None and not os.environ.get("CI"),
    reason="pnp was installed without a C compiler: the kernel was not built",
)  # in CI a kernel that did not build fails `test_compiled.py`


def kernel_results(state: game.State, dice: tuple[int, ...]) -> list[tuple[tuple, int]]:
    board = engine._boards(state.model)
    return engine._kernel.results(board, compiled.query(state, dice))


def reference_results(state: game.State, dice: tuple[int, ...]) -> list[tuple[tuple, int]]:
    return [(p.own, p.captured) for p in rules.allowed_positions(state, dice)]


@needs_kernel
@pytest.mark.parametrize("rules_name", ["seed", "standard"])
@pytest.mark.parametrize(("pawns", "mover", "dice"), TRICKY)
def test_kernel_roll_results_match_the_reference_on_tricky_positions(
    rules_name, pawns, mover, dice
):
    state = game.new_game(MODELS[rules_name], 4)
    for c in state.seats:
        state.pawns[c] = list(pawns.get(c, [N] * 4))
    state.seat = state.seats.index(mover)
    assert kernel_results(state, dice) == reference_results(state, dice)


def doubled(own: tuple[int, ...], home: int) -> set[int]:
    """The board spaces holding two of the mover's pawns."""
    return {p for p in own if 0 <= p < home and own.count(p) == 2}


@needs_kernel
def test_a_start_blockade_stays_broken_in_the_kernel():
    """Decision 8 by hand: double 3s give 3, 3, 4, 4. The blockade on 20 may stay, but once
    it opens its pawns may not stand together again (26 + 26, 27 + 27, 28 + 28 are out),
    while two pawns that start apart (20 and 21) may meet: 20 + 4 = 21 + 3."""
    home = MODELS["seed"].home
    state = game.new_game(MODELS["seed"], 2)
    state.pawns[0] = [20, 20, 40, home]
    locked = kernel_results(state, (3, 3))
    assert locked == reference_results(state, (3, 3))
    assert ((20, 20, 54, home), 0) in locked
    assert all(doubled(own, home) <= {20} for own, _ in locked)
    state.pawns[0] = [20, 21, 40, home]
    free = kernel_results(state, (3, 3))
    assert free == reference_results(state, (3, 3))
    assert ((24, 24, 47, home), 0) in free


@needs_kernel
@settings(max_examples=8, deadline=None)
@given(
    st.sampled_from(["seed", "standard"]),
    st.integers(2, 4),
    st.integers(0, 2**32),
)
def test_kernel_roll_results_match_the_reference_in_random_games(rules_name, players, seed):
    """Every roll of a game on the readable rules (up to 60 turns), before it is played."""
    state = game.new_game(MODELS[rules_name], players)
    rng, bot = random.Random(seed), make_bot("random", state.model)
    while not state.is_terminal() and state.turns < 60:
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            assert state.dice is not None
            assert kernel_results(state, state.dice) == reference_results(state, state.dice)
            state.apply(bot.choose(state, rng))


RECORDED = json.loads(
    (Path(__file__).parent / "conformance" / "parcheesi.json").read_text(encoding="utf-8")
)["games"]


@needs_kernel
@pytest.mark.parametrize("entry", ci_keeps(RECORDED, 0), ids=[e["seed"] for e in RECORDED])
@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_the_kernel_offers_the_rules_results_at_every_roll_of_the_recorded_games(entry):
    """Where the kernel would leave a recorded game: the first roll whose results differ
    (the kernel lists rolls of both dice: a choice of dice, or one die rolled, is the
    readable rules' alone)."""
    _, state = conformance.start(GAME, entry, random.Random(entry["seed"]))
    for step, text in enumerate(entry["actions"]):
        if state.current_player() != CHANCE and not state.choosing:
            assert state.dice is not None
            if len(state.dice) == 1:
                assert compiled.results(state) is None
                state.apply(conformance.find_action(state, text, f"step {step}"))
                continue
            kernel = kernel_results(state, state.dice)
            assert kernel == reference_results(state, state.dice), (
                f"compiled kernel, seed {entry['seed']}, step {step}"
            )
        state.apply(conformance.find_action(state, text, f"step {step}"))


SETTINGS = [
    (r, p, b) for r in ("seed", "standard") for p in (2, 3, 4) for b in ("random", "greedy")
]


@needs_kernel
@pytest.mark.parametrize(("rules_name", "players", "bot"), ci_keeps(SETTINGS, 1, 10))
@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_kernel_and_readable_rules_play_the_same_games(rules_name, players, bot):
    model = MODELS[rules_name]
    a, b = random.Random(f"k:{players}"), random.Random(f"k:{players}")
    assert engine.play_one(model, players, bot, a) == engine.play_one(
        model, players, bot, b, reference=True
    )
    assert a.getstate() == b.getstate()  # the very same draws, the generator handed back


@needs_kernel
@pytest.mark.parametrize(("rules_name", "players", "bot"), SETTINGS)
def test_a_chunk_seeded_in_the_kernel_plays_the_games_of_its_seed_texts(rules_name, players, bot):
    """`play_many`, the runner's path: the kernel seeds each game from its text itself."""
    model = MODELS[rules_name]
    seeds = [f"m:{i}" for i in range(12)] + ["", "é" * 40]
    one_by_one = [engine.play_one(model, players, bot, random.Random(s)) for s in seeds]
    assert engine.play_many(model, players, bot, seeds) == one_by_one


@needs_kernel
@pytest.mark.parametrize("rules_name", ["seed", "standard"])
def test_a_whole_game_comes_back_by_name(rules_name):
    """A game crosses back as named fields (`_kernel.c`'s ``RECORD``), each the readable
    rules' own, its counters by `engine.COUNTERS`' names: a field renamed, dropped or
    swapped in C fails here by name."""
    model, seats = MODELS[rules_name], rules.seat_colours(3)
    words = random.Random("by name").getstate()[1]
    board = engine._boards(model)
    played, _ = engine._kernel.play(board, engine.settings(model, seats, True), words)
    theirs = engine.play_one(model, 3, "greedy", random.Random("by name"), reference=True)
    assert set(played) == {"turns", "end", "pawns", "leaders", *engine.COUNTERS}
    assert (played["turns"], compiled.ENDED[played["end"]]) == (theirs.turns, theirs.end)
    assert played["leaders"] == theirs.leaders
    assert {name: played[name] for name in engine.COUNTERS} == theirs.counters
    pawns = compiled.by_colour(played["pawns"], seats)  # four a colour, colour after colour
    assert tuple(pawns[c].count(model.home) for c in seats) == theirs.scores
    (unplayed,) = set(range(4)) - set(seats)
    assert played["pawns"][unplayed * rules.PAWNS : (unplayed + 1) * rules.PAWNS] == (N,) * 4


@needs_kernel
def test_the_kernel_refuses_what_it_cannot_play():
    board = engine._boards(MODELS["seed"])
    kernel = engine._kernel
    fields = compiled.board_fields(MODELS["seed"])
    kernel.board(fields)  # as given: fine
    with pytest.raises(ValueError, match="board field strips: missing"):
        kernel.board({k: v for k, v in fields.items() if k != "strips"})
    with pytest.raises(ValueError, match="board field strip: not one the kernel knows"):
        kernel.board({**fields, "strip": 1})
    with pytest.raises(ValueError, match="board field paths: expected four equally long"):
        kernel.board({**fields, "paths": fields["paths"][:-1]})
    with pytest.raises(ValueError, match="board field paths: a node off the board"):
        kernel.board({**fields, "paths": [len(fields["safe"])] * len(fields["paths"])})
    with pytest.raises(ValueError, match="board field outlook: wrong length"):
        kernel.board({**fields, "outlook": fields["outlook"][:-1]})  # a number short
    two = engine.settings(MODELS["seed"], (0, 2), False)
    words = random.Random(1).getstate()[1]
    with pytest.raises(ValueError):
        kernel.play(board, two, (1, 2, 3))  # not a twister state
    with pytest.raises(ValueError, match="two seats with one colour"):
        kernel.play(board, {**two, "seats": (0, 0)}, words)
    with pytest.raises(ValueError, match="settings field max_turns: out of range"):
        kernel.play(board, {**two, "max_turns": 0}, words)
    with pytest.raises(ValueError, match="settings field greedy: missing"):
        kernel.play(board, {k: v for k, v in two.items() if k != "greedy"}, words)
    with pytest.raises(ValueError):
        kernel.play_seeded(board, two, ["x" * 1001])  # too long a seed
    asked = {"seats": (0, 2), "pawns": [N] * 16, "colour": 0, "a": 5, "b": 6, "standard": False}
    kernel.results(board, asked)  # as given: fine
    with pytest.raises(ValueError, match="query field colour: the mover has no seat"):
        kernel.results(board, {**asked, "colour": 1})
    with pytest.raises(ValueError, match="query field a: out of range"):
        kernel.results(board, {**asked, "a": 0})  # a die showing 0
    with pytest.raises(ValueError, match="query field dice: not one the kernel knows"):
        kernel.results(board, {**asked, "dice": (5, 6)})
    with pytest.raises(ValueError, match="query field standard: missing"):
        kernel.results(board, {k: v for k, v in asked.items() if k != "standard"})


def simulate_without_kernel(monkeypatch, games: int, jobs: int) -> tuple[str, str]:
    """(JSON summary with the kernel, JSON summary and stderr without it)."""
    request = {"games": games, "players": 2, "bot": "greedy", "seed": 4, "jobs": jobs}
    built = json.dumps(run_simulation("parcheesi", **request).summary)
    monkeypatch.setattr(notice, "_said", set())
    with without_compiler(game.State):  # as if the import had failed
        return built, json.dumps(run_simulation("parcheesi", **request).summary)


@needs_kernel
def test_without_the_kernel_the_readable_rules_give_the_same_json_and_say_so_once(
    monkeypatch, capfd
):
    built, readable = simulate_without_kernel(monkeypatch, games=6, jobs=1)
    assert readable == built
    assert capfd.readouterr().err.splitlines() == [engine.NO_KERNEL]


@needs_kernel
@pytest.mark.slow
def test_without_the_kernel_forked_workers_say_nothing_more(monkeypatch, capfd):
    """Over 50 games the runner forks two workers: the notice is still one line."""
    built, readable = simulate_without_kernel(monkeypatch, games=60, jobs=2)
    assert readable == built
    assert capfd.readouterr().err.splitlines() == [engine.NO_KERNEL]


def test_the_kernel_holds_no_mutable_static_data_and_no_compiler_extensions():
    """Reentrant (every call owns its tables) and portable (gcc, clang, MSVC)."""
    code = re.sub(r"/\*.*?\*/", "", SOURCE.read_text(encoding="utf-8"), flags=re.S)
    data = re.findall(r"^static\s+(?!const\b)(?!inline\b)[^(;{]*(?:;|=)", code, flags=re.M)
    python = ("static PyMethodDef methods[] =", "static struct PyModuleDef module =")
    assert [d for d in data if d not in python] == []  # file-scope data that is not const
    assert not re.search(r"^[ \t]+static\s+(?!const\b)", code, flags=re.M)  # nor in a function
    for extension in ("__int128", "__builtin", "__attribute__", "__extension__", "typeof"):
        assert extension not in code


INCLUDE = sysconfig.get_paths()["include"]


@pytest.mark.skipif(
    shutil.which("gcc") is None or not Path(INCLUDE, "Python.h").exists(),
    reason="no gcc or no Python headers here",
)
def test_the_kernel_is_iso_c99():
    include = INCLUDE
    flags = ["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-fsyntax-only"]
    run = subprocess.run(
        ["gcc", *flags, f"-I{include}", str(SOURCE)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
