"""Home in One Piece: every model rule and kit limit on a hand-built position.

Default kit: the model spreads dough at 20 mm (the start thickness, thicker than home's
15 mm), so a start blob is a disc of radius 15.770 mm (15.625 cm^3), one touch reaches
0.9 x 2 x 15.770 = 28.385 mm, and the whole dough is a disc of radius 44.603 mm.
"""

from __future__ import annotations

import dataclasses
import math
import random
from fractions import Fraction

import pytest
from shapely.geometry import box

from geometry.blobs import disc
from pnp.games.home_in_one_piece import engine, params, rules
from pnp.games.home_in_one_piece.params import DEFAULT_DICE, HomeInOnePieceParams, validate
from pnp.games.home_in_one_piece.rules import (
    END,
    Blob,
    IllegalMove,
    Join,
    Shift,
    Termination,
    dice_model,
    greedy,
)
from pnp.games.home_in_one_piece.rules.model import APART, clamp, free_fraction, play_model
from pnp.games.home_in_one_piece.rules.state import State, new_game, parse_action
from pnp.play.forward import play
from pnp.play.state import CHANCE
from pnp.runtime.errors import PnpError

P = HomeInOnePieceParams()
MODEL = play_model(P)
RIGID = play_model(dataclasses.replace(P, bridge_span=0))  # no stretching round, no bridges
R1 = MODEL.radii[1]
REACH1 = 0.9 * 2 * R1


def position(mine, theirs, seat: int = 0, roll: int = 3, model=MODEL) -> State:
    """A state with blobs (x, y, units) for the seat to play and the other, turn begun."""

    def blobs(spec):
        return [Blob(x, y, u, model.radii[u], x, y) for x, y, u in spec]

    state = State(model=model, blobs=[[], []], seat=seat)
    state.blobs[seat], state.blobs[1 - seat] = blobs(mine), blobs(theirs)
    rules.begin_turn(state, roll)
    return state


def shape(b: Blob):
    return disc(b.x, b.y, b.r)


def gap(a: Blob, b: Blob) -> float:
    """Edge to edge, exactly (shapely's discs are polygons, a little off)."""
    return math.hypot(a.x - b.x, a.y - b.y) - a.r - b.r


# --- the kit and its model -------------------------------------------------------------------


def test_default_model_sizes_follow_the_dough():
    assert R1 == pytest.approx(15.7696, abs=1e-4)
    assert MODEL.radii[8] == pytest.approx(44.6031, abs=1e-4)
    assert MODEL.unit_area * 8 == pytest.approx(125_000 / 20)  # 125 cm^3 at 20 mm, in mm^2
    assert MODEL.width == pytest.approx(680.6265, abs=1e-4)  # 16 circles + margins
    assert MODEL.home == pytest.approx((10, 260, MODEL.width - 10, 390))


def test_the_default_board_holds_its_dough_as_the_spec_asks():
    start = params.start_check(P)
    assert start.holds and start.apart
    assert start.neighbour_gap == pytest.approx(4 + 2 * 3, abs=0.05)  # gap + two margins
    fit = params.home_check(P)
    assert fit.ok  # two 103 mm discs (150 g at 15 mm) in the 661 x 130 mm home
    assert params.whole_dough_radius(P) == pytest.approx(51.5032, abs=1e-4)
    assert params.board_size(P) == pytest.approx((680.6265, 400.0), abs=1e-4)


def test_a_home_zone_too_small_for_both_doughs_is_found():
    narrow = dataclasses.replace(P, blobs_per_player=1, home_depth=110)
    assert params.board_size(narrow)[0] == pytest.approx(214.4, abs=0.1)  # two circles
    fit = params.home_check(narrow)  # 194 x 110 mm home: two 103 mm discs must overlap
    assert not fit.ok and "cannot lie apart" in fit.reason


def test_players_start_in_alternate_circles_seat_0_leftmost():
    zero, one = MODEL.starts
    assert len(zero) == len(one) == 8
    xs = sorted([(x, 0) for x, _ in zero] + [(x, 1) for x, _ in one])
    assert [s for _, s in xs] == [0, 1] * 8
    state = new_game(MODEL)
    everything = [shape(b) for seat in state.blobs for b in seat]
    for i, a in enumerate(everything):
        assert all(not a.intersects(b) for b in everything[i + 1 :])


