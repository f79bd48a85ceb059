"""Home in One Piece's compiled kernel plays the readable rules: turn by turn, game by game.

The kernel (`pnp/games/home_in_one_piece/fast/_kernel.c`) is what every simulation runs. It is
checked against the readable rules (`rules.py`, `state.py`'s random player, `bots.py`'s
greedy planner) played through `pnp.play.forward.play`: whole games from the same seed (the
record, every blob's final disc bit for bit, and the generator after), on the default kit
and on kits that crowd the board or change the dice and the reach, one game at a time and
in the batches the runner hands it (`play_many`, seeded in C from each text); the position
after every turn (a game cut off at each turn count); and its `math.hypot`, the one float it
does not compute the way Python does. Without the kernel pnp plays on the readable rules,
says so once, and gives the same JSON.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import random
import re
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest
from kernels import assert_no_batch_on_the_readable_rules, without_compiler
from tiers import ci_keeps

from pnp.games.home_in_one_piece import engine
from pnp.games.home_in_one_piece.fast import kernel as compiled
from pnp.games.home_in_one_piece.params import HomeInOnePieceParams
from pnp.games.home_in_one_piece.rules.bots import make_bot
from pnp.games.home_in_one_piece.rules.state import State, new_game
from pnp.play import fastpath
from pnp.play.forward import play
from pnp.runtime import notice
from pnp.sim.command import run_simulation
from pnp.sim.worker import play_chunk

SOURCES = [Path(engine.__file__).parent / "fast" / n for n in ("_kernel.c", "_greedy.h", "_tree.h")]
needs_kernel = pytest.mark.skipif(
    not compiled.available() and not os.environ.get("CI"),
    reason="pnp was installed without a C compiler: the kernel was not built",
)  # in CI a kernel that did not build fails `test_compiled.py`

DEFAULT = engine.prepare(HomeInOnePieceParams(), 2)
KITS = {
    "default": DEFAULT,
    "half reach": engine.prepare(HomeInOnePieceParams(), 2, reach="half"),
    "no bridges": engine.prepare(HomeInOnePieceParams(bridge_span=0), 2),
    "long bridges": engine.prepare(HomeInOnePieceParams(bridge_span=200), 2),
    "3 blobs": engine.prepare(HomeInOnePieceParams(blobs_per_player=3), 2),
    "16 blobs": engine.prepare(HomeInOnePieceParams(blobs_per_player=16), 2),
    "generous dice": engine.prepare(HomeInOnePieceParams(dice=((1, 1, 1, 1, 0, 0),) * 3), 2),
}


def reference(model, bot: str, rng: random.Random, max_turns: int | None = None) -> State:
    """The readable rules' game: the final state."""
    state = new_game(model, max_turns)
    return play(state, [make_bot(bot, model)] * 2, rng).state


def blobs(state: State) -> list[list[tuple[float, ...]]]:
    return [[(b.x, b.y, b.units, b.r, b.ax, b.ay) for b in seat] for seat in state.blobs]


def same_game(model, bot: str, seed: str, max_turns: int | None = None) -> State:
    """Play `seed` both ways and check the records, the blobs and the generators agree."""
    ours, theirs = random.Random(seed), random.Random(seed)
    if max_turns is None:
        fast = compiled.play(model, bot == "greedy", ours)
        slow = reference(model, bot, theirs)
    else:
        fast = compiled.play(model, bot == "greedy", ours, max_turns)
        slow = reference(model, bot, theirs, max_turns)
    assert fast.record() == slow.record(), seed
    assert blobs(fast) == blobs(slow), seed
    assert ours.getstate() == theirs.getstate(), seed
    return slow


@needs_kernel
@pytest.mark.parametrize("bot", engine.BOTS)
@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_kernel_games_match_the_readable_rules(bot):
    """A few whole games: equality turn by turn is the next test's, and the slow tier plays
    hundreds on the other kits; the random player's first four both win and time out."""
    games = 4 if bot == "random" else 12
    ends = {same_game(DEFAULT, bot, f"kernel:{i}").ended for i in range(games)}
    assert len(ends) == 2 or bot == "greedy"  # the random player both wins and times out


