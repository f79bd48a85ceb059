"""Home in One Piece over random kits and games: invariants, the end, determinism, the
game-state API's laws, and the disc maths checked against shapely."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point, box
from shapely.ops import unary_union

from geometry.blobs import disc
from pnp.games.home_in_one_piece import engine, rules
from pnp.games.home_in_one_piece.params import HomeInOnePieceParams
from pnp.games.home_in_one_piece.rules import Termination
from pnp.games.home_in_one_piece.rules.bots import make_bot
from pnp.games.home_in_one_piece.rules.model import (
    APART,
    clear,
    free_fraction,
    inside_all,
    nearest_clear,
    nearest_in_discs,
    play_model,
)
from pnp.games.home_in_one_piece.rules.state import State, new_game
from pnp.play.state import CHANCE, TERMINAL

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
    """Chance odds sum to 1 and draws are listed; END is listed first once a touch is made
    (before it only when nothing else is) and is always legal; the random and greedy
    touches and every listed touch are legal; a clone played on leaves its original
    alone; games end."""
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
            assert (listed[0] == rules.END) == bool(state.touched) or len(listed) == 1
            assert len(set(listed)) == len(listed) and state.is_legal(rules.END)
            assert all(state.is_legal(a) for a in listed[:: max(1, len(listed) // 4)])
            drawn = state.random_action(random.Random(rng.random()))
            assert state.is_legal(drawn)
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


MODEL = play_model(HomeInOnePieceParams())
spots = st.tuples(st.floats(250, 400), st.floats(60, 220))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(*spots.wrapped_strategy.element_strategies, st.floats(20, 45)),
        min_size=1,
        max_size=3,
    ),
    st.lists(st.tuples(*spots.wrapped_strategy.element_strategies, st.floats(10, 45)), max_size=8),
    spots,
    st.floats(15, 45),
)
def test_the_nearest_clear_spot_is_found_whenever_a_grid_finds_one(anchors, avoid, target, r):
    """`nearest_clear` against a brute force: every point of a 0.5 mm grid over the board
    near the anchors that lies inside every anchor disc, clear of every avoided disc and on
    the board. When the grid finds one, `nearest_clear` finds a spot at least as near the
    target (the grid's points are candidates too, so within its spacing), and the spot
    it gives always obeys the three rules."""
    x, y = target
    found = nearest_clear(MODEL, x, y, r, avoid, anchors)
    if found is not None:
        fx, fy = found
        assert inside_all(fx, fy, anchors) and clear(fx, fy, r, avoid)
        assert (
            r - 1e-6 <= fx <= MODEL.width - r + 1e-6 and r - 1e-6 <= fy <= MODEL.height - r + 1e-6
        )
    ax, ay, rho = min(anchors, key=lambda a: a[2])
    best = None
    for i in range(int(4 * rho) + 1):
        for j in range(int(4 * rho) + 1):
            px, py = ax - rho + 0.5 * i, ay - rho + 0.5 * j
            on_board = r <= px <= MODEL.width - r and r <= py <= MODEL.height - r
            if on_board and inside_all(px, py, anchors) and clear(px, py, r, avoid):
                d = math.hypot(px - x, py - y)
                best = d if best is None else min(best, d)
    if best is not None:
        assert found is not None
        assert math.hypot(found[0] - x, found[1] - y) <= best + 1e-6


def joinable(state: State, group) -> bool:
    """Some join of `group` is allowed: brute force over a 2 mm grid of targets spanning the
    first blob's reach (a target inside the blobs' common reach is the spot itself)."""
    big = rules.joined_radius(state, group)
    b = group[0]
    rho = rules.reach(state.model, b.r, big)
    steps = int(rho)
    return any(
        rules.landing(state, group, b.ax - rho + 2 * i, b.ay - rho + 2 * j) is not None
        for i in range(steps + 1)
        for j in range(steps + 1)
    )


@pytest.mark.slow  # two whole games against a brute force at every 3rd decision
def test_every_group_that_may_join_and_every_blob_has_listed_touches():
    """At decisions of whole games (every 3rd of a random and a greedy game), against a
    brute force: each group of untouched blobs the roll lets join that can join somewhere
    has a listed join; each untouched blob has a listed step; each listed touch is legal."""
    model = play_model(HomeInOnePieceParams())
    joins = 0
    for bot in ("random", "greedy"):
        player = make_bot(bot, model)
        rng = random.Random(f"kinds:{bot}")
        state = new_game(model, max_turns=90)
        seen = 0
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            seen += 1
            if seen % 3 == 0:
                joins += check_listed(state)
            state.apply(player.choose(state, rng))
    assert joins > 5


def check_listed(state: State) -> int:
    """The checks of the test above at one decision; how many groups could join."""
    listed = state.legal_actions()
    stepped = {a.blob for a in listed if isinstance(a, rules.Shift)}
    joined = {a.blobs for a in listed if isinstance(a, rules.Join)}
    fresh = rules.fresh(state)
    assert stepped == {state.own.index(b) for b in fresh}
    left, joins = rules.touches_left(state), 0
    for size in range(2, min(left, len(fresh)) + 1):
        for group in itertools.combinations(fresh, size):
            if joinable(state, group):
                assert tuple(state.own.index(b) for b in group) in joined, state.turns
                joins += 1
    assert all(state.is_legal(a) for a in listed)
    return joins