def test_rally_points_are_where_both_whole_doughs_fit_at_home():
    home = box(*MODEL.home)
    a, b = (disc(x, y, MODEL.radii[8]) for x, y in MODEL.rally)
    assert home.contains(a) and home.contains(b) and not a.intersects(b)


def test_kit_limits_each_give_one_clear_line():
    cases = {
        "dough_grams": dict(dough_grams=0),
        "blobs_per_player": dict(blobs_per_player=0),
        "density": dict(density=-1.2),
        "six faces": dict(dice=((1, 1, 1, 1, 1, 0, 0), *DEFAULT_DICE[1:])),
        r"'dice\[0\]\[1\]' must be from 0 to 1": dict(dice=((1, 2, 1, 1, 1, 0), *DEFAULT_DICE[1:])),
        "too small": dict(board_height=180),
        "different dough colours": dict(dough_colours=("red", "red")),
        "one die letter per die": dict(die_letters=("A", "B")),
    }
    for expected, change in cases.items():
        with pytest.raises(PnpError, match=expected) as err:
            validate(dataclasses.replace(P, **change))
        assert "\n" not in str(err.value)


def test_a_board_just_taller_than_circles_and_home_is_accepted():
    need = 10 + 2 * (15.7696 + 3) + 130 + 10  # margin, circle, home, margin
    validate(dataclasses.replace(P, board_height=need + 0.1))
    with pytest.raises(PnpError, match="too small"):
        validate(dataclasses.replace(P, board_height=need - 0.1))


def test_a_home_too_shallow_for_the_whole_dough_cannot_be_won():
    play_model(dataclasses.replace(P, home_depth=90))  # the model's disc is 89.2 mm across
    with pytest.raises(PnpError, match="nobody can win"):
        play_model(dataclasses.replace(P, home_depth=89))


def test_the_model_spreads_dough_at_the_thicker_of_start_and_home():
    thin = play_model(dataclasses.replace(P, home_thickness=5.0))
    assert thin.radii[1] == R1  # still the start blob's footprint: it fits its circle
    thick = play_model(dataclasses.replace(P, home_thickness=25.0))
    assert thick.unit_area == pytest.approx(15_625 / 25)


def test_start_blobs_closer_than_apart_are_refused():
    with pytest.raises(PnpError, match="less than 1 mm apart"):
        play_model(dataclasses.replace(P, circle_gap=0.0, circle_margin=0.4))


def test_prepare_takes_two_players_and_a_known_reach():
    assert engine.prepare(P, 2).reach == 0.9
    assert engine.prepare(P, 2, reach="half").reach == 0.5
    with pytest.raises(PnpError, match="2 players"):
        engine.prepare(P, 3)
    with pytest.raises(PnpError, match="unknown reach"):
        engine.prepare(P, 2, reach="far")


# --- the dice --------------------------------------------------------------------------------


def test_default_dice_distribution_is_exact():
    dist = dice_model.distribution(DEFAULT_DICE)
    assert dist == {
        0: Fraction(10, 216),
        1: Fraction(72, 216),
        2: Fraction(114, 216),
        3: Fraction(20, 216),
    }
    assert dice_model.mean(DEFAULT_DICE) == Fraction(5, 3)
    assert sum(dist.values()) == 1


def test_a_roll_counts_the_blob_faces_showing():
    assert dice_model.roll(((1,) * 6,) * 3, random.Random(1)) == 3
    assert dice_model.roll(((0,) * 6,) * 3, random.Random(1)) == 0
    rng, copy = random.Random(7), random.Random(7)
    faces = [copy.randrange(6) for _ in DEFAULT_DICE]  # one uniform face per die, in order
    assert dice_model.roll(DEFAULT_DICE, rng) == sum(
        d[f] for d, f in zip(DEFAULT_DICE, faces, strict=True)
    )


def test_custom_dice_change_the_distribution():
    dist = dice_model.distribution(((1, 1, 1, 0, 0, 0), (1, 1, 1, 0, 0, 0)))
    assert dist == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}


