"""Desert Home – Immigration rules, one hand-worked position per rule (the readable rules).

Boards are drawn as pictures, one row per line, top row first, columns 0-5: column 0 is a
refuge entry field (rows 1 and 3; `#` = no field), columns 1-4 path slots, column 5 the
camp entry fields. A token is the field's tile then what stands on it:
`_` no tile, `.` safe (entry fields are always `.`), `t` thirst, `k` black, `g` guarded;
then a colour letter (K black, W white, G green, Y yellow, R red, B blue), the figures,
`^n` for n tents and `+` for an escorting water bearer: `tG3+` = a thirst tile with three
green figures and a water bearer. Seat 0 owns the refuge of row 1, seat 1 that of row 3.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from pnp.games.desert_home import engine, rules
from pnp.games.desert_home.kit.supply import supply_verdict
from pnp.games.desert_home.params import DesertHomeParams
from pnp.games.desert_home.rules import (
    BEARER,
    BLACK,
    BOTH,
    DRAW,
    ENTER,
    GROUP,
    GUARDED,
    INFLUX,
    INFLUX_COLOUR,
    MOVE,
    NONE,
    NUMBER,
    P_INFLUX,
    P_INFLUX_COLOUR,
    P_NUMBER,
    P_PLACE,
    P_REROLL,
    P_ROAD,
    P_ROAD_TILE,
    P_SPEND,
    P_SWAP,
    PROTECT,
    REROLL,
    ROAD,
    ROAD_DECLINE,
    ROAD_TILES,
    SAFE,
    SEND,
    STOP,
    SWAP,
    THIRST,
    TILE,
    End,
    goal,
    turn,
)
from pnp.games.desert_home.rules.bots import Judge, make_bot, reroll_mask
from pnp.games.desert_home.rules.fields import frontier
from pnp.games.desert_home.rules.model import CAMP_ENTRY, NO_FIELD, PATH, REFUGE_ENTRY, play_model
from pnp.games.desert_home.rules.moves import legal_actions, sendable
from pnp.games.desert_home.rules.state import State, new_state
from pnp.play.state import CHANCE
from pnp.runtime.errors import PnpError

K, W, G, Y, R, B = range(6)
LETTERS = "KWGYRB"
FACES = {"_": NONE, ".": SAFE, "t": THIRST, "k": BLACK, "g": GUARDED}
TOKEN = re.compile(r"^([_.tkg#])(?:([KWGYRB])(\d+)(?:\^(\d+))?(\+)?)?$")
EMPTY = """
#  _  _  _  _  .
.  _  _  _  _  .
#  _  _  _  _  .
.  _  _  _  _  .
#  _  _  _  _  .
"""


def cell(row: int, col: int) -> int:
    return row * 6 + col


REFUGE_0, REFUGE_1 = 30, 31  # the move targets "into seat 0's / seat 1's refuge"


def new_game(model, rng: random.Random, max_rounds: int = rules.MAX_ROUNDS) -> State:
    """Set-up, then seat 0's first throw of the dice, drawn from `rng`."""
    state = new_state(model, 2, rng, max_rounds)
    throw_dice(state, rng)
    return state


def throw_dice(state: State, rng: random.Random) -> None:
    """Throw the dice due (the chance steps) until a seat is to decide."""
    while state.current_player() == CHANCE:
        state.apply(state.sample_chance(rng))


def position(picture: str = EMPTY, **params) -> State:
    """A game at seat 0's spending step with the pictured board; every piece not on the
    board is in the camp, every tile not on the board is in the deck."""
    model = play_model(DesertHomeParams(**params))
    state = new_game(model, random.Random(0))
    rows = [r.split() for r in picture.strip().splitlines()]
    assert len(rows) == model.rows and all(len(r) == model.width for r in rows)
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            i = cell(r, c)
            match = TOKEN.match(token)
            assert match, token
            face, letter, figs, tents, bearer = match.groups()
            if model.kind[i] == PATH and FACES[face] != NONE:
                lay(state, i, FACES[face])
            if letter:
                put(state, i, LETTERS.index(letter), int(figs), int(tents or 0), int(bool(bearer)))
    state.phase, state.points = P_SPEND, 0
    state.legal = None  # the position was set by hand: list the actions afresh
    return state


def lay(state: State, i: int, face: int = SAFE) -> None:
    """A tile from the deck on cell i (a thirst tile for BLACK and GUARDED faces)."""
    state.deck.remove(SAFE if face == SAFE else THIRST)
    state.tile[i] = face
    state.tiles_placed += 1


def put(state: State, i: int, colour: int, figs=1, tents=0, bearer=0) -> None:
    state.camp_figs[colour] -= figs
    state.camp_tents[colour] -= tents
    state.camp_figs[B] -= bearer
    state.colour[i], state.figs[i], state.tents[i], state.bearer[i] = colour, figs, tents, bearer


def in_refuge(state: State, seat: int, colour: int, figs: int, tents: int = 0) -> None:
    state.camp_figs[colour] -= figs
    state.camp_tents[colour] -= tents
    state.refuge_figs[seat][colour] += figs
    state.refuge_tents[seat][colour] += tents


def picture(state: State) -> str:
    m = state.model
    names = {v: k for k, v in FACES.items()}
    out = []
    for r in range(m.rows):
        tokens = []
        for c in range(m.width):
            i = cell(r, c)
            if m.kind[i] == NO_FIELD:
                tokens.append("#")
                continue
            token = names[state.tile[i]] if m.kind[i] == PATH else "."
            if state.colour[i] >= 0:
                token += f"{LETTERS[state.colour[i]]}{state.figs[i]}"
                token += f"^{state.tents[i]}" if state.tents[i] else ""
                token += "+" if state.bearer[i] else ""
            tokens.append(token)
        out.append(" ".join(tokens))
    return "\n".join(out)


def same(state: State, expected: str) -> bool:
    return [r.split() for r in picture(state).splitlines()] == [
        r.split() for r in expected.strip().splitlines()
    ]


def spending(state: State, usable: str, points: int) -> State:
    """Seat 0 spends `points` on the colours named (letters)."""
    state.phase, state.points = P_SPEND, points
    state.usable = [letter in usable for letter in LETTERS]
    state.legal = None
    return state


def moves(state: State) -> set[tuple[int, ...]]:
    return {a for a in legal_actions(state) if a[0] == MOVE}


def do(state: State, action: tuple[int, ...], seed: int = 0) -> None:
    """Play `action` through the State API; dice it leads to are thrown from `seed`."""
    assert action in legal_actions(state), action
    state.apply(action)
    throw_dice(state, random.Random(seed))


