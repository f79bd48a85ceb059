"""Exploding Dice rules, one hand-worked position per rule (the readable rules).

Positions are drawn as pictures: one row per line, top row first, each cell `.` or a
colour letter (R red, G green, B blue, P purple) and the face it shows. Entries are
numbered as `play_model` lists them: N0-N3 = 0-3, E0-E3 = 4-7, S0-S3 = 8-11, W0-W3 = 12-15.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pnp.games.exploding_dice import rules
from pnp.games.exploding_dice.params import ExplodingDiceParams, play_model
from pnp.games.exploding_dice.rules import Step, Termination
from pnp.games.exploding_dice.rules.bots import entry_value, make_bot
from pnp.play.forward import RandomBot, play
from pnp.play.state import CHANCE

LETTERS = {"R": 0, "G": 1, "B": 2, "P": 3}
N0, E0, S0, W0 = 0, 4, 8, 12


def position(
    picture: str,
    scores=(0, 0, 0, 0),
    owners=((0,), (1,), (2,), (3,)),
    **params,
) -> rules.State:
    """A state with the pictured grid; every die not on the grid is in the reserve."""
    model = play_model(ExplodingDiceParams(**params))
    board = rules.Board.of(model)
    n = model.n
    free = {c: [d for d, die in enumerate(model.dice) if die.colour == c] for c in range(4)}
    grid: list[int | None] = [None] * (n * n)
    shown = [0] * (n * n)
    rows = [r.split() for r in picture.strip().splitlines()]
    assert len(rows) == n and all(len(r) == n for r in rows)
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            if token != ".":
                grid[r * n + c] = free[LETTERS[token[0]]].pop(0)
                shown[r * n + c] = int(token[1])
    reserve = sorted(d for ds in free.values() for d in ds)
    return rules.State(model, board, tuple(owners), grid, shown, reserve, list(scores))


def picture(state: rules.State) -> str:
    names = "RGBP"
    n = state.model.n
    out = []
    for r in range(n):
        cells = []
        for c in range(n):
            d = state.grid[r * n + c]
            face = state.shown[r * n + c]
            cells.append("." if d is None else f"{names[state.colour_of(d)]}{face}")
        out.append(" ".join(cells))
    return "\n".join(out)


def same(a: str, b: str) -> bool:
    def rows(text: str) -> list[list[str]]:
        return [r.split() for r in text.strip().splitlines()]

    return rows(a) == rows(b)


class Scripted:
    """Records what it is offered; picks by the given functions (default: the first)."""

    name = "scripted"

    def __init__(self, colour=None, entry=None):
        self.colour_offers: list[list[int]] = []
        self.entry_offers: list[list[int]] = []
        self.colour = colour or (lambda opts: opts[0])
        self.entry = entry or (lambda opts: opts[0])

    def choose(self, state, rng):
        options = state.legal_actions()
        if state.step is Step.COLOUR:
            self.colour_offers.append(options)
            return self.colour(options)
        self.entry_offers.append(options)
        return self.entry(options)


def in_hand(state: rules.State, colour: int, face: int) -> int:
    """Walk `state` to its entry choice with a die of `colour` showing `face`; the die."""
    assert colour in state.legal_actions()
    state.apply(colour)
    die = state.chance_outcomes()[0][0]
    state.apply(die)
    state.apply(face)
    assert state.step is Step.ENTRY
    return die


# A 15-dice grid with (0,0) empty where a red die fits nowhere: W0 and N0 would land it at
# (0,0) beside R(0,1); E0 would land it at (0,3) beside R(1,3); S0 would push column 0 up
# and land it at (3,0) beside R(3,1). No two neighbours share a colour or a number.
# Zone values: top-left 15, top-right 6, bottom-right 12, bottom-left 6.
RED_BLOCKED = """
.  R6 G1 B2
G5 B4 P2 R1
B1 P2 G3 P4
P2 R1 B4 G1
"""


# --- setup ----------------------------------------------------------------------------


def test_setup_puts_one_die_of_each_colour_on_its_corner_showing_1():
    model = play_model(ExplodingDiceParams())
    state = rules.new_game(model, 4, random.Random(3))
    assert same(picture(state), "R1 . . G1\n. . . .\n. . . .\nP1 . . B1")
    assert len(state.reserve) == 12
    for colour in range(4):  # the start die is die 0 of its colour
        first = min(d for d, die in enumerate(model.dice) if die.colour == colour)
        assert first in state.grid and first not in state.reserve
    assert sorted(c for cs in state.owners for c in cs) == [0, 1, 2, 3]


def test_first_player_and_colours_are_dealt_at_random():
    model = play_model(ExplodingDiceParams())
    firsts = Counter(rules.new_game(model, 4, random.Random(i)).owners[0] for i in range(400))
    assert set(firsts) == {(0,), (1,), (2,), (3,)}
    assert all(60 < k < 140 for k in firsts.values())


# --- step 1: highest zone ---------------------------------------------------------------


def test_zone_values_sum_the_faces_of_every_colour():
    s = position(RED_BLOCKED)
    assert rules.zone_values(s) == [15, 6, 12, 6]
    assert rules.highest_zone(s) == 0


def test_tied_highest_zones_have_no_highest_zone():
    s = position(
        """
        R6 .  .  G6
        .  .  .  .
        .  .  .  .
        P1 .  .  B1
        """
    )
    assert rules.zone_values(s) == [6, 6, 1, 1]
    assert rules.highest_zone(s) is None


# --- step 2: draw -----------------------------------------------------------------------


def test_draw_takes_the_highest_zones_colour():
    s = position(RED_BLOCKED, scores=(9, 0, 0, 0))
    assert rules.draw_options(s) == [0]  # red, although red has the highest score


def test_tied_zones_draw_the_lowest_scoring_colour_and_the_player_picks_among_ties():
    empty_top = "R6 . . G6\n. . . .\n. . . .\nP1 . . B1"
    assert rules.draw_options(position(empty_top, scores=(5, 3, 4, 9))) == [1]
    assert rules.draw_options(position(empty_top, scores=(5, 3, 3, 9))) == [1, 2]


NO_RED_LEFT = """
    R6 R5 G1 .
    R4 .  .  .
    R3 P1 P2 P3
    P4 .  .  B1
    """
"""Red's zone is highest (15) but all four red dice and all four purple ones are on the
grid: the reserve holds green and blue dice only."""


def test_without_the_highest_zones_colour_the_lowest_on_the_track_with_a_die_is_drawn():
    # Red and green share the lowest score; red has no reserve die, green has: green.
    s = position(NO_RED_LEFT, scores=(0, 0, 7, 1))
    assert rules.highest_zone(s) == 0
    assert {s.colour_of(d) for d in s.reserve} == {1, 2}
    assert rules.draw_options(s) == [1]


def test_when_no_lowest_scoring_colour_has_a_die_any_reserve_die_may_be_drawn():
    # The seed: red (0) is lowest on the track and has no die left, so the player takes
    # any die of the reserve: green or blue, although green (2) scores below blue (7) and
    # purple (1), second lowest, has none either.
    s = position(NO_RED_LEFT, scores=(0, 2, 7, 1))
    assert rules.draw_options(s) == [1, 2]
    s.scores[:] = [3, 2, 7, 1]  # purple lowest, none left: again any die
    assert rules.draw_options(s) == [1, 2]
    s.scores[:] = [3, 2, 7, 4]  # green lowest, with dice left: green only
    assert rules.draw_options(s) == [1]


def test_an_empty_reserve_ends_the_game():
    s = position(RED_BLOCKED)
    s.reserve.clear()
    rules.begin_turn(s)
    assert s.ended is Termination.RESERVE


def test_a_roll_is_a_uniform_choice_of_the_dies_own_faces():
    faces = {
        "red": ((1, 6, 6, 6, 6, 6), (2, 2, 2, 2, 2, 2), (1, 1, 1, 1, 1, 6), (1, 2, 3, 4, 5, 6))
    }
    s = position(RED_BLOCKED, faces=faces)
    rng = random.Random(5)
    assert {rules.roll(s, 1, rng) for _ in range(50)} == {2}
    sixes = sum(rules.roll(s, 2, rng) == 6 for _ in range(6000))
    assert 880 < sixes < 1120  # 1000 expected, sd 29


def test_a_draw_among_unequal_dice_is_blind_and_among_equal_dice_takes_the_first():
    # Red's reserve dice (1, 2, 3) carry different faces: which one comes out is chance.
    # Green's are all standard dice: the draw has one outcome, the lowest die id.
    faces = {
        "red": ((1, 6, 6, 6, 6, 6), (2, 2, 2, 2, 2, 2), (1, 1, 1, 1, 1, 6), (1, 2, 3, 4, 5, 6))
    }
    s = position("R1 . . G1\n. . . .\n. . . .\nP1 . . B1", faces=faces)
    assert rules.draw_candidates(s, 0) == [1, 2, 3]
    assert rules.draw_candidates(s, 1) == [5]
    assert s.legal_actions() == [0, 1, 2, 3]  # zones and scores tie: any colour
    assert [s.action_str(c) for c in s.legal_actions()] == ["red", "green", "blue", "purple"]
    s.apply(0)
    assert s.current_player() == CHANCE
    assert s.chance_outcomes() == [(1, 1 / 3), (2, 1 / 3), (3, 1 / 3)]
    assert s.action_str(2) == "die 2"
    s.apply(2)
    assert s.chance_outcomes() == [(1, 5 / 6), (6, 1 / 6)]  # the die's own faces
    assert s.action_str(6) == "roll 6"
    s.apply(6)
    assert s.step is Step.ENTRY and s.current_player() == s.seat
    assert [s.action_str(e) for e in (N0, N0 + 1, E0, S0 + 3, W0)] == ["N0", "N1", "E0", "S3", "W0"]


# --- step 3: place ----------------------------------------------------------------------

ROW = """
.  G2 .  R4
.  .  .  .
.  .  .  .
.  .  .  .
"""


@pytest.mark.parametrize(
    "entry, after",
    [
        # from the west the die travels east: the row packs against the east border in its
        # old order and the new die (B5) comes last
        (W0, ". B5 G2 R4"),
        # from the east it travels west: packed against the west border
        (E0, "G2 R4 B5 ."),
    ],
)
def test_a_die_slides_in_and_packs_its_line_against_the_far_border(entry, after):
    s = position(ROW)
    die = next(d for d in s.reserve if s.colour_of(d) == 2)
    rules.place(s, entry, die, 5)
    assert picture(s).splitlines()[0].split() == after.split()
    assert picture(s).splitlines()[1:] == [". . . ."] * 3


def test_a_column_entry_packs_the_column():
    s = position(
        """
        G2 .  .  .
        .  .  .  .
        R4 .  .  .
        .  .  .  .
        """
    )
    die = next(d for d in s.reserve if s.colour_of(d) == 2)
    rules.place(s, N0, die, 5)  # travels south
    assert [row.split()[0] for row in picture(s).splitlines()] == [".", "B5", "G2", "R4"]
    s2 = position("G2 . . .\n. . . .\nR4 . . .\n. . . .")
    rules.place(s2, S0, die, 5)  # travels north
    assert [row.split()[0] for row in picture(s2).splitlines()] == ["G2", "R4", "B5", "."]


def test_a_full_line_cannot_be_entered():
    s = position("G1 R2 G3 R4\n. . . .\n. . . .\n. . . .")
    die = next(d for d in s.reserve if s.colour_of(d) == 2)
    legal = rules.legal_entries(s, die, 5)
    assert W0 not in legal and E0 not in legal
    assert len(legal) == 14


def test_the_new_die_must_not_end_beside_its_own_colour_after_the_push():
    # Row 0 is ". G2 R4 .". A red die from the west pushes the row east: it ends beside G2,
    # legal. From the east it ends beside the R4 it pushed: illegal.
    s = position(". G2 R4 .\n. . . .\n. . . .\n. . . .")
    red = next(d for d in s.reserve if s.colour_of(d) == 0)
    legal = rules.legal_entries(s, red, 1)
    assert W0 in legal
    assert E0 not in legal
    # Column 2 from the north: R4 is pushed down to (3,2) and the new die ends right
    # above it on (2,2): illegal, although R4 was nowhere near (2,2) before the push.
    assert 2 not in legal
    # Column 1 from the north: G2 goes to (3,1), the die to (2,1), beside nothing: legal.
    assert 1 in legal


def test_the_restriction_counts_neighbours_across_the_line_too():
    # Row 1 entered from the west lands the die on (1,0); R3 sits just above it.
    s = position("R3 . . .\n. . . .\n. . . .\n. . . .")
    red = next(d for d in s.reserve if s.colour_of(d) == 0)
    green = next(d for d in s.reserve if s.colour_of(d) == 1)
    # from the west the die lands on (1,3) (far border): not beside R3
    assert 13 in rules.legal_entries(s, red, 2)
    # from the east it lands on (1,0), right under R3
    assert 5 not in rules.legal_entries(s, red, 2)
    assert 5 in rules.legal_entries(s, green, 2)


def test_dice_already_on_the_grid_may_touch_their_own_colour():
    # Two greens already touch; a blue die may still go in anywhere the line has room.
    s = position("G1 G2 . .\n. . . .\n. . . .\n. . . .")
    blue = next(d for d in s.reserve if s.colour_of(d) == 2)
    assert len(rules.legal_entries(s, blue, 3)) == 16


# --- steps 4 and 5: score and explode ---------------------------------------------------


def test_every_die_beside_its_own_colour_scores_its_face():
    s = position(
        """
        R3 R4 .  .
        .  .  G2 .
        .  .  .  B5
        .  .  .  B1
        """
    )
    gains = rules.score_and_explode(s)
    assert gains == [7, 0, 6, 0]
    assert s.scores == [7, 0, 6, 0]
    assert sum(d is not None for d in s.grid) == 5  # nothing exploded


def test_equal_numbers_explode_score_again_and_leave_together():
    # R3 R3 touch: each scores 3 for its colour (step 4) and 3 again for the number
    # (step 5). G3 touches the second R3, so it explodes too (3 for green). The pair
    # P5 B5 is one die each, so each scores only for the number. All five leave at once.
    s = position(
        """
        R3 R3 .  .
        .  G3 .  .
        .  .  .  .
        P5 B5 .  .
        """
    )
    reserve_before = len(s.reserve)
    gains = rules.score_and_explode(s)
    assert gains == [12, 3, 5, 5]
    assert all(d is None for d in s.grid)
    assert len(s.reserve) == reserve_before + 5


def test_explosion_needs_an_equal_neighbour_not_just_any_equal_number():
    s = position("R3 . G3 .\n. . . .\n. . . .\n. . . .")
    assert rules.score_and_explode(s) == [0, 0, 0, 0]
    assert sum(d is not None for d in s.grid) == 2


# --- end of the game --------------------------------------------------------------------


def _turn(state, bot=None, seed=1):
    """Play one whole turn: the seat's choices by `bot`, chance with `seed`."""
    rng, bot, turns = random.Random(seed), bot or RandomBot(), state.turns
    while not state.is_terminal() and state.turns == turns:
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(bot.choose(state, rng))
    return state