def test_the_roll_is_the_touch_budget_and_is_counted():
    blank = play_model(dataclasses.replace(P, dice=((0,) * 6,) * 3))
    state = new_game(blank)
    state.apply(state.sample_chance(random.Random(1)))  # a blank roll ends the turn
    assert (state.seat, state.turns, state.rolled) == (1, 1, False)
    c = state.counters
    assert (c["rolls"], c["rolls_0"], c["stalled_turns"], c["idle_turns"]) == (1, 1, 1, 1)
    assert state.budget == 0 and state.turn_over
    full = play_model(dataclasses.replace(P, dice=((1,) * 6,) * 3))
    state = new_game(full)
    state.apply(state.sample_chance(random.Random(1)))
    assert state.current_player() == 0
    assert state.budget == 3 and state.counters["rolls_3"] == 1
    assert state.counters["stalled_turns"] == 0


class IdleBot:
    """Touches nothing, ever."""

    name = "idle"

    def choose(self, state, rng):
        return END


# --- touching: reach and the spot that stays put ----------------------------------------------


def test_a_touch_moves_a_blob_at_most_its_reach_and_it_still_overlaps_its_spot():
    state = position([(300, 150, 1)], [])
    b = state.own[0]
    old = shape(b)
    assert rules.shift(state, b, 300, 1000) == "moved"
    assert (b.x, b.y) == pytest.approx((300, 150 + REACH1))
    assert shape(b).intersects(old)
    overlap = shape(b).intersection(old)
    assert overlap.bounds[3] - overlap.bounds[1] == pytest.approx(0.1 * 2 * R1, rel=1e-3)


def test_a_target_within_reach_is_reached_exactly():
    state = position([(300, 150, 1)], [])
    b = state.own[0]
    assert rules.shift(state, b, 310, 170) == "moved"
    assert (b.x, b.y) == (310, 170)


def test_touching_a_blob_again_keeps_its_reach_from_where_the_turn_began():
    state = position([(300, 150, 1)], [], roll=1)
    b = state.own[0]
    rules.shift(state, b, 300, 180)
    rules.shift(state, b, 300, 210)  # the same blob: still one touch, still anchored at 150
    assert b.y == pytest.approx(150 + REACH1)
    assert len(state.touched) == 1


def test_a_bigger_blob_reaches_further():
    state = position([(300, 120, 8)], [])
    b = state.own[0]
    rules.shift(state, b, 300, 1000)
    assert b.y == pytest.approx(120 + 0.9 * 2 * MODEL.radii[8])


def test_the_half_reach_option_moves_a_blob_its_radius():
    model = play_model(P, reach="half")
    state = position([(300, 150, 1)], [], model=model)
    rules.shift(state, state.own[0], 300, 1000)
    assert state.own[0].y == pytest.approx(150 + R1)


def test_a_blob_stays_on_the_board():
    state = position([(30, 150, 1)], [])
    b = state.own[0]
    rules.shift(state, b, -100, 150)
    assert b.x == pytest.approx(R1)
    assert clamp(MODEL, -5, 1000, 10) == (10, MODEL.height - 10)


def test_the_roll_limits_how_many_blobs_are_touched():
    state = position([(100, 150, 1), (200, 150, 1)], [], roll=1)
    a, b = state.own
    rules.shift(state, a, 100, 170)
    with pytest.raises(IllegalMove, match="allows touching 1"):
        rules.shift(state, b, 200, 170)


def test_a_roll_of_zero_touches_nothing():
    state = position([(100, 150, 1)], [], roll=0)
    assert state.turn_over
    with pytest.raises(IllegalMove, match="turn is over"):
        rules.shift(state, state.own[0], 100, 170)


def test_no_touching_the_other_players_blobs():
    state = position([(100, 150, 1)], [(300, 150, 1)])
    with pytest.raises(IllegalMove, match="only their own"):
        rules.shift(state, state.other[0], 300, 170)


# --- the other player's dough -----------------------------------------------------------------


def test_a_touch_onto_the_other_dough_backs_off_and_ends_the_turn():
    """Rigid dough (with bridges the target lies past the blob, test_hiop_bridge.py)."""
    state = position([(300, 150, 1), (100, 150, 1)], [(300, 200, 1)], model=RIGID)
    b = state.own[0]
    assert rules.shift(state, b, 300, 1000) == "touched"
    # backed off along its move to APART from the other blob
    assert b.y == pytest.approx(200 - (2 * R1 + APART))
    assert not shape(b).intersects(shape(state.other[0]))
    assert state.turn_over and state.counters["blocked"] == 1
    with pytest.raises(IllegalMove, match="turn is over"):
        rules.shift(state, state.own[1], 100, 170)


