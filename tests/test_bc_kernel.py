"""Building Community's compiled kernel plays whole games as the Python fast path and the
readable rules do, and takes its positions and settings by name.

The kernel (`fast/_play.h` through `pnp/play/_seam.h`) plays every random and greedy game
of a simulation on the boards it fits (radius 3 and less). Its games are checked against
the readable rules (`engine.play_one(reference=True)`) and the Python fast path
(`engine._play_fast`) from the same seed: the records and the generator afterwards, one
game at a time and in the batches the runner hands it (seeding its own generator there as
`random.Random(text)` does). A field left out, misspelt or out of range is an error naming
it; a position the kernel cannot hold is refused, not played.
"""

from __future__ import annotations

import dataclasses
import os
import random
from typing import Any

import pytest

from pnp.games import get_game
from pnp.games.building_community import engine, rules
from pnp.games.building_community.fast import kernel
from pnp.play import fastpath
from pnp.sim.metrics import Accumulator
from pnp.sim.worker import play_chunk

pytestmark = pytest.mark.skipif(
    kernel._search is None and not os.environ.get("CI"),
    reason="pnp was installed without a C compiler: the kernel was not built",
)  # in CI a kernel that did not build fails `test_compiled.py`

SLUG = "building-community"
KITS = ({}, {"radius": 2}, {"scope": "anywhere"}, {"radius": 2, "scope": "anywhere"})


def model(**params: Any) -> Any:
    kit = dataclasses.replace(get_game(SLUG).default_params(), **params)
    return engine.prepare(kit, 2)


def three_ways(board: Any, players: int, bot: str, seed: str) -> list[Any]:
    """The kernel's, the Python fast path's and the readable rules' records of one game,
    with each generator's state after it."""
    out = []
    rngs = [random.Random(seed) for _ in range(3)]
    ours = kernel.play(board, players, bot == "greedy", rngs[0])
    assert ours is not None  # the kernel really played
    turns, end, counters = engine._play_fast(
        engine.fast_board(board), players, bot == "greedy", rngs[1]
    )
    fast = rules.game_record(board, players, turns, end, counters)
    readable = engine.play_one(board, players, bot, rngs[2], reference=True)
    for record, rng in zip((ours, fast, readable), rngs, strict=True):
        out.append((record, rng.getstate()))
    return out


@pytest.mark.parametrize("kit", KITS, ids=str)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_the_kernel_plays_the_fast_paths_and_the_readable_games(kit, bot):
    board = model(**kit)
    for players in (2, 5):
        for i in range(3):
            ours, fast, readable = three_ways(board, players, bot, f"{players}:{i}")
            assert ours == fast == readable


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_a_batch_of_seeds_plays_the_games_one_by_one_plays(bot):
    board = model()
    seeds = [f"7:{i}" for i in range(40)]
    batch = engine.play_many(board, 4, bot, seeds)
    assert batch is not None
    assert batch == [engine.play_one(board, 4, bot, random.Random(s)) for s in seeds]
    with fastpath.using(engine.FAST):  # the Python fast path: no batches, the same games
        assert engine.play_many(board, 4, bot, seeds) is None
        assert batch == [engine.play_one(board, 4, bot, random.Random(s)) for s in seeds]


def test_the_runner_tallies_batches_as_it_tallies_games():
    board = model()
    batched = play_chunk(engine, board, 3, "greedy", 5, 0, 250, {})
    with fastpath.using(engine.FAST):
        one_by_one = play_chunk(engine, board, 3, "greedy", 5, 0, 250, {})
    assert batched == one_by_one
    assert batched != Accumulator(3)


def test_a_board_too_big_for_the_kernel_plays_on_the_fast_path():
    board = model(radius=4)
    assert kernel.play(board, 2, False, random.Random(1)) is None
    assert engine.play_many(board, 2, "random", ["1:0"]) is None
    rng, ref = random.Random(3), random.Random(3)
    assert engine.play_one(board, 2, "greedy", rng) == engine.play_one(
        board, 2, "greedy", ref, reference=True
    )


def a_position() -> tuple[Any, Any, dict[str, Any]]:
    """The kernel's board and tables, and a position a few turns into a game, packed."""
    board = model()
    state = rules.new_game(board, 3)
    rng = random.Random(2)
    for _ in range(4):
        state.apply(state.random_action(rng))
    t = kernel.tables(board)
    assert t is not None
    return t, state, kernel.position(state, t)