@needs_kernel
@pytest.mark.slow
@pytest.mark.parametrize("kit", list(KITS))
@pytest.mark.parametrize(
    ("bot", "games"), ci_keeps([("random", 2), ("random", 40), ("greedy", 150)], 0)
)
def test_kernel_games_match_the_readable_rules_on_other_kits(kit, bot, games):
    """Every random game here has touches that end on the other's dough (the readable
    rules play a 16-blob game in seconds: CI plays 2 a kit, the long tier 40)."""
    blocked = 0
    for i in range(games):
        blocked += same_game(KITS[kit], bot, f"{kit}:{i}").counters["blocked"]
    assert blocked > 0 or bot == "greedy"  # touches that ended on the other's dough


@needs_kernel
@pytest.mark.parametrize("bot", engine.BOTS)
@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_kernel_positions_match_the_readable_rules_after_every_turn(bot):
    """A game cut off after t turns ends where the readable rules stand after turn t."""
    turns = reference(DEFAULT, bot, random.Random("turns:1")).turns
    for t in range(1, min(turns, 60) + 1):
        same_game(DEFAULT, bot, "turns:1", max_turns=t)


@needs_kernel
def test_kernel_hypot_is_math_hypot():
    """Random pairs at the board's scale and far from it, roots just below a power of two
    (where the ulp halves), and integer pairs, whose roots are often exact."""
    rng = random.Random(7)
    pairs = [(rng.uniform(-500, 500), rng.uniform(-500, 500)) for _ in range(20000)]
    pairs += [
        (rng.uniform(-1, 1) * 10.0 ** rng.randint(-300, 300), rng.random()) for _ in range(2000)
    ]
    for _ in range(5000):
        top = 2.0 ** rng.randint(-30, 30)
        pairs.append((top * (1 - rng.random() * 1e-12), top * rng.random() * 1e-6))
    pairs += [(float(a), float(b)) for a in range(0, 120) for b in range(0, 120)]
    pairs += [(3e-320, 4e-320), (1e308, 1e308), (0.0, -2.5), (-0.0, 0.0)]
    for x, y in pairs:
        assert compiled.hypot(DEFAULT, x, y) == math.hypot(x, y), (x, y)


@needs_kernel
def test_a_game_per_seed_text_is_the_game_random_random_of_that_text_plays():
    """`play_seeded` seeds the kernel's generator from each text as `random.Random(text)`
    does: its records are the readable rules' games from those seeds."""
    assert compiled._kernel is not None
    texts = ["11:0", "11:1", "seed text"]
    found = compiled._kernel.play_seeded(
        compiled.kernel_model(DEFAULT), compiled.settings(False, 40), texts
    )
    for text, after in zip(texts, found, strict=True):
        slow = reference(DEFAULT, "random", random.Random(text), 40)
        assert after["turns"] == slow.turns
        assert list(after["leaders"]) == slow.leaders
        assert {c: after[c] for c in slow.counters} == slow.counters
        assert list(after["x"]) == [b.x for seat in slow.blobs for b in seat]


@needs_kernel
@pytest.mark.parametrize(("kit", "options"), [("default", {}), ("half reach", {"reach": "half"})])
@pytest.mark.parametrize("bot", engine.BOTS)
def test_a_batch_of_seeds_plays_the_games_one_by_one_plays(bot, kit, options):
    """`play_many`, the runner's path (the options as the runner passes them; `prepare`
    built them into the model): the kernel seeds each game from its text itself, and the
    records are those `play_one` gives on those seeds' generators."""
    model, seeds = KITS[kit], [f"9:{i}" for i in range(40)]
    batch = engine.play_many(model, 2, bot, seeds, **options)
    assert batch == [engine.play_one(model, 2, bot, random.Random(s), **options) for s in seeds]
    assert len({tuple(g.counters.values()) for g in batch}) > 10  # not one game repeated


@needs_kernel
def test_without_the_kernel_play_many_leaves_the_games_to_play_one():
    assert_no_batch_on_the_readable_rules(engine, DEFAULT, 2)


@needs_kernel
def test_the_runner_tallies_batches_as_it_tallies_games(monkeypatch):
    """`play_chunk` hands the kernel batches (more than one here): the tallies are those of
    game-by-game play."""
    batched = play_chunk(engine, DEFAULT, 2, "greedy", 3, 0, 250, {})
    monkeypatch.setattr(engine, "HOOKS", dataclasses.replace(engine.HOOKS, play_many=None))
    one_by_one = play_chunk(engine, DEFAULT, 2, "greedy", 3, 0, 250, {})
    assert batched == one_by_one and batched.games == 250