def test_only_where_a_blob_is_set_down_matters_not_its_path():
    # dough may bridge over dough: a move whose straight path crosses a disc but ends clear
    t = free_fraction(0, 0, 10, 0, 1.0, [(5, 0, 1.0)])
    assert t == 1.0
    blocked = free_fraction(0, 0, 10, 0, 1.0, [(9, 0, 1.0)])  # ends on it: back to touching
    assert blocked == pytest.approx((9 - 2 - APART) / 10)


def test_a_touch_onto_your_own_blob_stops_short_and_the_turn_goes_on():
    state = position([(300, 150, 1), (300, 200, 1), (500, 150, 1)], [], roll=2)
    a, b, c = state.own
    assert rules.shift(state, a, 300, 1000) == "stopped"
    assert a.y == pytest.approx(200 - (2 * R1 + APART))
    assert len(state.own) == 3 and not state.turn_over
    assert rules.shift(state, c, 500, 170) == "moved"


# --- joining -----------------------------------------------------------------------------------


def test_a_join_takes_two_touches():
    state = position([(300, 150, 1), (340, 150, 1)], [], roll=1)
    with pytest.raises(IllegalMove, match="allows touching 1"):
        rules.join(state, state.own, 320, 150)


def test_a_join_makes_one_disc_of_the_summed_area_and_ends_the_turn():
    state = position([(300, 150, 1), (340, 150, 1), (600, 150, 1)], [], roll=3)
    a, b, c = state.own
    old = [shape(a), shape(b)]
    assert rules.join(state, [a, b], 320, 150) == "joined"
    merged = state.own[-1]
    assert (merged.x, merged.y, merged.units) == (320, 150, 2)
    assert merged.r == pytest.approx(math.sqrt(2) * R1)
    assert math.pi * merged.r**2 == pytest.approx(2 * MODEL.unit_area)
    assert all(shape(merged).intersects(o) for o in old)  # part of each stayed put
    assert state.turn_over and state.counters["joins"] == 1
    with pytest.raises(IllegalMove, match="turn is over"):  # a spare touch is lost
        rules.shift(state, c, 600, 170)


def test_a_join_lands_as_near_the_target_as_every_blob_reaches():
    state = position([(300, 150, 1), (340, 150, 1)], [], roll=2)
    a, b = state.own
    rules.join(state, [a, b], 320, 1000)
    merged = state.own[-1]
    big = MODEL.radii[2]
    # straight up from the midpoint, until it would stop overlapping both start discs
    assert merged.x == pytest.approx(320)
    assert math.hypot(merged.x - 300, merged.y - 150) == pytest.approx(0.9 * (R1 + big))


def test_three_blobs_join_at_once_on_a_roll_of_three():
    state = position([(300, 150, 1), (340, 150, 1), (320, 185, 1)], [], roll=3)
    assert rules.join(state, list(state.own), 320, 160) == "joined"
    assert len(state.own) == 1 and state.own[0].units == 3


def test_blobs_too_far_apart_cannot_join():
    state = position([(100, 150, 1), (300, 150, 1)], [], roll=2)
    with pytest.raises(IllegalMove, match="cannot reach"):
        rules.join(state, state.own, 200, 150)


def test_a_join_may_not_swallow_another_of_your_blobs():
    state = position([(300, 150, 1), (340, 150, 1), (320, 115, 1)], [], roll=2)
    a, b, _ = state.own
    with pytest.raises(IllegalMove, match="another of your blobs"):
        rules.join(state, [a, b], 320, 150)