def choose(state: State, bot: str = "greedy", rng: random.Random | None = None) -> tuple[int, ...]:
    """The bot's choice in a position set by hand."""
    state.legal = None
    return make_bot(bot, state.model).choose(state, rng or random.Random(0))


# --- model and setup ------------------------------------------------------------------


def test_the_default_board_has_refuge_entries_path_slots_and_camp_entries():
    m = play_model(DesertHomeParams())
    assert (m.rows, m.width, m.cells) == (5, 6, 30)
    assert m.refuge_entries == (cell(1, 0), cell(3, 0))
    assert m.camp_cells == tuple(cell(r, 5) for r in range(5))
    assert len(m.path_cells) == 20
    assert [m.kind[cell(r, 0)] for r in range(5)] == [NO_FIELD, REFUGE_ENTRY] * 2 + [NO_FIELD]
    assert m.kind[cell(2, 5)] == CAMP_ENTRY
    assert m.step[cell(1, 0)] == (REFUGE_0, cell(1, 1), -1, -1)  # west is into the refuge
    assert m.step[cell(3, 0)][0] == REFUGE_1
    assert m.step[cell(2, 1)][0] == -1  # no field west of row 2
    assert m.colours == ("black", "white", "green", "yellow", "red", "blue")
    assert m.blue == B


def test_the_sixth_colour_replaces_the_first_and_blue_is_required():
    assert play_model(DesertHomeParams(sixth_colour="brown")).colours[0] == "brown"
    with pytest.raises(PnpError, match="blue"):
        play_model(DesertHomeParams(sixth_colour="blue"))


def test_setup_puts_every_piece_in_the_camp_and_shuffles_the_deck():
    state = new_game(play_model(DesertHomeParams()), random.Random(4))
    assert state.camp_figs == [12] * 6 and state.camp_tents == [2] * 6
    assert Counter(state.deck) == {SAFE: 24, THIRST: 12}
    assert state.refuge_figs == [[0] * 6, [0] * 6]
    assert (state.seat, state.round, state.cards) == (0, 1, 6)
    decks = {tuple(new_game(state.model, random.Random(i)).deck) for i in range(5)}
    assert len(decks) == 5


# --- step 1: roll and re-roll --------------------------------------------------------


def test_only_the_dice_thrown_together_count_for_a_triple():
    assert rules.has_triple([2, 2, 2, 5, 6, 1], 0b111111)
    assert not rules.has_triple([2, 2, 2, 5, 6, 1], 0b111000)  # the 2s were kept
    assert rules.has_triple([2, 2, 2, 5, 6, 1], 0b000111)


def test_a_roll_with_three_alike_offers_a_reroll_of_any_dice():
    seen = set()
    for seed in range(40):
        state = new_game(play_model(DesertHomeParams()), random.Random(seed))
        triple = rules.has_triple(state.dice, 0b111111)
        assert (state.phase == P_REROLL) == triple
        seen.add(triple)
        if triple:
            assert legal_actions(state) == [(REROLL, mask) for mask in range(64)]
    assert seen == {True, False}


def test_a_reroll_throws_only_the_chosen_dice_and_keeping_goes_on_to_the_influx():
    state = position()
    state.dice, state.phase = [3, 3, 3, 5, 6, 2], P_REROLL
    do(state, (REROLL, 0b000011))  # two dice cannot show a triple: the roll is final
    assert state.dice[2:] == [3, 5, 6, 2]
    assert state.thrown == 0b000011
    assert state.phase != P_REROLL
    state = position()
    state.dice, state.phase = [3, 3, 3, 5, 6, 2], P_REROLL
    do(state, (REROLL, 0))
    assert state.dice == [3, 3, 3, 5, 6, 2] and state.phase == P_NUMBER  # blue is lowest


# --- step 2: influx -----------------------------------------------------------------


def influx_after(dice: list[int], state: State | None = None) -> State:
    state = state or position()
    state.dice = dice
    turn.begin_influx(state)
    return state


def test_each_non_blue_die_showing_the_lowest_number_brings_one_figure():
    state = influx_after([3, 1, 1, 4, 5, 6])  # white and green show the lowest
    assert state.phase == P_INFLUX and state.pending == [W, G]
    assert legal_actions(state) == [(INFLUX, cell(r, 5)) for r in range(5)]
    do(state, (INFLUX, cell(0, 5)))
    assert legal_actions(state) == [(INFLUX, cell(r, 5)) for r in range(1, 5)]
    do(state, (INFLUX, cell(4, 5)))
    assert state.phase == P_NUMBER
    assert (state.camp_figs[W], state.camp_figs[G]) == (11, 11)
    assert same(
        state,
        """
        #  _  _  _  _  .W1
        .  _  _  _  _  .
        #  _  _  _  _  .
        .  _  _  _  _  .
        #  _  _  _  _  .G1
        """,
    )


def test_blue_on_the_lowest_number_brings_no_figure():
    assert influx_after([2, 3, 4, 5, 6, 1]).phase == P_NUMBER
    state = influx_after([1, 3, 4, 5, 6, 1])  # black and blue: only black
    assert state.pending == [K]


def test_three_lowest_dice_with_blue_bring_one_figure_of_the_players_choice():
    state = influx_after([1, 1, 4, 5, 6, 1])
    assert state.phase == P_INFLUX_COLOUR
    assert legal_actions(state) == [(INFLUX_COLOUR, K), (INFLUX_COLOUR, W)]
    do(state, (INFLUX_COLOUR, W))
    assert state.pending == [W]
    do(state, (INFLUX, cell(2, 5)))
    assert state.camp_figs[:2] == [12, 11] and state.phase == P_NUMBER


def test_three_lowest_with_blue_offers_only_colours_left_in_the_camp():
    state = position()
    state.camp_figs[K] = 0
    state = influx_after([1, 1, 4, 5, 6, 1], state)
    assert legal_actions(state) == [(INFLUX_COLOUR, W)]


def test_three_lowest_with_blue_offer_only_colours_that_can_come_in():
    """Black and white show the lowest number with blue. Every camp entry field is taken:
    white can still push the lone white figure of row 1 onto the tile west of it, black
    has no field at all, so picking black would dodge the influx: only white is offered."""
    state = position(
        """
        #  _  _  _  _  .R1
        .  _  _  _  .  .W1
        #  _  _  _  _  .R1
        .  _  _  _  _  .R1
        #  _  _  _  _  .R1
        """
    )
    state = influx_after([1, 1, 4, 5, 6, 1], state)
    assert state.phase == P_INFLUX_COLOUR
    assert legal_actions(state) == [(INFLUX_COLOUR, W)]
    do(state, (INFLUX_COLOUR, W))
    do(state, (INFLUX, cell(1, 5)))
    assert state.camp_figs[W] == 10 and state.camp_figs[K] == 12
    assert picture(state).splitlines()[1].split() == [".", "_", "_", "_", ".W1", ".W1"]