def test_the_kernel_names_a_field_left_out_misspelt_or_unknown():
    """Positions and settings cross the seam as named fields: a slip is an error naming
    the field, never a game played on a shifted argument."""
    t, _, packed = a_position()
    words = random.Random(1).getstate()[1]
    right = kernel.settings(t, 3, True)
    play = kernel._search.play
    with pytest.raises(ValueError, match="settings field greedy: missing"):
        play(t.kernel, {k: v for k, v in right.items() if k != "greedy"}, words)
    with pytest.raises(ValueError, match="settings field max_turn: not one the kernel knows"):
        play(t.kernel, {**right, "max_turn": 9}, words)
    with pytest.raises(ValueError, match="settings field max_turns: out of range"):
        play(t.kernel, {**right, "max_turns": 10**6}, words)  # its table of positions seen
    with pytest.raises(ValueError, match="settings field pawns: wrong length"):
        play(t.kernel, {**right, "pawns": right["pawns"] * 3}, words)
    with pytest.raises(ValueError, match="position field seen: missing"):
        kernel._search.playout(t.kernel, {k: v for k, v in packed.items() if k != "seen"}, 9, 1)
    with pytest.raises(ValueError, match="position field to_move: out of range"):
        kernel._search.playout(t.kernel, {**packed, "to_move": 6}, 99, 1)
    search = fastpath.SearchSettings(10, 40, 0.7, True).fields()
    with pytest.raises(ValueError, match="search field budget: out of range"):
        kernel._search.tree_search(t.kernel, packed, {**search, "budget": 0}, words)
    with pytest.raises(ValueError, match="position field colour0: missing"):
        kernel._search.moves(t.kernel, {"colour1": 0, "pawns": [], "to_move": 0})


def test_a_whole_game_comes_back_by_name():
    """A game crosses back as named fields (`_play.h`'s ``RECORD``), each the readable
    rules' own, its counters by `rules.COUNTER_NAMES`: a field renamed, dropped or swapped
    in C fails here by name."""
    board = model()
    t = kernel.tables(board)
    words = random.Random("by name").getstate()[1]
    game, _ = kernel._search.play(t.kernel, kernel.settings(t, 3, True), words)
    theirs = engine.play_one(board, 3, "greedy", random.Random("by name"), reference=True)
    assert set(game) == {"turns", "end", *rules.COUNTER_NAMES}
    assert (game["turns"], kernel.ENDS[game["end"]].value) == (theirs.turns, theirs.end)
    assert {name: game[name] for name in rules.COUNTER_NAMES} == theirs.counters


def test_the_kernel_names_a_board_field_that_is_wrong():
    """The fast tables cross the seam by name too (`kernel.playboard_fields`): a field
    missing, misspelt, extra or out of range is an error naming it."""
    fast = engine.fast_board(model())
    fields = kernel.playboard_fields(fast)
    playboard = kernel._search.playboard
    playboard(fields)  # as given: fine
    with pytest.raises(ValueError, match="playboard field near_scope: missing"):
        playboard({k: v for k, v in fields.items() if k != "near_scope"})
    with pytest.raises(ValueError, match="playboard field width: not one the kernel knows"):
        playboard({**fields, "width": fields["W"]})
    with pytest.raises(ValueError, match="playboard field W: out of range"):
        playboard({**fields, "W": 11})
    off = next(b for b in range(64) if not fast.board >> b & 1)
    with pytest.raises(ValueError, match="playboard field pairs: a pair off the board"):
        playboard({**fields, "pairs": [off, *fields["pairs"][1:]]})
    with pytest.raises(ValueError, match="playboard field pairs: two bits a pair"):
        playboard({**fields, "pairs": fields["pairs"][:-1]})
    with pytest.raises(ValueError, match="playboard field close: expected 64 lists"):
        playboard({**fields, "close": fields["close"][:-1]})
    with pytest.raises(ValueError, match="playboard field near: a pair out of range"):
        playboard({**fields, "near": [len(fields["pairs"]) // 2, *fields["near"]]})


def test_the_kernel_refuses_a_position_it_cannot_hold():
    t, _, packed = a_position()
    playout = kernel._search.playout
    off = next(b for b in range(64) if not t.board >> b & 1)
    with pytest.raises(ValueError, match="a pawn off the board"):
        playout(t.kernel, {**packed, "pawns": [off, *packed["pawns"][1:]]}, 99, 1)
    with pytest.raises(ValueError, match="two on one cell"):
        playout(t.kernel, {**packed, "colour1": packed["colour0"]}, 99, 1)
    with pytest.raises(ValueError, match="off the board"):
        playout(t.kernel, {**packed, "colour0": packed["colour0"] | 1 << off}, 99, 1)
    with pytest.raises(ValueError, match="not a position"):
        playout(t.kernel, {**packed, "seen": packed["seen"][:-1]}, 99, 1)  # a key cut short
    with pytest.raises(ValueError, match="not a position"):
        playout(t.kernel, {**packed, "turns": packed["max_turns"]}, 99, 1)
    with pytest.raises(OverflowError):
        playout(t.kernel, {**packed, "seen": [-1, 0, 0]}, 99, 1)
    words = random.Random(1).getstate()[1]
    settings = kernel.settings(t, 2, False)
    with pytest.raises(ValueError, match="not a position"):
        kernel._search.play(t.kernel, {**settings, "pawns": settings["pawns"][:1]}, words)
    with pytest.raises(ValueError, match="1,000 bytes"):
        kernel._search.play_seeded(t.kernel, settings, ["x" * 1001])