def test_fifty_points_end_the_game_even_for_a_colour_nobody_plays():
    # Two players (green and blue). Red, unowned, has 48 and its pair R1 R2 scores 3.
    s = position(
        """
        R1 R2 .  .
        .  .  .  .
        .  .  G3 .
        .  .  .  B4
        """,
        scores=(48, 10, 12, 0),
        owners=((1,), (2,)),
    )
    assert rules.end_reason(s) is None
    assert rules.score_and_explode(s) == [3, 0, 0, 0]
    assert s.scores == [51, 10, 12, 0]
    assert rules.end_reason(s) is Termination.FIFTY
    assert rules.winners(s) == (1,)  # the blue seat: only owned colours count for winning


def test_a_full_grid_ends_the_game():
    s = position(RED_BLOCKED.replace(".  R6", "R3 R6"))
    assert rules.end_reason(s) is Termination.FULL
    s.grid[0], s.shown[0] = None, 0
    assert rules.end_reason(s) is None


def test_equal_scores_share_the_win():
    s = position(RED_BLOCKED, scores=(30, 51, 12, 51))
    assert rules.winners(s) == (1, 3)
    s2 = position(RED_BLOCKED, scores=(30, 51, 12, 51), owners=((0, 1), (2, 3)))
    assert s2.seat_scores() == [81, 63]
    assert rules.winners(s2) == (0,)