def test_three_lowest_with_blue_and_no_colour_able_to_come_in_bring_nobody():
    state = position(
        """
        #  _  _  _  _  .R1
        .  _  _  _  _  .R1
        #  _  _  _  _  .R1
        .  _  _  _  _  .R1
        #  _  _  _  _  .R1
        """
    )
    state = influx_after([1, 1, 4, 5, 6, 1], state)
    assert state.phase == P_NUMBER and state.camp_figs[:2] == [12, 12]


def test_an_entering_figure_may_push_its_own_colour_onto_the_path():
    state = position(
        """
        #  _  _  _  _  .
        .  _  _  _  .  .G1
        #  _  _  _  .  .R1
        .  _  _  _  _  .G1
        #  _  _  _  .R2 .G1
        """
    )
    state = influx_after([3, 2, 1, 4, 5, 6], state)  # green
    # free fields in rows 0; a push in row 1 only: row 2 is red, row 3 has no tile west,
    # row 4's west field holds red
    assert legal_actions(state) == [(INFLUX, cell(0, 5)), (INFLUX, cell(1, 5))]
    do(state, (INFLUX, cell(1, 5)))
    assert same(
        state,
        """
        #  _  _  _  _  .
        .  _  _  _  .G1 .G1
        #  _  _  _  .  .R1
        .  _  _  _  _  .G1
        #  _  _  _  .R2 .G1
        """,
    )


def test_a_pushed_figure_leaves_its_water_bearer_to_the_newcomer():
    state = position(
        """
        #  _  _  _  _  .
        .  _  _  _  .  .G1+
        #  _  _  _  _  .R1
        .  _  _  _  _  .R1
        #  _  _  _  _  .R1
        """
    )
    state.colour[cell(0, 5)], state.figs[cell(0, 5)] = R, 1
    state.camp_figs[R] -= 1
    state = influx_after([3, 2, 1, 4, 5, 6], state)
    do(state, (INFLUX, cell(1, 5)))
    assert picture(state).splitlines()[1].split() == [".", "_", "_", "_", ".G1", ".G1+"]


def test_two_figures_due_are_both_placed_when_some_order_allows_it():
    """White and green show the lowest number. Row 0 is the only free camp entry field;
    white may also push the lone white of row 1 west, green has no push (row 3's green has
    no tile west of it). Were white to take row 0, green would stay in the camp: white
    must push, and green takes row 0."""
    board = """
        #  _  _  _  _  .
        .  _  _  _  .  .W1
        #  _  _  _  _  .R1
        .  _  _  _  _  .G1
        #  _  _  _  _  .R1
        """
    state = influx_after([3, 1, 1, 4, 5, 6], position(board))  # white and green
    assert state.pending == [W, G]
    assert legal_actions(state) == [(INFLUX, cell(1, 5))]  # not row 0
    do(state, (INFLUX, cell(1, 5)))
    assert legal_actions(state) == [(INFLUX, cell(0, 5))]
    do(state, (INFLUX, cell(0, 5)))
    assert state.phase == P_NUMBER and (state.camp_figs[W], state.camp_figs[G]) == (10, 10)
    assert same(
        state,
        """
        #  _  _  _  _   .G1
        .  _  _  _  .W1 .W1
        #  _  _  _  _   .R1
        .  _  _  _  _   .G1
        #  _  _  _  _   .R1
        """,
    )


def test_a_figure_due_may_take_a_free_field_while_enough_stay_free_for_the_others():
    """As above with row 2 free as well: white may take either free field or push."""
    board = """
        #  _  _  _  _  .
        .  _  _  _  .  .W1
        #  _  _  _  _  .
        .  _  _  _  _  .G1
        #  _  _  _  _  .R1
        """
    state = influx_after([3, 1, 1, 4, 5, 6], position(board))
    assert legal_actions(state) == [(INFLUX, cell(r, 5)) for r in (0, 1, 2)]
    do(state, (INFLUX, cell(0, 5)))
    assert legal_actions(state) == [(INFLUX, cell(2, 5))]  # green: row 2 only


def test_when_not_every_figure_due_can_be_placed_the_free_field_is_still_taken():
    """Green and yellow are due with one free field and no push for either: the first in
    die order takes it, the second stays in the camp."""
    board = """
        #  _  _  _  _  .
        .  _  _  _  _  .R1
        #  _  _  _  _  .R1
        .  _  _  _  _  .R1
        #  _  _  _  _  .R1
        """
    state = influx_after([3, 2, 1, 1, 5, 6], position(board))  # green and yellow
    assert legal_actions(state) == [(INFLUX, cell(0, 5))]
    do(state, (INFLUX, cell(0, 5)))
    assert state.phase == P_NUMBER and (state.camp_figs[G], state.camp_figs[Y]) == (11, 12)


def test_without_a_free_entry_field_the_figure_stays_in_the_camp():
    state = position(
        """
        #  _  _  _  _  .R1
        .  _  _  _  _  .R1
        #  _  _  _  _  .R1
        .  _  _  _  _  .R1
        #  _  _  _  _  .R1
        """
    )
    state = influx_after([3, 2, 1, 4, 5, 6], state)
    assert state.phase == P_NUMBER and state.camp_figs[G] == 12


# --- step 3: the colour and its points -----------------------------------------------


@pytest.mark.parametrize(("k", "points"), [(1, 4), (2, 5), (3, 6), (4, 8), (5, 9), (6, 12)])
def test_action_points_grow_with_the_dice_showing_the_number(k, points):
    assert rules.action_points(4, k) == points


def test_six_sixes_give_the_most_points():
    assert rules.action_points(6, 6) == 18
    assert max(rules.action_points(n, k) for n in range(1, 7) for k in range(1, 7)) == 18


def test_choosing_a_colour_makes_every_colour_showing_its_number_usable():
    state = position()
    state.dice, state.phase = [4, 4, 2, 4, 6, 4], P_NUMBER
    assert legal_actions(state) == [(NUMBER, 2), (NUMBER, 4), (NUMBER, 6)]
    do(state, (NUMBER, 4))
    assert state.points == 8
    assert state.usable == [True, True, False, True, False, True]
    assert state.phase == P_SPEND


# --- step 4: roads ------------------------------------------------------------------


