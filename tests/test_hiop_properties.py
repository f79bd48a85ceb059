"""Home in One Piece over random kits and games: invariants, the end, determinism, the
game-state API's laws, and the disc maths checked against shapely."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point, box
from shapely.ops import unary_union

from geometry.blobs import disc
from pnp.games.home_in_one_piece import engine, rules
from pnp.games.home_in_one_piece.bots import make_bot
from pnp.games.home_in_one_piece.model import APART, free_fraction, nearest_in_discs, play_model
from pnp.games.home_in_one_piece.params import HomeInOnePieceParams
from pnp.games.home_in_one_piece.rules import Termination
from pnp.games.home_in_one_piece.state import State, new_game
from pnp.state import CHANCE, TERMINAL

SOME = settings(max_examples=25, deadline=None)

face_lists = st.lists(st.integers(0, 1), min_size=6, max_size=6).map(tuple)


@st.composite
def kits(draw) -> HomeInOnePieceParams:
    """Playable kits: dough, blob count, board height, own dice."""
    dice = tuple(draw(st.lists(face_lists, min_size=1, max_size=3)))
    return HomeInOnePieceParams(
        dough_grams=draw(st.sampled_from([60.0, 150.0, 250.0])),
        blobs_per_player=draw(st.integers(1, 8)),
        board_height=draw(st.sampled_from([300.0, 400.0, 600.0])),
        dice=dice,
        die_letters=tuple("ABC"[: len(dice)]),
    )


CAP = 150  # turns: enough to see joins, homecomings and timeouts, and fast


def check(state: State) -> None:
    """After every turn: dough kept per player, nobody's dough touching, all on the board."""
    model = state.model
    everything = []
    for blobs in state.blobs:
        assert sum(b.units for b in blobs) == model.blobs
        area = sum(math.pi * b.r * b.r for b in blobs)
        assert math.isclose(area, model.blobs * model.unit_area, rel_tol=1e-9)
        everything += blobs
    for i, a in enumerate(everything):
        assert a.r - 1e-9 <= a.x <= model.width - a.r + 1e-9
        assert a.r - 1e-9 <= a.y <= model.height - a.r + 1e-9
        for b in everything[i + 1 :]:
            gap = math.hypot(a.x - b.x, a.y - b.y) - a.r - b.r
            assert gap >= APART - 1e-6  # own blobs not yet joined, others' never touched


def check_with_shapely(state: State) -> None:
    """The same, asked of shapely's drawn discs."""
    model = state.model
    board = box(0, 0, model.width, model.height).buffer(1e-6)
    shapes = [[disc(b.x, b.y, b.r) for b in blobs] for blobs in state.blobs]
    assert all(board.contains(d) for seat in shapes for d in seat)
    mine, theirs = shapes
    assert not unary_union(mine).intersects(unary_union(theirs))


def play_checked(model, bot: str, seed: int) -> State:
    rng = random.Random(seed)
    state = new_game(model, max_turns=CAP)
    check(state)
    check_with_shapely(state)
    b = make_bot(bot, model)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(b.choose(state, rng))
        check(state)
    check_with_shapely(state)
    return state


@SOME
@given(kits(), st.sampled_from(["overlap", "half"]), st.integers(0, 2**32))
def test_random_games_keep_the_dough_apart_and_end(params, reach, seed):
    state = play_checked(play_model(params, reach), "random", seed)
    assert state.ended in Termination and state.turns <= CAP
    assert len(state.leaders) == state.turns
    if state.ended is Termination.HOME:
        assert rules.won(state, state.winner) and not rules.won(state, 1 - state.winner)
    else:
        assert state.turns == CAP and state.winner is None


@settings(max_examples=15, deadline=None)
@given(kits(), st.integers(0, 2**32))
def test_greedy_games_keep_the_invariants(params, seed):
    state = play_checked(play_model(params), "greedy", seed)
    assert state.ended in Termination


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_greedy_gets_home_on_the_default_kit(seed):
    state = play_checked(play_model(HomeInOnePieceParams()), "greedy", seed)
    assert state.ended is Termination.HOME
    assert state.counters["joins"] >= 7  # the winner's seven, at least