def test_two_colours_each_ends_on_a_single_colour_not_a_players_sum():
    s = position(RED_BLOCKED, scores=(30, 30, 1, 1), owners=((0, 1), (2, 3)))
    assert s.seat_scores() == [60, 2]
    assert rules.end_reason(s) is None
    s.scores[2] = 50
    assert rules.end_reason(s) is Termination.FIFTY


def test_a_whole_turn_draws_places_scores_and_passes_to_the_next_seat():
    model = play_model(ExplodingDiceParams())
    s = rules.new_game(model, 4, random.Random(1))
    s.seat = 3
    bot = Scripted()
    _turn(s, bot)
    assert bot.colour_offers == [[0, 1, 2, 3]]  # zones tie at 1: lowest scores, all 0
    assert len(bot.entry_offers) == 1
    assert s.turns == 1 and s.seat == 0
    on_grid = [d for d in s.grid if d is not None]
    assert len(on_grid) + len(s.reserve) == 16 and len(set(on_grid) | set(s.reserve)) == 16
    assert len(on_grid) in (5, 3)  # placed, or placed beside an equal start die and exploded


# --- stalls -----------------------------------------------------------------------------


def test_red_really_fits_nowhere_in_the_blocked_position():
    s = position(RED_BLOCKED)
    red = s.reserve[0]
    assert s.colour_of(red) == 0 and len(s.reserve) == 1
    assert rules.legal_entries(s, red, 3) == []
    assert rules.legal_entries(s, red, 3, restricted=False) == [N0, E0, S0, W0]