def test_a_join_onto_the_other_dough_happens_is_moved_apart_and_ends_the_turn():
    """The seed: dough that touches the other's is moved a little until it no longer
    touches, and the turn ends; joining is not undone. By hand: the joined disc (radius
    sqrt(2) R1 = 22.301 mm) set down at (320, 165) is 35 mm from the other blob's centre,
    closer than 22.301 + 15.770 + 1 = 39.071 mm, so it moves straight away from it to
    (320, 200 - 39.071) = (320, 160.929), still over both its blobs' turn-start spots."""
    state = position([(300, 150, 1), (340, 150, 1)], [(320, 200, 1)], roll=2)
    old = [shape(b) for b in state.own]
    other = state.other[0]
    assert rules.join(state, state.own, 320, 165) == "apart"
    assert len(state.own) == 1 and state.own[0].units == 2
    merged = state.own[0]
    assert (merged.x, merged.y) == pytest.approx((320, 200 - (math.sqrt(2) + 1) * R1 - APART))
    assert gap(merged, other) == pytest.approx(APART, abs=1e-6)
    assert all(shape(merged).intersects(o) for o in old)  # part of each stayed put
    assert (other.x, other.y) == (320, 200)  # the other player's dough is not moved
    assert state.turn_over
    assert state.counters["blocked"] == 1 and state.counters["joins"] == 1


def test_a_join_moved_apart_from_two_blobs_stops_where_both_are_just_clear():
    """By hand: the other player's blobs at (300, 200) and (340, 200); set down at
    (320, 170) the joined disc is 36.06 mm from each, under 39.071 mm. Pushed out of
    one it still touches the other, so it stops where the two 39.071 mm circles cross:
    (320, 200 - sqrt(39.071^2 - 20^2)) = (320, 166.435), 1 mm clear of both."""
    state = position([(300, 150, 1), (340, 150, 1)], [(300, 200, 1), (340, 200, 1)], roll=2)
    assert rules.join(state, state.own, 320, 170) == "apart"
    merged = state.own[0]
    s = (math.sqrt(2) + 1) * R1 + APART
    assert (merged.x, merged.y) == pytest.approx((320, 200 - math.sqrt(s * s - 20 * 20)))
    for o in state.other:
        assert gap(merged, o) == pytest.approx(APART, abs=1e-6)


def test_a_join_with_no_clear_spot_within_its_blobs_reach_is_refused():
    """The seed keeps part of each blob where it was. By hand: own blobs at (300, 150) and
    (360, 150) join into a disc of radius sqrt(2) x 15.770 = 22.302 mm whose centre must lie
    within 0.9 x (15.770 + 22.302) = 34.264 mm of both: |x - 330| <= 4.264 and |y - 150| <=
    sqrt(34.264^2 - 30^2) = 16.552. The other player's two-blob disc (radius 22.302) at
    (330, 176), 39.70 mm from each own blob (apart: more than 39.071), keeps the joined
    disc's centre 22.302 + 22.302 + 1 = 45.604 mm away; the farthest point of that reach,
    (325.736, 133.448), is 42.76 mm from it. So no spot keeps both blobs' dough in place
    and clear: the join is refused and not listed, though a clear spot lies just outside
    the reach (where the rules once moved it: (330, 130.3), 35.9 mm from (300, 150)). With
    the other's dough 9 mm further off, the joined disc is moved apart within the reach."""
    state = position([(300, 150, 1), (360, 150, 1)], [(330, 176, 2)], roll=2)
    a, b = state.own
    assert rules.landing(state, [a, b], 330, 150) is None
    with pytest.raises(IllegalMove, match="no clear spot lies within its blobs' reach"):
        rules.join(state, [a, b], 330, 150)
    assert not any(isinstance(m, Join) for m in state.legal_actions())
    big = MODEL.radii[2]
    assert gap(Blob(330, 130.3, 2, big, 0, 0), state.other[0]) > APART
    assert math.hypot(330 - 300, 130.3 - 150) > 0.9 * (R1 + big)
    # 9 mm further off, the joined disc fits: set down at (330, 150) it would touch, so it
    # moves straight down to (330, 185 - 45.604) = (330, 139.396), still in both reaches
    further = position([(300, 150, 1), (360, 150, 1)], [(330, 185, 2)], roll=2)
    (sx, sy), apart = rules.landing(further, further.own, 330, 150)
    assert apart and (sx, sy) == pytest.approx((330, 185 - 2 * big - APART))
    assert rules.join(further, further.own, 330, 150) == "apart"


