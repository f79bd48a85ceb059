"""Parcheesi rules, one hand-worked position per pinned decision (reference engine).

Positions are built by hand. Pawns are given as progress along their colour's path:
N (-1) = nest, 0 = its entry space, 63 = the last track space, 64-70 its strip, 71 = home.
Red (colour 0) moves unless a test says otherwise; red's progress p stands on track
space (5 + p) mod 68, so red's safe progress values are 0, 7, 12, 17, 24, 29, 34, 41, 46,
51, 58 and 63. `on(c, space)` is the progress colour c has on a track space (blue never
walks spaces 18-21, behind its entry, so most opponents here are yellow).
Expected results are written as the mover's pawns, sorted.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from geometry import track
from pnp.games.parcheesi import rules
from pnp.games.parcheesi.params import ParcheesiParams
from pnp.games.parcheesi.rules import NEST as N
from pnp.games.parcheesi.rules import state as game
from pnp.games.parcheesi.rules.bots import make_bot
from pnp.games.parcheesi.rules.model import play_model
from pnp.play.state import CHANCE

SEED = play_model(ParcheesiParams())
STANDARD = play_model(ParcheesiParams(), rules="standard")
HOME = 71
RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3


def on(colour: int, space: int) -> int:
    return SEED.paths[colour].index(space)


def space(colour: int, progress: int) -> int:
    return SEED.paths[colour][progress]


def position(pawns: dict[int, list[int]], mover: int = RED, model=SEED, players: int = 4):
    """A state with the given pawns (missing colours all in their nest), `mover` to play."""
    state = game.new_game(model, players)
    for c in state.seats:
        state.pawns[c] = list(pawns.get(c, [N] * 4))
        assert len(state.pawns[c]) == 4
    state.seat = state.seats.index(mover)
    return state


def results(state, dice) -> set[tuple[int, ...]]:
    """The mover's pawns in every allowed result (captures checked separately)."""
    return {p.own for p in rules.allowed_positions(state, dice)}


def captured(state, dice) -> dict[tuple[int, ...], set[int]]:
    """Result pawns -> track spaces whose opposing pawn the play sends home."""
    out: dict[tuple[int, ...], set[int]] = {}
    for p in rules.allowed_positions(state, dice):
        out[p.own] = {n for n in range(track.TRACK_SPACES) if p.captured >> n & 1}
    return out