def test_road_bonuses():
    assert rules.road_bonus([1, 2, 3, 4, 5, 5]) == 3
    assert rules.road_bonus([6, 2, 3, 4, 5, 5]) == 3
    assert rules.road_bonus([1, 2, 3, 4, 5, 6]) == 5
    assert rules.road_bonus([1, 2, 3, 4, 6, 6]) == 0


def test_road_tiles_are_placed_free_each_next_to_the_last():
    state = position()
    state.dice, state.phase = [1, 2, 3, 4, 5, 5], P_NUMBER
    do(state, (NUMBER, 5))
    assert state.phase == P_ROAD
    assert legal_actions(state) == [(ROAD, ROAD_TILES), (ROAD, ROAD_DECLINE)]
    top = state.deck[-1]
    do(state, (ROAD, ROAD_TILES))
    assert state.phase == P_ROAD_TILE and state.drawn == top and len(state.deck) == 35
    do(state, (TILE, cell(2, 4)))
    assert state.tile[cell(2, 4)] == top
    assert sorted(a[1] for a in legal_actions(state)) == [
        cell(1, 4),
        cell(2, 3),
        cell(3, 4),
    ]
    do(state, (TILE, cell(2, 3)))
    do(state, (TILE, cell(2, 2)))
    assert state.phase == P_SPEND and state.points == 6  # two 5s: 5 + 1; the road is free
    assert state.tiles_placed == 3 and len(state.deck) == 33


def test_a_boost_moves_every_piece_of_a_full_row_towards_the_refuge():
    state = position(
        """
        #  _    _  _    _    .
        .Y1 .   .  .G2  .    .R1
        #  .Y1  .G1 .    .R1  .
        .  _    _  _    _    .
        #  _    _  _    _    .
        """
    )
    state.dice, state.phase = [1, 2, 3, 4, 5, 5], P_NUMBER
    do(state, (NUMBER, 5))
    assert legal_actions(state) == [(ROAD, -1), (ROAD, 1), (ROAD, 2), (ROAD, ROAD_DECLINE)]
    do(state, (ROAD, 1))
    assert state.refuge_figs[0][Y] == 1  # yellow went in, green and red followed
    assert same(
        state,
        """
        #  _    _    _  _  .
        .G2 .   .R1  .  .  .
        #  .Y1  .G1  .  .R1 .
        .  _    _    _  _  .
        #  _    _    _  _  .
        """,
    )
    state2 = position(
        """
        #  _    _    _  _    .
        .  _    _    _  _    .
        #  .Y1  .G1  .  .R1  .
        .  _    _    _  _    .
        #  _    _    _  _    .
        """
    )
    turn.boost(state2, 2, 3)  # yellow cannot go further west, green is blocked by it
    assert same(
        state2,
        """
        #  _    _    _    _  .
        .  _    _    _    _  .
        #  .Y1  .G1  .R1  .  .
        .  _    _    _    _  .
        #  _    _    _    _  .
        """,
    )


# --- step 5: spending ---------------------------------------------------------------


RIVAL_ONE_YELLOW_SHORT = """
#  _    _  _  _  .
.  _    _  _  _  .
#  _    _  _  _  .
.  .Y1  .  .  .  .
#  _    _  _  _  .
"""


def rival_one_yellow_short(**params) -> State:
    """Seat 1's refuge lacks one yellow figure, which stands on the full row 3 beside its
    grey field; the deck is empty, so a road can only be a boost of that row."""
    state = position(RIVAL_ONE_YELLOW_SHORT, **params)
    for c in (K, W, G, R, B):
        in_refuge(state, 1, c, 5)
    in_refuge(state, 1, Y, 4)
    state.deck.clear()
    state.dice, state.phase = [1, 2, 3, 4, 5, 5], P_NUMBER
    do(state, (NUMBER, 5))
    return state


def test_a_compulsory_road_boost_must_be_taken_even_when_it_wins_for_the_rival():
    state = rival_one_yellow_short(road_bonus="compulsory")
    assert legal_actions(state) == [(ROAD, 3)]  # no way to let it go
    do(state, (ROAD, 3))
    assert state.ended is End.REFUGE and state.winners == (1,)


def test_an_optional_road_may_be_let_go_and_greedy_lets_a_gift_to_the_rival_go():
    state = rival_one_yellow_short()  # road_bonus = "optional", the default
    actions = legal_actions(state)
    assert actions == [(ROAD, 3), (ROAD, ROAD_DECLINE)]
    assert choose(state) == (ROAD, ROAD_DECLINE)
    do(state, (ROAD, ROAD_DECLINE))
    assert state.ended is None and state.phase == P_SPEND and state.points == 6
    assert state.refuge_figs[1][Y] == 4 and same(state, RIVAL_ONE_YELLOW_SHORT)


def test_greedy_takes_a_road_that_helps_itself():
    picture_ = RIVAL_ONE_YELLOW_SHORT.replace(".  .Y1  .  .  .  .", ".  _  _  _  _  .")
    picture_ = picture_.replace(".  _    _  _  _  .", ".  .Y1  .  .  .  .", 1)  # row 1: own
    state = position(picture_)
    state.deck.clear()
    state.dice, state.phase = [1, 2, 3, 4, 5, 5], P_NUMBER
    do(state, (NUMBER, 5))
    actions = legal_actions(state)
    assert actions == [(ROAD, 1), (ROAD, ROAD_DECLINE)]
    assert choose(state) == (ROAD, 1)


def test_every_point_must_be_spent_while_a_use_exists_and_stop_comes_after_a_refuge():
    state = spending(
        position(
            """
            #  _    _  _  _  .
            .G1 .   _  _  _  .
            #  _    _  _  _  .
            .  _    _  _  _  .
            #  _    _  _  _  .
            """
        ),
        "G",
        3,
    )
    assert (rules.STOP,) not in legal_actions(state)
    do(state, (MOVE, cell(1, 0), REFUGE_0, GROUP, 1, 1, 0))
    assert state.points == 2 and (STOP,) in legal_actions(state)
    do(state, (STOP,))
    assert state.seat == 1 and state.turns == 1  # the turn ended with points unspent


def test_points_without_any_use_are_lost():
    full = "\n".join(("." if r % 2 else "#") + "  .  .  .  .  ." for r in range(5))
    state = spending(position(full), "G", 4)  # no slot left for a tile
    state.camp_figs[G] = 0
    state.camp_tents[G] = 0
    assert legal_actions(state) == []
    turn.skip(state)
    assert state.seat == 1 and state.turns == 1