def test_a_join_needs_two_different_blobs():
    state = position([(300, 150, 1)], [], roll=2)
    with pytest.raises(IllegalMove, match="two or more"):
        rules.join(state, [state.own[0], state.own[0]], 300, 150)


# --- winning -------------------------------------------------------------------------------------


def home_blob(dy: float = 0.0):
    x, y = MODEL.rally[0]
    return [(x, y + dy, 8)]


def test_all_dough_as_one_blob_wholly_at_home_wins():
    state = position(home_blob(), [])
    assert rules.won(state, 0)
    assert rules.score(state, 0) == 7 + 8


def test_a_blob_partly_outside_home_has_not_won():
    y_edge = MODEL.home[1] + MODEL.radii[8]  # the lowest centre still wholly inside
    dy = y_edge - MODEL.rally[0][1]
    assert rules.won(position(home_blob(dy), []), 0)
    assert not rules.won(position(home_blob(dy - 0.5), []), 0)


def test_all_dough_home_in_two_pieces_has_not_won():
    x, y = MODEL.rally[0]
    state = position([(x - 40, y, 4), (x + 40, y, 4)], [])
    assert all(rules.at_home(MODEL, b) for b in state.own)
    assert not rules.won(state, 0)
    assert rules.score(state, 0) == 6 + 8


def test_the_game_ends_home_after_the_winning_turn():
    state = position(home_blob(), [(100, 40, 1)])
    state.apply(END)
    assert (state.ended, state.winner, state.seat) == (Termination.HOME, 0, 1)
    assert state.outcome().end == "home" and state.outcome().winners == (0,)
    assert state.leaders == [0]


def test_a_game_that_never_gets_home_times_out():
    state = new_game(MODEL, max_turns=6)
    play(state, IdleBot(), random.Random(2))
    assert (state.ended, state.winner, state.turns) == (Termination.TIMEOUT, None, 6)
    assert not state.outcome().finished
    assert state.leaders == [-1] * 6


# --- the engine contract ---------------------------------------------------------------------


def test_a_record_carries_exactly_the_declared_counters():
    assert tuple(engine.COUNTERS) == rules.COUNTERS
    for num, den in engine.RATIOS.values():
        assert num in engine.COUNTERS and den in engine.COUNTERS
    record = engine.play_one(MODEL, 2, "greedy", random.Random("1:0"))
    assert set(record.counters) == set(engine.COUNTERS)
    c = record.counters
    assert c["rolls"] == record.turns == sum(c[f"rolls_{k}"] for k in range(4))
    assert c["stalled_turns"] == c["rolls_0"] + c["rolls_1"]
    assert record.end == "home" and len(record.winners) == 1
    assert record.scores[record.winners[0]] == 15
    assert record.colours == (("red",), ("blue",))
    assert len(record.leaders) == record.turns


def test_unknown_bot_is_refused():
    with pytest.raises(ValueError, match="unknown bot"):
        engine.make_bot("clever", MODEL)


# --- the bots ----------------------------------------------------------------------------------


def test_greedy_moves_its_furthest_blob_straight_at_its_rally():
    state = position([(300, 100, 1), (200, 250, 1)], [], roll=1)
    far = state.own[0]
    greedy.take_turn(state, random.Random(1))
    rx, ry = MODEL.rally[0]
    d0 = math.hypot(rx - 300, ry - 100)
    assert math.hypot(rx - far.x, ry - far.y) == pytest.approx(d0 - REACH1)
    assert state.touched == [far]


def test_greedy_joins_when_the_roll_allows_nearest_its_rally():
    state = position([(300, 150, 1), (340, 150, 1), (600, 60, 1)], [], roll=2)
    greedy.take_turn(state, random.Random(1))
    assert state.turn_over and state.counters["joins"] == 1
    assert sorted(b.units for b in state.own) == [1, 2]