def test_redraw_tries_the_lowest_scoring_untried_colour_next():
    # Five dice a colour, so the reserve holds red x2 and one each of the others. Red (the
    # highest zone) fits nowhere; blue and purple tie for the lowest score: the player
    # picks (blue); blue fits (from the west it lands on (0,0), beside R6 and G5).
    s = position(RED_BLOCKED, scores=(0, 5, 3, 3), dice_per_colour=5)
    bot = Scripted(colour=lambda opts: opts[0])
    _turn(s, bot)
    assert bot.colour_offers == [[0], [2, 3]]
    # blue fits at N0 and W0 (onto (0,0)) and S0 (onto (3,0)); from E0 it would end
    # beside the B2 it pushed
    assert bot.entry_offers == [[N0, S0, W0]]
    assert sum(s.colour_of(d) == 0 for d in s.reserve) == 2  # the red die went back


def test_redraw_offers_a_single_lowest_colour():
    s = position(RED_BLOCKED, scores=(0, 1, 3, 3), dice_per_colour=5)
    bot = Scripted()
    _turn(s, bot)
    assert bot.colour_offers == [[0], [1]]
    # green may not land on (0,0) beside G5, so N0 and W0 are out
    assert bot.entry_offers == [[E0, S0]]


def test_when_no_colour_fits_the_first_die_goes_in_ignoring_the_restriction():
    s = position(RED_BLOCKED)
    red = s.reserve[0]
    bot = Scripted(entry=lambda opts: opts[-1])  # from the west, onto (0,0)
    _turn(s, bot)
    assert bot.colour_offers == [[0]]  # no other colour in the reserve to try
    assert bot.entry_offers == [[N0, E0, S0, W0]]  # every entry with room, restriction off
    assert s.grid[0] == red or red in s.reserve  # placed on (0,0) (and maybe exploded)