def test_tiles_go_next_to_the_camp_entry_column_or_to_a_placed_tile():
    state = spending(position(), "", 2)
    assert legal_actions(state) == [(DRAW,)]
    top = state.deck[-1]
    do(state, (DRAW,))
    assert legal_actions(state) == [(TILE, cell(r, 4)) for r in range(5)]
    do(state, (TILE, cell(1, 4)))
    assert state.tile[cell(1, 4)] == top and state.points == 1 and len(state.deck) == 35
    assert frontier(state) == [cell(0, 4), cell(1, 3), cell(2, 4), cell(3, 4), cell(4, 4)]


def test_a_tile_is_drawn_and_seen_before_its_slot_is_chosen():
    """One point buys the draw; the tile's face is then known while every slot open to a
    tile is still to choose from, and laying it costs nothing more."""
    state = spending(position(), "", 1)
    state.deck[-1] = THIRST  # the top tile
    do(state, (DRAW,))
    assert state.phase == P_PLACE and state.drawn == THIRST and state.points == 0
    assert state.turns == 0  # the turn waits for the tile to be laid
    assert legal_actions(state) == [(TILE, cell(r, 4)) for r in range(5)]
    do(state, (TILE, cell(0, 4)))
    assert state.tile[cell(0, 4)] == THIRST and state.drawn == NONE
    assert state.tiles_placed == 1 and state.turns == 1  # no points left: the turn ended


def test_no_draw_without_a_slot_for_the_tile():
    full = "\n".join(("." if r % 2 else "#") + "  .  .  .  .  ." for r in range(5))
    state = spending(position(full), "G", 4)
    assert state.deck and (DRAW,) not in legal_actions(state)


@pytest.mark.parametrize(("face", "row"), [(SAFE, 1), (THIRST, 3)])
def test_greedy_lays_a_safe_tile_before_its_own_refuge_and_a_thirst_tile_before_the_rivals(
    face, row
):
    """The seed's tip: red tiles in front of the rival. Seat 0's refuge is on row 1, the
    rival's on row 3; the five slots by the camp are open."""
    state = spending(position(), "", 1)
    state.deck[-1] = face
    do(state, (DRAW,))
    assert choose(state) == (TILE, cell(row, 4))


def test_a_refuge_entry_field_does_not_let_a_tile_go_next_to_it():
    state = position()
    assert cell(1, 1) not in frontier(state)


def test_figures_come_out_of_the_camp_for_one_point_and_tents_for_three():
    state = spending(
        position(
            """
            #  _  _  _  _  .R1
            .  _  _  _  _  .
            #  _  _  _  _  .
            .  _  _  _  _  .
            #  _  _  _  _  .
            """
        ),
        "G",
        2,
    )
    state.deck.clear()
    enters = [a for a in legal_actions(state) if a[0] == ENTER]
    assert enters == [(ENTER, G, cell(r, 5), 0) for r in range(1, 5)]  # no tent for 2 points
    state.points = 3
    do(state, (ENTER, G, cell(2, 5), 1))
    assert state.camp_tents[G] == 1 and state.points == 0
    assert (state.colour[cell(2, 5)], state.figs[cell(2, 5)], state.tents[cell(2, 5)]) == (G, 0, 1)


GREEN_MOVES = """
#  _    .    .    _    .
.  _    .    .G3  .R1  .
#  _    .R1  .    .G2  .
.  _    _    _    .    .
#  _    _    _    _    .
"""


def test_a_group_moves_whole_one_field_orthogonally_onto_free_or_own_colour_fields():
    """With the kit's `groups = "whole"` a move takes all of a colour's group."""
    state = spending(position(GREEN_MOVES, groups="whole"), "G", 2)
    assert moves(state) == {
        (MOVE, cell(1, 3), cell(1, 2), GROUP, 1, 3, 0),
        (MOVE, cell(1, 3), cell(0, 3), GROUP, 1, 3, 0),
        (MOVE, cell(1, 3), cell(2, 3), GROUP, 1, 3, 0),
        # east is red; no diagonals
        (MOVE, cell(2, 4), cell(2, 3), GROUP, 1, 2, 0),
        (MOVE, cell(2, 4), cell(3, 4), GROUP, 1, 2, 0),
        # north is red, east is a camp entry field: groups never step onto one
    }
    do(state, (MOVE, cell(1, 3), cell(2, 3), GROUP, 1, 3, 0))
    do(state, (MOVE, cell(2, 4), cell(2, 3), GROUP, 1, 2, 0))
    assert (state.colour[cell(2, 3)], state.figs[cell(2, 3)]) == (G, 5)  # one group


def test_a_move_takes_any_part_of_a_group_by_default():
    """The seed moves "a piece or a group of pieces": any number of a field's figures and
    tents of its colour go for one point a field; the rest stay."""
    state = spending(
        position(
            """
            #  _  _      _  _  .
            .  _  .G2^1  .  _  .
            #  _  _      _  _  .
            .  _  _      _  _  .
            #  _  _      _  _  .
            """
        ),
        "G",
        2,
    )
    parts = [(2, 1), (1, 1), (0, 1), (2, 0), (1, 0)]  # the whole group first
    assert sorted(a for a in legal_actions(state) if a[0] == MOVE) == sorted(
        (MOVE, cell(1, 2), to, GROUP, 1, f, t) for f, t in parts for to in (cell(1, 3),)
    )
    do(state, (MOVE, cell(1, 2), cell(1, 3), GROUP, 1, 1, 1))
    assert same(
        state,
        """
        #  _  _    _      _  .
        .  _  .G1  .G1^1  _  .
        #  _  _    _      _  .
        .  _  _    _      _  .
        #  _  _    _      _  .
        """,
    )
    do(state, (MOVE, cell(1, 3), cell(1, 2), GROUP, 1, 0, 1))  # a tent alone, back
    assert (state.figs[cell(1, 2)], state.tents[cell(1, 2)], state.figs[cell(1, 3)]) == (1, 1, 1)


def test_a_water_bearer_goes_with_part_of_its_group_or_leaves_part_of_it_behind():
    state = spending(
        position(
            """
            #  _  _      _  _  .
            .  _  .R3+   .  _  .
            #  _  _      _  _  .
            .  _  _      _  _  .
            #  _  _      _  _  .
            """
        ),
        "R",
        2,
    )
    do(state, (MOVE, cell(1, 2), cell(1, 3), BOTH, 1, 1, 0))  # one red goes with the escort
    assert picture(state).splitlines()[1].split() == [".", "_", ".R2", ".R1+", "_", "."]
    do(state, (MOVE, cell(1, 3), cell(1, 2), GROUP, 1, 1, 0))  # and back, leaving the bearer
    assert picture(state).splitlines()[1].split() == [".", "_", ".R3", ".B1", "_", "."]