def test_greedy_sidesteps_a_head_on_block():
    """Nothing of its fan gets the blob nearer (the other's whole dough lies right in the
    way), so it moves to a clear point of its ring of steps: every eighth of a turn at its
    full and half reach from where it began. Rigid dough: with bridges it goes round."""
    rx, ry = MODEL.rally[0]
    x, y = 300.0, 100.0
    ux, uy = (rx - x) / math.hypot(rx - x, ry - y), (ry - y) / math.hypot(rx - x, ry - y)
    gap = R1 + MODEL.radii[8] + APART + 0.5  # the other's whole dough, right in the way
    state = position([(x, y, 1)], [(x + gap * ux, y + gap * uy, 8)], roll=1, model=RIGID)
    blob = state.own[0]
    greedy.step(state, blob, (rx, ry))
    assert not state.touched  # no clear step gets it any nearer
    greedy.take_turn(state, random.Random(4))
    assert state.touched == [blob] and (blob.x, blob.y) != (x, y)
    ring = {
        (x + d * c, y + d * s)
        for c, s in [(math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)) for k in range(8)]
        for d in (REACH1, REACH1 / 2)
    }
    assert min(math.dist((blob.x, blob.y), p) for p in ring) < 1e-9
    assert math.hypot(blob.x - x, blob.y - y) <= REACH1 + 1e-9


# --- the game-state API ------------------------------------------------------------------------


def test_a_turn_is_a_roll_then_a_decision_a_touch_and_a_blank_roll_skips_it():
    state = new_game(MODEL)
    assert state.current_player() == CHANCE and state.players == 2
    assert [n for n, _ in state.chance_outcomes()] == [0, 1, 2, 3]
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1)
    state.apply(2)
    assert state.current_player() == 0 and state.budget == 2
    state.apply(END)  # touching nothing
    assert state.current_player() == CHANCE and state.seat == 1 and state.turns == 1
    state.apply(0)  # nothing to touch: seat 0 rolls next
    assert state.current_player() == CHANCE and state.seat == 0 and state.turns == 2
    with pytest.raises(IllegalMove, match="not a roll"):
        state.apply(4)
    state.apply(2)
    x, y = state.own[0].x, state.own[0].y
    state.apply(Shift(0, x, y + 10))  # one touch: the roll allows another, the turn goes on
    assert state.current_player() == 0 and state.turns == 2 and len(state.touched) == 1
    state.apply(Shift(3, state.own[3].x, state.own[3].y + 10))  # the roll is spent
    assert state.current_player() == CHANCE and state.turns == 3 and state.seat == 1
    assert state.counters["touches"] == 2


def test_the_turn_ends_once_no_untouched_blob_is_left():
    state = position([(300, 150, 1)], [], roll=3)
    state.apply(Shift(0, 300, 170))
    assert state.current_player() == CHANCE and state.turns == 1


def test_the_listed_touches_on_a_hand_worked_position():
    """Two blobs 40 mm apart and a far one, a roll of 2. Listed: no END before the turn's
    first touch (a pass stays legal; after a touch END comes first); each blob's steps, the
    first the greedy player's straight stride at the rally (a full reach, 28.385 mm, along
    the line from the blob to the rally); then the one pair that can meet, first at the
    spot of their common reach nearest the rally: the two reach circles of 0.9 x (15.770 +
    22.302) = 34.264 mm cross at (320, 150 + sqrt(34.264^2 - 20^2)) = (320, 177.820), and
    the rally lies up to the left of both. A roll of one lists no join."""
    state = position([(300, 150, 1), (340, 150, 1), (600, 60, 1)], [], roll=2)
    rx, ry = MODEL.rally[0]
    listed = state.legal_actions()
    assert END not in listed and len(set(listed)) == len(listed)
    assert state.is_legal(END)
    touched = state.clone()
    touched.apply(listed[0])
    assert touched.legal_actions()[0] == END
    steps = [a for a in listed if isinstance(a, Shift)]
    joins = [a for a in listed if isinstance(a, Join)]
    assert [a.blob for a in steps] == sorted(a.blob for a in steps)  # blob by blob
    assert {a.blob for a in steps} == {0, 1, 2}
    first = steps[0]
    d = math.hypot(rx - 300, ry - 150)
    assert (first.x, first.y) == pytest.approx(
        (300 + REACH1 * (rx - 300) / d, 150 + REACH1 * (ry - 150) / d)
    )
    assert {a.blobs for a in joins} == {(0, 1)}  # the far blob meets neither
    reach2 = 0.9 * (R1 + MODEL.radii[2])
    assert (joins[0].x, joins[0].y) == pytest.approx((320, 150 + math.sqrt(reach2**2 - 400)))
    for action in listed:
        assert state.is_legal(action)
    one = position([(300, 150, 1), (340, 150, 1)], [], roll=1)
    assert not any(isinstance(a, Join) for a in one.legal_actions())  # a roll of one joins none