def test_skip_rule_sends_the_die_back_and_a_quiet_round_ends_the_game_as_stalled():
    s = position(RED_BLOCKED, stall="skip")
    grid = list(s.grid)
    bot = Scripted()
    for seat in range(3):
        _turn(s, bot, seed=seat)
        assert s.grid == grid and s.ended is None and s.scores == [0, 0, 0, 0]
    _turn(s, bot, seed=9)
    assert s.ended is Termination.STALLED and s.turns == 4
    assert bot.entry_offers == []  # the die never went in


def test_skip_rule_still_scores_and_scoring_is_not_a_stall():
    # Red is still blocked, but a green pair (G5 over G1) and a blue pair (B3 over B4)
    # score 6 and 7 every turn although no die goes in: blue reaches 50 on turn 8.
    blocked_with_pairs = """
    .  R6 G1 B2
    G5 B4 P2 R1
    G1 P2 B3 P4
    P2 R1 B4 G1
    """
    s = position(blocked_with_pairs, stall="skip")
    grid = list(s.grid)
    while s.ended is None:
        _turn(s, seed=s.turns)
    assert s.grid == grid
    assert s.ended is Termination.FIFTY and s.turns == 8
    assert s.scores == [0, 48, 56, 0]


def test_a_turn_cap_ends_a_game_as_timeout(monkeypatch):
    monkeypatch.setattr(rules, "MAX_TURNS", 3)
    model = play_model(ExplodingDiceParams())
    state = play(rules.new_game(model, 2, random.Random(1)), RandomBot(), random.Random(1)).state
    assert state.outcome().end == "timeout" and state.turns == 3