def test_a_water_bearer_split_off_a_blue_group_is_a_lone_water_bearer():
    """One blue figure of a group may step onto a camp entry field or join another colour's
    group as its escort; the rest of the group may not."""
    state = spending(
        position(
            """
            #  _  _    .    .B3  .
            .  _  _    _    .G1  .
            #  _  _    _    _    .
            .  _  _    _    _    .
            #  _  _    _    _    .
            """
        ),
        "B",
        1,
    )
    targets = {(a[2], a[5]) for a in moves(state) if a[1] == cell(0, 4)}
    assert targets == {
        (cell(0, 3), 3), (cell(0, 3), 2), (cell(0, 3), 1),
        (cell(0, 5), 1),  # the camp entry field: a lone water bearer only
        (cell(1, 4), 1),  # onto the green figure as its escort
    }  # fmt: skip
    do(state, (MOVE, cell(0, 4), cell(1, 4), GROUP, 1, 1, 0))
    assert (state.colour[cell(1, 4)], state.bearer[cell(1, 4)], state.figs[cell(0, 4)]) == (G, 1, 2)


def test_only_the_usable_colours_move():
    state = spending(position(GREEN_MOVES), "R", 2)
    assert {a[1] for a in moves(state)} == {cell(2, 2)}  # red (1, 4) is hemmed in


def test_a_group_enters_a_refuge_only_from_its_entry_field():
    state = spending(
        position(
            """
            #  _    _  _  _  .
            .  .G2  _  _  _  .
            #  _    _  _  _  .
            .Y3 _   _  _  _  .
            #  _    _  _  _  .
            """
        ),
        "GY",
        2,
    )
    assert {a[1:3] for a in moves(state)} == {(cell(1, 1), cell(1, 0)), (cell(3, 0), REFUGE_1)}
    do(state, (MOVE, cell(3, 0), REFUGE_1, GROUP, 1, 3, 0))
    assert state.refuge_figs[1][Y] == 3


def test_a_water_bearer_joins_a_group_and_a_group_joins_a_lone_water_bearer():
    state = spending(
        position(
            """
            #  _  .    .B1  .G2  .
            .  _  .R2  .B1  _    .
            #  _  _    _    _    .
            .  _  _    _    _    .
            #  _  _    _    _    .
            """
        ),
        "GRB",
        3,
    )
    do(state, (MOVE, cell(0, 3), cell(0, 4), GROUP, 1, 1, 0))  # blue points: a lone bearer
    do(state, (MOVE, cell(1, 2), cell(1, 3), GROUP, 1, 2, 0))  # red joins the other
    assert same(
        state,
        """
        #  _  .  .     .G2+  .
        .  _  .  .R2+  _     .
        #  _  _  _     _     .
        .  _  _  _     _     .
        #  _  _  _     _     .
        """,
    )


def test_an_escorted_group_passes_other_colours_and_pays_each_field():
    state = spending(
        position(
            """
            #  _  _    _    _    .
            .  .  .R1  .G2+ .    .
            #  _  _    _    _    .
            .  _  _    _    _    .
            #  _  _    _    _    .
            """
        ),
        "G",
        3,
    )
    assert (MOVE, cell(1, 3), cell(1, 1), BOTH, 2, 2, 0) in moves(state)  # over red
    assert (MOVE, cell(1, 3), cell(1, 1), BOTH, 2, 1, 0) in moves(state)  # a part of it too
    assert not any(a[3] == GROUP and a[2] == cell(1, 2) for a in moves(state))
    state.points = 1
    assert (MOVE, cell(1, 3), cell(1, 1), BOTH, 2, 2, 0) not in moves(state)  # too far now
    state.points = 3
    do(state, (MOVE, cell(1, 3), cell(1, 1), BOTH, 2, 2, 0))
    assert picture(state).splitlines()[1].split() == [".", ".G2+", ".R1", ".", ".", "."]


def test_blue_points_move_escorted_groups_of_any_colour_but_not_others():
    state = spending(
        position(
            """
            #  _  _    _    _    .
            .  .  .R1  .G2+ .    .
            #  _  _    _    _    .
            .  _  _    _    _    .
            #  _  _    _    _    .
            """
        ),
        "B",
        2,
    )
    assert {(a[1], a[3]) for a in moves(state)} == {(cell(1, 3), BEARER), (cell(1, 3), BOTH)}


def test_an_escort_never_passes_a_gap_and_only_water_bearers_pass_camp_entry_fields():
    state = spending(
        position(
            """
            #  _  _    _    .    .B1
            .  _  .R1  .G2+ .    .Y1+
            #  _  _    _    _    .
            .  _  _    _    _    .
            #  _  _    _    _    .
            """
        ),
        "GB",
        4,
    )
    targets = {(a[1], a[2], a[4]) for a in moves(state)}
    assert (cell(1, 3), cell(1, 1), 2) not in targets  # (1, 1) has no tile
    assert (cell(0, 5), cell(2, 5), 2) in targets  # the bearer passes escorted yellow


# --- water bearers and protection -------------------------------------------------


SEND_BOARD = """
#  _  _    _    _    .
.  .  .R1  .G2  .B2  .
#  _  _    _    _    .
.  _  _    _    t    .
#  _  _    _    _    .
"""


def test_water_bearers_are_sent_from_the_own_refuge_for_one_blue_point():
    state = spending(position(SEND_BOARD), "B", 2)
    in_refuge(state, 0, B, 2)
    sends = [a for a in legal_actions(state) if a[0] == SEND]
    assert sends == [(SEND, c) for c in (cell(1, 1), cell(1, 2), cell(1, 3), cell(1, 4))] + [
        (SEND, cell(3, 4))
    ]
    do(state, (SEND, cell(1, 3)))
    assert state.refuge_figs[0][B] == 1 and state.water_missions == 1 and state.points == 1
    assert (state.colour[cell(1, 3)], state.bearer[cell(1, 3)]) == (G, 1)


def test_no_bearer_is_sent_from_the_other_refuge_or_without_blue_points():
    state = spending(position(SEND_BOARD), "B", 2)
    in_refuge(state, 1, B, 2)
    assert not any(a[0] == SEND for a in legal_actions(state))
    state = spending(position(SEND_BOARD), "G", 2)
    in_refuge(state, 0, B, 2)
    assert not any(a[0] == SEND for a in legal_actions(state))