class Dice(random.Random):
    """A generator whose die rolls are scripted: `below(rng, 6)` reads getrandbits(3)."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def getrandbits(self, k: int) -> int:
        if k == 3 and self.faces:
            return self.faces.pop(0) - 1
        return super().getrandbits(k)


def play_turn(state: game.State, dice: random.Random) -> None:
    """One whole turn through the game-state API: the dice from `dice`, and the mover
    always takes the first allowed result (a deterministic player)."""
    turns = state.turns
    while state.turns == turns:
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(dice))
        else:
            state.apply(state.legal_actions()[0])


# --- decision 1: seats ----------------------------------------------------------------


def test_seats_play_colour_minus_s_and_two_players_sit_opposite():
    assert rules.seat_colours(2) == (0, 2)
    assert rules.seat_colours(3) == (0, 3, 2)
    assert rules.seat_colours(4) == (0, 3, 2, 1)
    state = game.new_game(SEED, 3)
    assert state.seat == 0 and state.colour == RED  # seat 1 (index 0) starts
    assert state.pawns[BLUE] == [] and state.pawns[YELLOW] == [N] * 4
    play_turn(state, Dice(6, 3))  # nothing to play, but the turn passes on
    assert state.seat == 1 and state.colour == YELLOW


# --- decision 2: values ---------------------------------------------------------------


def test_two_dice_give_two_values_and_a_double_gives_its_bottom_faces_too():
    assert rules.roll_values([N] * 4, (4, 3), False).dice == (3, 4)
    assert rules.roll_values([N] * 4, (3, 3), False).dice == (3, 3, 4, 4)
    assert rules.roll_values([N] * 4, (6,), False).dice == (6,)
    # a lone pawn on progress 10 must take all 14 of double 3s (no 5 among 3, 3, 4, 4)
    assert results(position({RED: [10, N, N, N]}), (3, 3)) == {(N, N, N, 24)}


def test_standard_doubles_give_bottom_faces_only_with_no_pawn_in_the_nest():
    assert rules.roll_values([10, N, N, N], (3, 3), True).dice == (3, 3)
    assert rules.roll_values([10, 20, 30, 71], (3, 3), True).dice == (3, 3, 4, 4)
    state = position({RED: [10, N, N, N]}, model=STANDARD)
    assert results(state, (3, 3)) == {(N, N, N, 16)}


# --- decision 3: a 5 ------------------------------------------------------------------


def test_a_die_showing_5_enters_and_the_other_die_moves():
    assert results(position({}), (5, 3)) == {(N, N, N, 3)}


def test_two_dice_totalling_5_enter_together_and_must_be_used_so():
    assert results(position({}), (1, 4)) == {(N, N, N, 0)}
    # with a pawn out, 2 + 3 could move it 5, but an entry is possible, so it enters
    assert results(position({RED: [10, N, N, N]}), (2, 3)) == {(N, N, 0, 10)}


def test_double_2s_give_two_5s_from_their_bottom_faces_and_the_new_blockade_is_free():
    # 2, 2, 5, 5: two entries, then 2 and 2 on the pawns just entered (they may meet again:
    # their blockade was made this turn)
    assert results(position({}), (2, 2)) == {(N, N, 0, 4), (N, N, 2, 2)}


def test_a_capture_bonus_is_never_a_5():
    yellow = on(YELLOW, space(RED, 13))  # a lone yellow pawn on red's progress 13 (space 18)
    state = position({RED: [10, N, N, N], YELLOW: [yellow, N, N, N]})
    got = captured(state, (3, 6))
    # via 13 the capture's 20 moves the only pawn out (to 39); no nest pawn enters with it
    assert got == {(N, N, N, 19): set(), (N, N, N, 39): {18}}


# --- decision 4: entering -------------------------------------------------------------


def test_entering_captures_a_lone_opposing_pawn_on_the_entry_space():
    blue = on(BLUE, track.entry_space(RED))
    state = position({BLUE: [blue, N, N, N]})
    # enter (capture, 20 earned), then the 1 and the 20 both move the entered pawn
    assert captured(state, (5, 1)) == {(N, N, N, 21): {track.entry_space(RED)}}
    rules.apply_position(state, rules.allowed_positions(state, (5, 1))[0])
    assert state.pawns[BLUE] == [N] * 4
    assert state.counters["captures"] == 1 and state.counters["entries"] == 1


@pytest.mark.parametrize(
    "others", [{BLUE: [51, 51, N, N]}, {BLUE: [51, N, N, N], GREEN: [34, N, N, N]}]
)
def test_two_pawns_on_the_entry_space_bar_entering(others):
    assert all(space(c, p[0]) == track.entry_space(RED) for c, p in others.items())
    assert results(position(others), (5, 1)) == {(N, N, N, N)}


def test_entering_onto_a_lone_own_pawn_makes_a_blockade():
    assert results(position({RED: [0, N, N, N]}), (5,)) == {(N, N, 0, 0)}


def test_entering_onto_an_own_pawn_sharing_the_space_with_an_opposing_one_captures_it():
    # Red's entry space holds a red pawn and a blue one (a mixed pair: the space is safe).
    # A 5 still enters (one own pawn there is fine): the blue pawn goes back to its nest,
    # 20 is earned, and 1 and 20 move on: both on one pawn (0, 21) or one each (1, 20).
    entry = track.entry_space(RED)
    state = position({RED: [0, N, N, N], BLUE: [on(BLUE, entry), N, N, N]})
    assert captured(state, (5, 1)) == {(N, N, 0, 21): {entry}, (N, N, 1, 20): {entry}}
    rules.apply_position(state, rules.allowed_positions(state, (5, 1))[0])
    assert state.pawns[BLUE] == [N] * 4
    assert state.counters["captures"] == 1 and state.counters["entries"] == 1


# --- decision 5: values move separately -------------------------------------------------


def test_a_pawn_taking_two_values_must_be_able_to_stop_between():
    # a blue and a green pawn share space 17 (red's 12, safe): full, but passable
    mixed = {BLUE: [on(BLUE, 17), N, N, N], GREEN: [on(GREEN, 17), N, N, N]}
    state = position({RED: [10, HOME, HOME, HOME], **mixed})
    # 2 then 6 would stop on the full space; 6 then 2 passes it and stops on 16
    assert results(state, (2, 6)) == {(18, HOME, HOME, HOME)}
    assert results(state, (2,)) == {(10, HOME, HOME, HOME)}  # the 2 alone: lost


# --- decision 6: blockades ----------------------------------------------------------------


def test_no_pawn_passes_or_lands_on_a_blockade_not_even_its_own_colour():
    state = position({RED: [18, 20, 20, HOME]})
    # the pawn on 18 can move 1 (to 19) but not past 20 until a blockade pawn leaves
    assert results(state, (1, 2)) == {
        (19, 20, 22, HOME),
        (20, 20, 21, HOME),  # a blockade pawn moves 1, then 18 joins the other: a new pair
        (18, 20, 23, HOME),
        (18, 21, 22, HOME),
    }


def test_a_blockade_in_the_home_strip_blocks_too():
    state = position({RED: [64, 66, 66, HOME]})
    assert results(state, (3, 4)) == {
        (64, 69, 70, HOME),
        (66, 68, 69, HOME),
        (66, 67, 70, HOME),
    }


def test_an_opposing_blockade_stops_a_pawn_and_its_values_are_lost():
    yellow = on(YELLOW, space(RED, 14))
    state = position({RED: [10, HOME, HOME, HOME], YELLOW: [yellow, yellow, N, N]})
    assert results(state, (6, 4)) == {(10, HOME, HOME, HOME)}
    assert results(state, (1, 2)) == {(13, HOME, HOME, HOME)}


# --- decision 7: landing ------------------------------------------------------------------


def test_landing_on_a_lone_pawn_on_a_safe_space_shares_it():
    blue = on(BLUE, 17)  # red's progress 12, a safe space
    state = position({RED: [10, HOME, HOME, HOME], BLUE: [blue, N, N, N]})
    assert captured(state, (2,)) == {(12, HOME, HOME, HOME): set()}


def test_landing_on_a_lone_opposing_pawn_elsewhere_captures_it():
    yellow = on(YELLOW, space(RED, 13))
    state = position({RED: [10, HOME, HOME, HOME], YELLOW: [yellow, N, N, N]})
    assert captured(state, (3,)) == {(33, HOME, HOME, HOME): {space(RED, 13)}}


# --- decision 8: breaking a blockade ----------------------------------------------------


def test_a_blockade_at_the_start_may_not_stand_together_again():
    state = position({RED: [20, 20, HOME, HOME]})
    # double 3s: 3, 3, 4, 4 over the two pawns; 3 + 4 each would bring them together on 27
    assert results(state, (3, 3)) == {
        (20, 34, HOME, HOME),
        (23, 31, HOME, HOME),
        (24, 30, HOME, HOME),
        (26, 28, HOME, HOME),
    }


# --- decision 9: the capture bonus ------------------------------------------------------


def test_a_capture_earns_20_before_or_after_the_other_dice_and_may_chain():
    first = on(YELLOW, space(RED, 13))
    second = on(YELLOW, space(RED, 33))
    state = position({RED: [10, HOME, HOME, HOME], YELLOW: [first, second, N, N]})
    assert captured(state, (3, 6)) == {
        (19, HOME, HOME, HOME): set(),  # 6 then 3: no capture (capturing is not compulsory)
        (39, HOME, HOME, HOME): {space(RED, 13)},  # 3 (capture), 6, then the 20
        (59, HOME, HOME, HOME): {space(RED, 13), space(RED, 33)},  # 3, the 20 (again), ...
    }


def test_a_bonus_no_pawn_can_use_is_lost():
    yellow = on(YELLOW, space(RED, 59))  # a capture on red's 59 earns 20 no pawn can use
    state = position({RED: [56, HOME, HOME, HOME], YELLOW: [yellow, N, N, N]})
    assert captured(state, (3,)) == {(59, HOME, HOME, HOME): {space(RED, 59)}}


# --- decision 10: home ----------------------------------------------------------------------


def test_home_needs_the_exact_count_and_takes_any_number_of_pawns():
    assert results(position({RED: [66, HOME, HOME, HOME]}), (2, 3)) == {(HOME,) * 4}
    # 4 + 3 would overshoot: one die only, and the larger (decision 12)
    assert results(position({RED: [66, HOME, HOME, HOME]}), (4, 3)) == {(70, HOME, HOME, HOME)}


# --- decision 11: using the roll ---------------------------------------------------------------


def test_values_no_pawn_can_use_are_lost_and_no_pawn_out_without_a_5_is_a_pass():
    assert results(position({RED: [68, HOME, HOME, HOME]}), (1, 6)) == {(69, HOME, HOME, HOME)}
    state = position({})
    assert results(state, (6, 3)) == {(N,) * 4}
    state.apply((3, 6))
    assert len(state.legal_actions()) == 1  # one result: no decision for the forward model
    state.apply(state.legal_actions()[0])
    assert state.counters["passes"] == 1


# --- decision 12: priorities ---------------------------------------------------------------------


def test_the_most_entries_come_first_even_at_equal_pips():
    # 5 + 6 could move the pawn on 30 eleven spaces; entering with the 5 comes first
    assert results(position({RED: [30, N, N, N]}), (5, 6)) == {(N, N, 0, 36), (N, N, 6, 30)}


def test_then_the_most_dice_pips():
    # the pawn on 64 can take the 6 or the 2 but not both: the 6 it is
    assert results(position({RED: [64, HOME, HOME, HOME]}), (6, 2)) == {(70, HOME, HOME, HOME)}


# --- decision 13: the random bot --------------------------------------------------------------


def test_results_are_distinct_positions_in_a_fixed_order():
    state = position({RED: [10, 20, HOME, HOME]})
    got = rules.allowed_positions(state, (3, 4))
    assert got == sorted(got)
    assert [p.own for p in got] == [
        (10, 27, HOME, HOME),
        (13, 24, HOME, HOME),
        (14, 23, HOME, HOME),
        (17, 20, HOME, HOME),
    ]
    # two pawns on one space at the start are interchangeable: moving either is one result
    assert results(position({RED: [10, 10, HOME, HOME]}), (3,)) == {(10, 13, HOME, HOME)}


def test_the_random_bot_rolls_both_dice_and_picks_uniformly():
    state = position({RED: [10, 20, HOME, HOME]})
    bot = make_bot("random", SEED)
    rolls = state.chance_outcomes()
    assert len(rolls) == 21 and all(len(dice) == 2 for dice, _ in rolls)
    assert sum(p for _, p in rolls) == pytest.approx(1)
    state.apply((3, 4))
    options = state.legal_actions()
    assert list(options) == rules.allowed_positions(state, (3, 4))
    rng = random.Random(5)
    picks = Counter(bot.choose(state, rng) for _ in range(4000))
    assert set(picks) == set(options)
    assert all(800 < n < 1200 for n in picks.values())


def test_the_greedy_bot_captures_first_then_goes_furthest():
    first = on(YELLOW, space(RED, 13))
    state = position({RED: [10, HOME, HOME, HOME], YELLOW: [first, N, N, N]})
    state.apply((3, 6))
    greedy = make_bot("greedy", SEED)
    assert greedy.choose(state, random.Random(0)).own == (39, HOME, HOME, HOME)
    state = position({RED: [10, 20, HOME, HOME]})
    state.apply((3, 4))
    # equal progress everywhere; then safety: red's 24 is space 29 and red's 17 space 22
    safest = {(13, 24, HOME, HOME), (17, 20, HOME, HOME)}
    picks = {greedy.choose(state, random.Random(i)).own for i in range(40)}
    assert picks == safest


# --- decision 14: the end ---------------------------------------------------------------------


def test_the_first_colour_with_all_four_home_wins():
    state = position({RED: [70, HOME, HOME, HOME], BLUE: [60, 60, HOME, HOME]})
    play_turn(state, Dice(1, 6))
    assert state.outcome().end == "home" and state.winner == 0 and state.turns == 1
    assert state.leaders == [0]


def test_a_game_still_running_after_1000_turns_times_out():
    state = position({})
    state.turns = rules.MAX_TURNS - 1
    play_turn(state, Dice(6, 4))
    assert state.outcome().end == "timeout" and state.winner is None


# --- option standard ------------------------------------------------------------------------------


def test_standard_rolls_again_after_a_double_within_the_same_turn():
    state = position({RED: [10, 30, 40, 50]}, model=STANDARD)
    play_turn(state, Dice(3, 3, 1, 2))
    assert state.turns == 1 and state.seat == 1
    assert sum(state.pawns[RED]) == 10 + 30 + 40 + 50 + 14 + 3


def test_standard_third_double_is_not_played_and_sends_the_leading_pawn_to_its_nest():
    state = position({RED: [N, N, N, 60]}, model=STANDARD)
    dice = Dice(1, 1, 3, 3, 4, 4)
    play_turn(state, dice)
    # double 1s and 3s (pawns in the nest: top faces only) took the pawn to 62, then 68 in
    # the strip; the third double is not played and that pawn goes back to its nest
    assert state.pawns[RED] == [N] * 4
    assert state.turns == 1 and dice.faces == []


def test_standard_home_earns_10_for_another_pawn():
    state = position({RED: [66, 20, HOME, HOME]}, model=STANDARD)
    assert (30, HOME, HOME, HOME) in results(state, (2, 3))
    assert (30, HOME, HOME, HOME) not in results(position({RED: [66, 20, HOME, HOME]}), (2, 3))


# --- rolling one die ------------------------------------------------------------------------------


def test_one_die_gives_only_its_value():
    state = position({RED: [10, N, N, N]})
    assert rules.roll_values(state.pawns[RED], (5,), False).pair is False
    assert results(state, (4,)) == {(N, N, N, 14)}
    assert results(state, (5,)) == {(N, N, 0, 10)}  # a 5 still enters


CHOOSE = rules.with_rules(SEED, dice="choose")


def test_where_the_players_choose_each_roll_begins_with_both_dice_or_one():
    # A lone red pawn 3 from home (progress 68). Rolling one die: a 3 takes it home, a 4
    # cannot move it and the turn passes; no bottom faces, no 5-pair.
    state = position({RED: [68, HOME, HOME, HOME]}, model=CHOOSE)
    assert state.current_player() == state.seat and state.legal_actions() == ("both", "one")
    state.apply("one")
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == tuple(((d,), 1 / 6) for d in range(1, 7))
    assert state.action_str((4,)) == "4"
    home = state.clone()
    home.apply((3,))
    home.apply(home.legal_actions()[0])
    assert home.outcome().end == "home" and home.winner == 0
    state.apply((4,))
    assert state.legal_actions() == (rules.Position((68, HOME, HOME, HOME)),)
    state.apply(state.legal_actions()[0])
    assert state.seat == 1 and state.legal_actions() == ("both", "one")  # the next choice
    state.apply("both")
    assert len(state.chance_outcomes()) == 21  # both dice, as by default


def test_by_default_every_roll_is_of_both_dice_and_greedy_always_rolls_both():
    assert position({}).current_player() == CHANCE
    state = position({}, model=CHOOSE)
    greedy = make_bot("greedy")
    assert {greedy.choose(state, random.Random(s)) for s in range(20)} == {"both"}
    drawn = Counter(make_bot("random").choose(state, random.Random(s)) for s in range(200))
    assert set(drawn) == {"both", "one"} and min(drawn.values()) > 70