# --- bots -------------------------------------------------------------------------------


def test_random_bot_picks_entries_uniformly():
    s = position("R3 . . .\n. . . .\n. . . .\n. . . .")
    red = in_hand(s, 0, 2)
    legal = rules.legal_entries(s, red, 2)
    assert s.legal_actions() == legal
    rng = random.Random(2)
    bot = RandomBot()
    picks = Counter(bot.choose(s, rng) for _ in range(len(legal) * 300))
    assert len(legal) == 10  # six entries would land beside R3
    assert set(picks) == set(legal)
    assert all(200 < k < 400 for k in picks.values())


def test_greedy_bot_takes_the_best_margin_for_its_own_colours():
    # Two players: green (to play, a G4) and red. Blue B4 on (0,3) belongs to nobody.
    # Landing beside B4 explodes both fours: green +4, blue +4, red 0: margin 4.
    # Entries that land beside it: N3 (B4 pushed to (3,3), die on (2,3)), E0 (B4 pushed to
    # (0,0), die on (0,1)), S2 (die on (0,2)), S3 and W1 (die on (1,3)), W0 (die on (0,2)).
    s = position(". . . B4\n. . . .\n. . . .\n. . . .", owners=((1,), (0,)))
    s.seat = 0
    green = in_hand(s, 1, 4)  # green: the highest zone's colour
    legal = rules.legal_entries(s, green, 4)
    assert legal == list(range(16))
    best = {3, E0, 10, 11, W0, 13}
    assert {e: entry_value(s, e, green, 4) for e in legal} == {
        e: (4 if e in best else 0) for e in legal
    }
    greedy = make_bot("greedy", s.model)
    picks = Counter(greedy.choose(s, random.Random(i)) for i in range(300))
    assert set(picks) == best  # only best entries, and every one of them (ties uniform)


def test_greedy_counts_the_best_opponent_against_it():
    # Red (seat 0) against blue. The blue pair B5 over B1 scores 6 for blue whatever red
    # does. R5 from the west lands on (0,2) beside B5: both fives explode, red +5 and blue
    # +5 more, so the margin is 5 - 11. R3 down column 1 scores nothing: 0 - 6.
    s = position(". . . B5\n. . . B1\n. . . .\n. . . .", owners=((0,), (2,)))
    s.seat = 0
    red = next(d for d in s.reserve if s.colour_of(d) == 0)
    assert entry_value(s, W0, red, 5) == 5 - 11
    assert entry_value(s, 1, red, 3) == 0 - 6
    s.seat = 1  # from blue's side the same move is worth 11 - 5
    assert entry_value(s, W0, red, 5) == 11 - 5