def test_a_water_bearer_is_sent_once_a_round():
    state = spending(position(SEND_BOARD), "B", 4)
    in_refuge(state, 0, B, 1)
    do(state, (SEND, cell(1, 1)))
    do(state, (MOVE, cell(1, 1), cell(1, 0), GROUP, 1, 1, 0))
    do(state, (MOVE, cell(1, 0), REFUGE_0, GROUP, 1, 1, 0))
    assert state.refuge_figs[0][B] == 1 and sendable(state, 0) == 0
    assert not any(a[0] == SEND for a in legal_actions(state))
    turn.start_round(state)
    assert sendable(state, 0) == 1


def test_protection_costs_three_blue_points_and_needs_a_bearer_in_the_own_refuge():
    board = SEND_BOARD.replace(".G2  .B2", "kG2  .B2")
    state = spending(position(board), "B", 3)
    assert not any(a[0] == PROTECT for a in legal_actions(state))
    in_refuge(state, 0, B, 1)
    protects = [a for a in legal_actions(state) if a[0] == PROTECT]
    assert protects == [(PROTECT, cell(1, 3)), (PROTECT, cell(3, 4))]  # black or face up
    state.points = 2
    assert not any(a[0] == PROTECT for a in legal_actions(state))
    state.points = 3
    do(state, (PROTECT, cell(1, 3)))
    assert state.tile[cell(1, 3)] == GUARDED and state.cards == 5 and state.seat == 1
    state.cards = 0
    state = spending(state, "B", 3)
    state.seat = 0
    assert not any(a[0] == PROTECT for a in legal_actions(state))


# --- thirst -------------------------------------------------------------------------


def test_an_occupied_thirst_field_turns_black_next_round_and_kills_a_round_later():
    state = position(
        """
        #  _  _       _   _  .
        .  _  tG1^1+  t   g  .
        #  _  _       _   _  .
        .  _  _       _   _  .
        #  _  _       _   _  .
        """
    )
    state.colour[cell(1, 4)], state.figs[cell(1, 4)] = R, 1  # on the protected field
    state.camp_figs[R] -= 1
    turn.start_round(state)  # round 2
    assert state.tile[cell(1, 2)] == BLACK and state.deadline[cell(1, 2)] == 3
    assert state.tile[cell(1, 3)] == THIRST  # nobody on it
    assert state.tile[cell(1, 4)] == GUARDED
    turn.end_round(state)
    assert state.colour[cell(1, 2)] == G  # still alive at the end of the flip round
    turn.start_round(state)
    turn.end_round(state)  # round 3: time is up
    assert state.colour[cell(1, 2)] == -1 and state.tile[cell(1, 2)] == THIRST
    assert state.deaths == 5  # a figure, a tent of three, a water bearer
    assert (state.camp_figs[G], state.camp_tents[G], state.camp_figs[B]) == (12, 2, 12)


def test_leaving_a_black_field_in_time_saves_the_group():
    state = position(
        """
        #  _  _    _   _  .
        .  _  tG2  .   _  .
        #  _  _    _   _  .
        .  _  _    _   _  .
        #  _  _    _   _  .
        """
    )
    turn.start_round(state)
    turn.end_round(state)
    turn.start_round(state)
    spending(state, "G", 1)
    do(state, (MOVE, cell(1, 2), cell(1, 3), GROUP, 1, 2, 0))
    turn.end_round(state)
    assert state.figs[cell(1, 3)] == 2 and state.deaths == 0
    assert state.tile[cell(1, 2)] == THIRST


# --- shortage -----------------------------------------------------------------------


def test_when_the_last_bearer_leaves_the_camp_the_refuge_with_most_swaps_half():
    state = spending(position(), "B", 2)
    state.deck.clear()
    in_refuge(state, 0, B, 5)
    in_refuge(state, 1, B, 3)
    state.camp_figs[B] = 1
    do(state, (ENTER, B, cell(0, 5), 0))
    assert state.phase == P_SWAP and state.swaps == [[0, 2]] and state.chooser == 0
    assert legal_actions(state) == [(SWAP, c) for c in (K, W, G, Y, R)]
    do(state, (SWAP, G))
    do(state, (SWAP, R))
    assert state.refuge_figs[0] == [0, 0, 1, 0, 1, 3]
    assert state.camp_figs[B] == 2 and state.camp_figs[G] == 11
    assert state.phase == P_SPEND and state.points == 1


def test_a_tie_for_most_bearers_makes_both_swap_and_fewer_than_two_none():
    state = spending(position(), "B", 2)
    in_refuge(state, 0, B, 4)
    in_refuge(state, 1, B, 4)
    state.camp_figs[B] = 1
    do(state, (ENTER, B, cell(0, 5), 0))
    assert state.swaps == [[0, 2], [1, 2]]
    do(state, (SWAP, K))
    do(state, (SWAP, K))
    assert state.chooser == 1
    state = spending(position(), "B", 2)
    in_refuge(state, 0, B, 1)
    state.camp_figs[B] = 1
    do(state, (ENTER, B, cell(0, 5), 0))
    assert state.phase == P_SPEND


# --- winning --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "met", "progress"),
    [
        ([5, 5, 5, 5, 5, 5], True, 30),
        ([5, 5, 5, 5, 4, 5], False, 29),
        ([5, 5, 5, 5, 4, 6], True, 30),  # one blue stands in for red
        ([2, 5, 5, 5, 5, 8], True, 30),
        ([2, 5, 5, 5, 5, 4], False, 26),
        ([9, 9, 9, 9, 9, 4], False, 29),  # blue needs its own five first
        ([7, 0, 0, 0, 0, 9], False, 14),
    ],
)
def test_the_goal_counts_blue_beyond_its_own_five_for_missing_figures(values, met, progress):
    assert rules.goal_met(values, B, 5) is met
    state = position()
    state.refuge_figs[0] = list(values)
    assert goal.progress(state, 0) == progress


def test_a_tent_counts_three_figures():
    state = position()
    state.refuge_figs[0] = [5, 5, 5, 5, 2, 5]
    state.refuge_tents[0][R] = 1
    assert goal.refuge_values(state, 0)[R] == 5 and rules.goal_met(
        goal.refuge_values(state, 0), B, 5
    )


def test_the_game_ends_when_a_refuge_meets_the_goal_even_the_opponents():
    for target, winner in ((REFUGE_0, (0,)), (REFUGE_1, (1,))):
        row = 1 if target == REFUGE_0 else 3
        board = EMPTY.splitlines()
        board[row + 1] = ".R1 _ _ _ _ ."
        state = spending(position("\n".join(board)), "R", 3)
        for seat in (0, 1):
            state.refuge_figs[seat] = [5, 5, 5, 5, 4, 5]
        do(state, (MOVE, cell(row, 0), target, GROUP, 1, 1, 0))
        assert state.ended is End.REFUGE and state.winners == winner
        assert state.turns == 1 and len(state.leaders) == 1