@pytest.mark.slow
def test_a_seed_fixes_the_game_and_different_seeds_differ():
    model = engine.prepare(HomeInOnePieceParams(), 2)
    for bot in engine.BOTS:
        a = [engine.play_one(model, 2, bot, random.Random(f"1:{i}")) for i in range(8)]
        b = [engine.play_one(model, 2, bot, random.Random(f"1:{i}")) for i in range(8)]
        assert a == b
        assert len({r.turns for r in a}) > 3
        assert engine.play_one(model, 2, bot, "1:5") == a[5]  # a seed, or its generator


# --- the game-state API's laws ---------------------------------------------------------------


def signature(state: State) -> tuple:
    """Everything a move may change, as plain values."""
    return (
        [[(b.x, b.y, b.units, b.r, b.ax, b.ay) for b in seat] for seat in state.blobs],
        state.seat,
        state.turns,
        state.rolled,
        state.budget,
        state.turn_over,
        len(state.touched),
        list(state.moves),
        dict(state.counters),
        list(state.leaders),
    )


@settings(max_examples=12, deadline=None)
@given(kits(), st.sampled_from(["random", "greedy"]), st.integers(0, 2**32))
def test_the_state_api_keeps_its_laws_over_random_games(params, bot, seed):
    """Chance odds sum to 1 and draws are listed; the random and greedy turns and every
    listed turn are legal; a clone played on leaves its original alone; games end."""
    model = play_model(params)
    rng = random.Random(seed)
    state = new_game(model, max_turns=60)
    player = make_bot(bot, model)
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            odds = dict(state.chance_outcomes())
            assert math.isclose(sum(odds.values()), 1.0) and min(odds.values()) > 0
            action = state.sample_chance(rng)
            assert action in odds
        else:
            listed = state.legal_actions()
            assert listed[0] == rules.PASS and len(set(listed)) == len(listed)
            assert all(state.is_legal(a) for a in listed[:: max(1, len(listed) // 4)])
            drawn = state.random_action(random.Random(rng.random()))
            assert state.is_legal(drawn) and len(drawn.moves) <= state.budget
            action = player.choose(state, rng)
            assert state.is_legal(action)
        before = signature(state)
        twin = state.clone()
        twin.apply(action)
        assert signature(state) == before
        state.apply(action)
        assert signature(state) == signature(twin)
    assert state.turns <= 60 and state.outcome() is not None
    assert state.record().turns == state.turns


# --- the disc maths against shapely ------------------------------------------------------------

coords = st.floats(-50, 50, allow_nan=False)
discs = st.tuples(coords, coords, st.floats(5, 60, allow_nan=False))


@settings(max_examples=30, deadline=None)
@given(st.lists(discs, min_size=2, max_size=3), coords, coords)
def test_nearest_point_in_shared_part_of_discs_matches_shapely(ds, tx, ty):
    shared = disc(*ds[0])
    for d in ds[1:]:
        shared = shared.intersection(disc(*d))
    spot = nearest_in_discs(tx, ty, ds)
    if spot is None:
        assert shared.area < 1e-3 * min(d[2] for d in ds) ** 2  # none, or a sliver
        return
    for cx, cy, rho in ds:
        assert math.hypot(spot[0] - cx, spot[1] - cy) <= rho + 1e-6
    if shared.area > 1.0:  # drawn discs are inscribed polygons: allow their shortfall
        best = Point(tx, ty).distance(shared)
        assert math.hypot(spot[0] - tx, spot[1] - ty) <= best + 0.01 * max(d[2] for d in ds)


@settings(max_examples=30, deadline=None)
@given(st.lists(discs, min_size=1, max_size=4), coords, coords, st.floats(2, 20, allow_nan=False))
def test_a_move_is_set_down_at_the_last_clear_point(others, dx, dy, r):
    start = (-120.0, -120.0)  # clear of every other disc
    t = free_fraction(*start, dx, dy, r, others)

    def clear_at(s: float) -> bool:
        x, y = start[0] + s * dx, start[1] + s * dy
        return all(math.hypot(x - ox, y - oy) >= r + orad + APART - 1e-6 for ox, oy, orad in others)

    assert 0 <= t <= 1 and clear_at(t)
    assert not any(clear_at(s) for s in (t + (1 - t) * k / 50 for k in range(1, 51)) if s > t)


def test_joined_blob_covers_the_same_area_as_its_parts_in_shapely():
    model = play_model(HomeInOnePieceParams())
    parts = unary_union([disc(30 * k, 0, model.radii[1]) for k in range(3)])
    assert math.isclose(math.pi * model.radii[3] ** 2, 3 * model.unit_area)
    assert parts.area < 3 * model.unit_area  # the parts overlap here, the model's never do