@needs_kernel
def test_the_kernel_names_a_field_left_out_misspelt_or_unknown():
    """The model, settings and positions cross the seam as named fields: a slip is an
    error naming the field, never a game played on a shifted argument."""
    assert compiled._kernel is not None
    kernel, board = compiled._kernel, compiled.kernel_model(DEFAULT)
    fields = compiled.model_fields(DEFAULT)
    with pytest.raises(ValueError, match="model field tempo: missing"):
        kernel.model({k: v for k, v in fields.items() if k != "tempo"})
    with pytest.raises(ValueError, match="model field weights: wrong length"):
        kernel.model({**fields, "weights": [*fields["weights"], 1.0]})
    with pytest.raises(ValueError, match="a model the kernel cannot hold"):
        kernel.model({**fields, "starts": fields["starts"][:-2]})
    words = random.Random(1).getstate()[1]
    with pytest.raises(ValueError, match="settings field greed: not one the kernel knows"):
        kernel.play(board, {**compiled.settings(True, 40), "greed": True}, words)
    state = new_game(DEFAULT)
    packed = compiled.position(state)
    with pytest.raises(ValueError, match="position field bridges: missing"):
        kernel.playout(board, {k: v for k, v in packed.items() if k != "bridges"}, 9, 1)
    with pytest.raises(ValueError, match="position field seat: out of range"):
        kernel.playout(board, {**packed, "seat": 2}, 9, 1)
    with pytest.raises(ValueError, match="blobs the kernel cannot hold"):
        kernel.playout(board, {**packed, "x": packed["x"][:-1]}, 9, 1)
    with pytest.raises(ValueError, match="touched blobs the kernel cannot hold"):
        kernel.playout(board, {**packed, "touched": [0]}, 9, 1)  # before a roll
    search = fastpath.SearchSettings(10, 8, 0.1, False).fields()
    with pytest.raises(ValueError, match="search field budget: out of range"):
        kernel.tree_search(board, packed, {**search, "budget": 0}, words)
    with pytest.raises(ValueError, match="point field y: missing"):
        kernel.hypot(board, {"x": 3.0})


def simulate(monkeypatch, games: int, jobs: int, bot: str) -> tuple[str, str]:
    """(JSON summary with the kernel, JSON summary without it)."""
    request = dict(games=games, bot=bot, seed=3, jobs=jobs)
    built = json.dumps(run_simulation("home-in-one-piece", **request).summary)
    monkeypatch.setattr(notice, "_said", set())
    with without_compiler(State):  # as if the import had failed
        return built, json.dumps(run_simulation("home-in-one-piece", **request).summary)


@needs_kernel
def test_without_the_kernel_the_readable_rules_give_the_same_json_and_say_so_once(
    monkeypatch, capfd
):
    built, readable = simulate(monkeypatch, games=6, jobs=1, bot="greedy")
    assert readable == built
    assert capfd.readouterr().err.splitlines() == [compiled.NO_KERNEL]


def test_the_kernel_holds_no_mutable_static_data_and_no_compiler_extensions():
    """Reentrant (every call owns its scratch) and portable (gcc, clang, MSVC)."""
    for source in SOURCES:
        code = re.sub(r"/\*.*?\*/", "", source.read_text(encoding="utf-8"), flags=re.S)
        data = [
            d
            for d in re.findall(r"^static\s+[^(;{]*(?:\([^)]*\))?[^(;{]*(?:;|=)", code, flags=re.M)
            if "const" not in d
        ]
        python = ("static PyMethodDef methods[] =", "static struct PyModuleDef module =")
        assert [d for d in data if d not in python] == []
        assert not re.search(r"^[ \t]+static\s", code, flags=re.M)  # nor in a function
        for extension in ("__int128", "__builtin", "__attribute__", "__extension__", "typeof"):
            assert extension not in code


INCLUDE = sysconfig.get_paths()["include"]


@pytest.mark.skipif(
    shutil.which("gcc") is None or not Path(INCLUDE, "Python.h").exists(),
    reason="no gcc or no Python headers here",
)
def test_the_kernel_is_iso_c99():
    result = subprocess.run(
        ["gcc", "-std=c99", "-pedantic-errors", "-Wall", "-Wextra", "-Werror", "-fsyntax-only"]
        + [f"-I{INCLUDE}", str(SOURCES[0])],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