def test_the_issues_join_between_two_blobs_under_a_third_is_listed():
    """Issue 33: own blobs at (300, 100) and (340, 100), a third at (320, 147.8), a roll of
    two. Aimed at the rally the pair would run into the third (the join spot nearest the
    rally lies up towards it), but the pair can join lower down: at their centre (320,
    100), 47.8 mm below the third, more than the 22.302 + 15.770 + 1 = 39.071 mm that keeps
    them apart, and at (320, 90) as the issue says. The list holds the join at the centre
    (the greedy player's second aim) and every listed join of the pair lies clear."""
    state = position([(300, 100, 1), (340, 100, 1), (320, 147.8, 1)], [], roll=2)
    joins = [a for a in state.legal_actions() if isinstance(a, Join) and a.blobs == (0, 1)]
    assert Join((0, 1), 320, 100) in joins
    third = state.own[2]
    for j in joins:
        assert math.hypot(j.x - third.x, j.y - third.y) >= MODEL.radii[2] + R1 + APART
    assert state.is_legal(Join((0, 1), 320, 90))
    assert not state.is_legal(Join((0, 1), *MODEL.rally[0]))  # aimed at the rally: refused
    state.apply(Join((0, 1), 320, 100))
    assert [(b.x, b.y, b.units) for b in state.blobs[0]] == [(320, 147.8, 1), (320, 100, 2)]


def test_every_greedy_touch_is_listed():
    """Over whole games the greedy player's every touch is one `legal_actions()` lists."""
    player = engine.make_bot("greedy", MODEL)
    for seed in range(4):
        state, rng = new_game(MODEL), random.Random(f"listed:{seed}")
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            action = player.choose(state, rng)
            assert action in state.legal_actions(), (seed, state.turns, action)
            state.apply(action)


def test_touches_after_a_join_or_onto_the_other_dough_end_the_turn():
    state = position([(300, 150, 1), (340, 150, 1), (600, 150, 1)], [], roll=3)
    state.apply(Shift(2, 600, 170))
    state.apply(Join((0, 1), 320, 150))
    assert [(b.x, b.y, b.units) for b in state.blobs[0]] == [(600, 170, 1), (320, 150, 2)]
    assert state.current_player() == CHANCE and state.counters["touches"] == 3
    late = position([(300, 150, 1), (340, 150, 1), (600, 150, 1)], [], roll=3)
    late.apply(Join((0, 1), 320, 150))  # a join ends the turn
    assert late.current_player() == CHANCE
    assert not late.is_legal(Shift(1, 600, 170))
    with pytest.raises(IllegalMove, match="not a roll"):
        late.apply(Shift(1, 600, 170))
    with pytest.raises(IllegalMove, match="no blob"):
        position([(300, 150, 1)], [], roll=1).apply(Shift(1, 0, 0))


def test_the_notation_reads_back_the_very_same_action():
    state = position([(300, 150, 1), (340, 150, 1)], [], roll=2)
    step = Shift(1, 0.1 + 0.2, 1 / 3)
    assert state.action_str(step) == "b1>0.30000000000000004,0.3333333333333333"
    assert parse_action(state.action_str(step)) == step
    join = Join((0, 1), 320.0, 150.25)
    assert (
        state.action_str(join) == "b0+b1@320.0,150.25"
        and parse_action("b0+b1@320.0,150.25") == join
    )
    assert state.action_str(END) == "end" and parse_action("end") == END
    assert state.action_str(3) == "roll 3" and parse_action("roll 3") == 3


def test_clone_copies_the_blobs_and_what_was_touched():
    state = position([(300, 150, 1), (340, 150, 1)], [], roll=2)
    rules.shift(state, state.own[0], 300, 170)
    copy = state.clone()
    assert copy.touched == [copy.own[0]] and copy.touched[0] is not state.own[0]
    rules.shift(copy, copy.own[1], 340, 170)
    assert (state.own[1].y, len(state.touched), state.moves) == (150, 1, [Shift(0, 300, 170)])