# --- end of the game ------------------------------------------------------------------


def test_the_game_ends_on_the_deck_when_no_refuge_can_be_reached_or_filled():
    board = """
    #  _  _  _  .  .
    .  .  _  _  .  .
    #  _  _  _  .  .
    .  _  _  _  .  .
    #  _  _  _  .  .
    """
    state = position(board)
    state.deck.clear()
    assert goal.nobody_can_win(state)
    state = position(board.replace(".  .  _  _", ".  .  .  .", 1))  # row 1 links up
    state.deck.clear()
    assert not goal.nobody_can_win(state)


def test_the_deck_end_counts_what_is_already_beside_a_refuge():
    state = position(
        """
        #  _    _  _  .  .
        .  .G1  _  _  .  .
        #  _    _  _  .  .
        .  _    _  _  .  .
        #  _    _  _  .  .
        """
    )
    state.deck.clear()
    state.refuge_figs[0] = [5, 5, 4, 5, 5, 5]
    assert not goal.nobody_can_win(state)  # the green figure can still go in
    state.refuge_figs[0] = [5, 5, 3, 5, 5, 5]
    assert goal.nobody_can_win(state)  # 4 green and 5 blue: one short
    state.refuge_figs[1][B] = 1
    assert not goal.nobody_can_win(state)  # seat 1 could send its bearer over to stand in


def test_a_turn_ends_play_on_the_deck_and_rounds_run_out_as_a_timeout():
    state = spending(position(), "G", 1)
    state.deck.clear()
    turn.end_turn(state)
    assert state.ended is End.DECK
    state = new_game(play_model(DesertHomeParams()), random.Random(2), max_rounds=1)
    state.phase, state.points = P_SPEND, 0
    turn.end_turn(state)
    assert state.seat == 1 and state.ended is None
    state.phase, state.points = P_SPEND, 0
    turn.end_turn(state)
    assert state.ended is End.TIMEOUT and state.turns == 2


# --- the supply -----------------------------------------------------------------------


def test_the_default_supply_serves_both_players():
    ok, reason = supply_verdict(play_model(DesertHomeParams()))
    assert ok and "both" in reason


@pytest.mark.parametrize(
    ("figures", "tents", "ok", "words"),
    [
        (10, 0, True, "nothing to spare"),
        (9, 0, False, "only one"),  # 9 of a colour cannot give both players five
        (8, 1, True, "both"),  # 8 + a tent: five and six
        (4, 1, False, "only one"),
        (4, 0, False, "no refuge"),
    ],
)
def test_the_supply_verdict(figures, tents, ok, words):
    model = play_model(DesertHomeParams(figures_per_colour=figures, tents_per_colour=tents))
    verdict, reason = supply_verdict(model)
    assert verdict is ok and words in reason


# --- bots and engine -------------------------------------------------------------------


def test_greedy_keeps_a_big_roll_and_rerolls_around_its_most_common_number():
    assert reroll_mask([6, 6, 6, 1, 2, 3]) == 0  # 8 points
    assert reroll_mask([2, 2, 2, 1, 3, 4]) == 0b111000


def test_greedy_brings_a_useful_group_home_and_escapes_a_black_field():
    state = spending(
        position(
            """
            #  _    _    _  _  .
            .G2 .   _    _  _  .
            #  _    _    _  _  .
            .  _    _    _  _  .
            #  _    _    _  _  .
            """
        ),
        "G",
        1,
    )
    state.deck.clear()
    assert choose(state) == (MOVE, cell(1, 0), REFUGE_0, GROUP, 1, 2, 0)
    state = spending(position(EMPTY.replace(".  _  _  _  _  .", ".  _  kG2 .  _  .", 1)), "G", 1)
    state.deck.clear()
    choice = choose(state)
    assert choice[0] == MOVE and choice[1] == cell(1, 2) and choice[5] == 2  # all of it


def test_greedy_takes_all_of_a_group_home_when_a_part_of_it_fills_the_refuge_alike():
    """Six greens where five fill the refuge's green: the sixth goes along (what the own
    refuge takes the rival cannot use)."""
    state = spending(position(EMPTY.replace(".  _", ".G6 .", 1)), "G", 1)
    state.deck.clear()
    assert choose(state) == (MOVE, cell(1, 0), REFUGE_0, GROUP, 1, 6, 0)


def test_greedy_sends_water_bearers_to_useful_groups_and_protects_its_own():
    state = spending(
        position(
            """
            #  _  .    .    .G3  .
            .  t  .R1  tG2  .    .
            #  _  _    _    _    .
            .  _  _    _    _    .
            #  _  _    _    _    .
            """
        ),
        "B",
        4,
    )
    in_refuge(state, 0, B, 2)
    judge = Judge(state)
    assert judge.send(cell(0, 4)) > 0 > judge.send(cell(0, 2))  # escort three greens
    assert judge.protect(cell(1, 3)) > judge.protect(cell(1, 1))  # where its green stands
    state.tile[cell(1, 3)] = BLACK
    assert Judge(state).protect(cell(1, 3)) > Judge(state).protect(cell(1, 1)) + 10


def test_random_is_uniform_over_the_legal_actions():
    state = spending(position(), "", 1)
    do(state, (DRAW,))
    actions = legal_actions(state)  # the five slots for the tile drawn
    rng = random.Random(3)
    counts = Counter(choose(state, "random", rng) for _ in range(5000))
    assert set(counts) == set(actions) and all(850 < k < 1150 for k in counts.values())


def test_the_engine_contract():
    assert engine.BOTS[0] == "random" and set(engine.BOTS) == {"random", "greedy"}
    assert engine.MIN_PLAYERS == engine.MAX_PLAYERS == engine.DEFAULT_PLAYERS == 2
    assert engine.COOPERATIVE is False
    with pytest.raises(PnpError, match="2 players"):
        engine.prepare(DesertHomeParams(), 3)
    model = engine.prepare(DesertHomeParams(), 2)
    record = engine.play_one(model, 2, "greedy", random.Random("1:0"))
    assert set(record.counters) == set(engine.COUNTERS)
    assert record.end in engine.END_REASONS and record.turns == len(record.leaders)
    assert record.counters["duration_rounds"] * 2 >= record.turns
    if record.end == "refuge":
        assert max(record.scores) == 30 and record.scores[record.winners[0]] == 30
