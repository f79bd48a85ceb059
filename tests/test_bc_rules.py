"""Building Community rules, one hand-worked position per rule (reference engine).

Positions are drawn as pictures of a radius-2 board: one line per row r = -2 .. 2, each
row's cells by q ascending; a token is the tile's colour letter (R = colour 0, B = 1,
Y = 2) and, if a pawn stands there, the pawn's number. Cells are numbered in board order:

        0  1  2            (0,-2) (1,-2) (2,-2)
      3  4  5  6        (-1,-1) (0,-1) (1,-1) (2,-1)
    7  8  9 10 11    (-2,0) (-1,0) (0,0) (1,0) (2,0)
     12 13 14 15        (-2,1) (-1,1) (0,1) (1,1)
       16 17 18            (-2,2) (-1,2) (0,2)
"""

from __future__ import annotations

import random

import pytest

from geometry import hexgrid
from pnp.contract.params import validate_params
from pnp.games.building_community import engine, rules
from pnp.games.building_community.params import BuildingCommunityParams, validate
from pnp.games.building_community.rules import PASS, End, Move
from pnp.games.building_community.rules.bots import make_bot
from pnp.games.building_community.rules.model import play_model
from pnp.runtime.errors import PnpError

LETTERS = "RBY"

# The start of a two-player radius-2 game: pawn 0 on (1, 0), pawn 1 on (-1, 0).
START = """
  Y R B
 R B Y R
B Y1 R B0 Y
 R B Y R
  Y R B
"""

# Pawn 0 (centre, red) shares its red community with pawn 1 (1, 0): a special move.
# No tile around pawn 0 is isolated, so no swap can reduce that count.
SPECIAL = """
  Y R R
 Y B B R
Y Y R0 R1 Y
 R Y B B
  R Y B
"""

# The same tiles with pawn 1 away on (2, 0): pawn 0 has no legal move, nor has pawn 1.
BLOCKED = """
  Y R R
 Y B B R
Y Y R0 R Y1
 R Y B B
  R Y B
"""

# Pawn 0 on the blue centre, part of a blue community of four; SW and SE are isolated.
BLUE = """
  R Y B
 Y R Y B
R Y B0 B Y
 B R Y R
  Y1 B R
"""

# Two isolated reds, (1, -1) and (1, 1); swapping (1, -1) with (1, 0) wins.
ALMOST = """
  Y Y Y
 Y Y R Y
Y Y B0 Y Y
 Y B Y R
  Y1 Y Y
"""

# Pawn 0 on (2,-1) has one legal move: swap (2,-2) with (1,-1), then step onto (1,-1).
FORCED = """
  Y R B
 B R R R0
R Y Y R1 B
 B B Y Y
  R Y B
"""


def position(picture: str, to_move: int = 0, scope: str = "near") -> rules.State:
    rows = [row.split() for row in picture.strip().splitlines()]
    model = play_model(BuildingCommunityParams(radius=len(rows) // 2, scope=scope))
    tokens = [t for row in rows for t in row]
    assert len(tokens) == model.size
    pawns = {int(t[1:]): i for i, t in enumerate(tokens) if len(t) > 1}
    state = rules.State(
        model,
        [LETTERS.index(t[0]) for t in tokens],
        [pawns[k] for k in range(len(pawns))],
        to_move,
    )
    state.seen.add(state.position())
    return state


def at(state: rules.State, *cells: hexgrid.Hex) -> list[int]:
    return [state.model.index(c) for c in cells]


def destinations(state: rules.State, pair: tuple[int, int]) -> list[int]:
    return [m.to for m in rules.legal_moves(state) if m.swap == pair]


def play_turn(state: rules.State, rng: random.Random) -> None:
    """One turn of the random bot, through the game-state API."""
    state.apply(make_bot("random").choose(state, rng))


# --- setup ---------------------------------------------------------------------------------


def test_start_position_of_the_default_board():
    model = play_model(BuildingCommunityParams())
    state = rules.new_game(model, 2)
    assert model.size == 37
    assert [model.cells[p] for p in state.pawns] == [(2, 0), (-2, 0)]
    assert len(rules.isolated_cells(model, state.tiles)) == 37  # every tile isolated
    assert [state.tiles.count(c) for c in range(3)] == [13, 12, 12]
    assert state.seen == {state.position()} and state.to_move == 0


def test_the_picture_helper_draws_the_real_start():
    state = position(START)
    start = rules.new_game(play_model(BuildingCommunityParams(radius=2)), 2)
    assert state.position() == start.position()


@pytest.mark.parametrize("players", range(2, 7))
def test_pawns_start_one_step_in_from_the_table_corners(players):
    model = play_model(BuildingCommunityParams(radius=3))
    state = rules.new_game(model, players)
    assert [model.cells[p] for p in state.pawns] == list(hexgrid.start_spaces(3, players))


# --- step 1: the swap --------------------------------------------------------------------


def test_near_scope_offers_the_six_pairs_around_the_pawn():
    state = position(START)
    pairs = rules.swap_pairs(state, 0)
    ring = [(2, 0), (2, -1), (1, -1), (0, 0), (0, 1), (1, 1)]  # around (1, 0), d0 .. d5
    expected = sorted(tuple(sorted(at(state, ring[i], ring[(i + 1) % 6]))) for i in range(6))
    assert pairs == expected == [(5, 6), (5, 9), (6, 11), (9, 14), (11, 15), (14, 15)]


def test_anywhere_scope_offers_every_free_neighbouring_pair():
    state = position(START, scope="anywhere")
    pairs = rules.swap_pairs(state, 0)
    # 42 neighbouring pairs on the board; the two pawns (not neighbours) touch 6 each
    assert len(pairs) == 42 - 12
    assert all(p not in state.pawns for pair in pairs for p in pair)
    assert pairs == sorted(pairs)


def test_a_swap_needs_two_free_tiles_of_different_colours():
    state = position(SPECIAL)
    # around the centre: E (1,0) carries pawn 1, NE/NW are both blue, W/SW both yellow
    assert rules.swap_pairs(state, 0) == [(4, 8), (13, 14)]


def test_a_swap_must_reduce_isolated_tiles_around_the_pawn():
    state = position(BLUE)
    model = state.model
    assert rules.isolated_around(model, state.tiles, 9) == 2  # SW (-1,1) and SE (0,1)
    after = rules.swapped(state.tiles, (4, 8))  # NW red <-> W yellow: SW joins W
    assert rules.isolated_around(model, after, 9) == 1
    assert rules.reduces_isolation(state, 0, after)
    after = rules.swapped(state.tiles, (4, 5))  # NW red <-> NE yellow: strands both
    assert rules.isolated_around(model, after, 9) == 3
    assert not rules.reduces_isolation(state, 0, after)
    assert destinations(state, (4, 5)) == []


def test_isolated_tiles_are_counted_only_among_the_on_board_neighbours():
    state = position(START)
    corner = state.model.index((2, 0))  # three neighbours on the board
    assert rules.isolated_around(state.model, state.tiles, corner) == 3


# --- step 2: the move ----------------------------------------------------------------------


def test_the_pawn_moves_into_the_larger_community():
    state = position(BLUE)
    # after NW <-> W: yellow {(1,-2), (-1,-1), (0,-1), (1,-1)} (4) beats red
    # {(-2,0), (-1,0), (-1,1)} (3); the pawn may only go to the yellow four
    assert destinations(state, (4, 8)) == at(state, (1, -2), (-1, -1), (0, -1), (1, -1))


def test_equal_communities_let_the_pawn_take_either():
    state = position(START)
    # (2,-1) red <-> (2,0) yellow: yellow {(1,-1), (2,-1)} and red {(2,0), (1,1)}, 2 each
    assert destinations(state, (6, 11)) == at(state, (1, -1), (2, -1), (2, 0), (1, 1))


def test_the_pawn_must_change_colour():
    state = position(BLUE)
    # NE yellow <-> E blue reduces (SE joins E), but blue {(1,-1), (2,-1), (2,-2), (0,0)}
    # (4) beats yellow {(1,0), (2,0), (0,1)} (3), and the pawn started on blue
    after = rules.swapped(state.tiles, (5, 10))
    assert rules.reduces_isolation(state, 0, after)
    assert rules.community(state.model, after, 5) == at(state, (2, -2), (1, -1), (2, -1), (0, 0))
    assert destinations(state, (5, 10)) == []


def test_no_pawn_lands_on_another_pawn():
    state = position(START)
    # (1,-1) <-> (0,0): red {(1,-2), (1,-1), (2,-1)} and yellow {(0,0), (-1,0), (0,1)}
    # tie; (-1,0) carries pawn 1
    assert destinations(state, (5, 9)) == at(state, (1, -2), (1, -1), (2, -1), (0, 0), (0, 1))


def test_legal_moves_are_distinct_and_in_canonical_order():
    for picture in (START, SPECIAL, BLUE, ALMOST):
        moves = rules.legal_moves(position(picture))
        assert moves == sorted(set(moves))


def test_an_illegal_action_is_refused_and_changes_nothing():
    state = position(BLUE)
    for action in (Move((4, 5), 4), PASS):  # a swap that strands both; a pass with moves
        with pytest.raises(ValueError, match="not a legal action"):
            state.apply(action)
    assert state.turns == 0 and state.position() == position(BLUE).position()


# --- step 3: the special move ------------------------------------------------------------


def test_special_move_needs_no_reduction_and_may_go_to_the_smaller_community():
    state = position(SPECIAL)
    assert rules.is_special(state, 0)
    assert rules.isolated_around(state.model, state.tiles, 9) == 0  # nothing to reduce
    assert rules.legal_moves(state) == [
        # NW <-> W: yellow {(0,-2), (-1,-1), (0,-1), (-2,0)} and the lone blue (-1,0)
        Move((4, 8), 0),
        Move((4, 8), 3),
        Move((4, 8), 4),
        Move((4, 8), 7),
        Move((4, 8), 8),  # the smaller community
        # SW <-> SE: blue {(-1,1)} and yellow {(0,1), (-1,2)}
        Move((13, 14), 13),
        Move((13, 14), 14),
        Move((13, 14), 17),
    ]


def test_without_a_pawn_in_its_community_the_same_pawn_cannot_move():
    state = position(BLOCKED)
    assert not rules.is_special(state, 0)
    assert rules.swap_pairs(state, 0)  # swaps exist, but none reduces
    assert rules.legal_moves(state) == []


def test_the_special_rule_looks_at_the_community_not_the_colour():
    state = position(BLUE.replace("Y1 B R", "Y B1 R"))
    assert state.tiles[state.pawns[1]] == state.tiles[state.pawns[0]]  # both on blue
    assert not rules.is_special(state, 0)  # but (-1,2) is a blue community of its own


# --- step 4: passing, and the end --------------------------------------------------------


def test_a_pawn_without_a_legal_move_passes_and_that_is_a_turn():
    state = position(BLOCKED)
    assert state.legal_actions() == [PASS]
    play_turn(state, random.Random(1))
    assert state.history == [PASS]
    assert state.turns == 1 and state.to_move == 1 and state.ended is None
    assert state.counters["passes"] == 1 and state.counters["decisions"] == 0


def test_a_full_round_of_passes_is_stuck_not_a_repeat():
    state = position(BLOCKED)
    rng = random.Random(1)
    play_turn(state, rng)
    play_turn(state, rng)  # pawn 1 on (2,0): nothing around it to reduce
    assert state.ended is End.STUCK and state.turns == 2
    assert state.counters["isolated_left"] == len(rules.isolated_cells(state.model, state.tiles))


def test_passes_end_the_game_only_when_every_pawn_passed_in_a_row():
    state = position(SPECIAL, to_move=1)  # pawn 1 has a move; pawn 0 too (special)
    state.passes_in_a_row = 1
    play_turn(state, random.Random(2))
    assert state.ended is None and state.passes_in_a_row == 0


def test_no_isolated_tile_left_wins():
    state = position(ALMOST)
    assert len(rules.isolated_cells(state.model, state.tiles)) == 2
    moves = rules.legal_moves(state)
    assert {m.swap for m in moves} == {(5, 10)}
    rules.apply_move(state, moves[0])
    assert state.ended is End.WIN
    assert rules.isolated_cells(state.model, state.tiles) == []
    assert state.counters["isolated_left"] == 0


def test_a_repeated_position_loses():
    state = position(BLUE)
    move = Move((4, 8), 4)
    trial = position(BLUE)
    rules.apply_move(trial, move)
    state.seen.add(trial.position())  # as if the game had been here before
    rules.apply_move(state, move)
    assert state.ended is End.REPEAT


def test_the_same_board_with_another_pawn_to_move_is_no_repeat():
    state = position(BLUE)
    move = Move((4, 8), 4)
    trial = position(BLUE)
    rules.apply_move(trial, move)
    tiles, pawns, to_move = trial.position()
    state.seen.add((tiles, pawns, 1 - to_move))
    rules.apply_move(state, move)
    assert state.ended is None


def test_the_turn_cap_ends_a_game_as_a_timeout():
    state = position(BLUE)
    state.turns = rules.MAX_TURNS - 1
    rules.apply_move(state, Move((4, 8), 4))
    assert state.ended is End.TIMEOUT


# --- bots --------------------------------------------------------------------------------


def test_random_bot_is_rng_choice_over_the_canonical_list():
    state = position(BLUE)
    moves = rules.legal_moves(state)
    bot = make_bot("random")
    for seed in range(20):
        assert bot.choose(state, random.Random(seed)) == random.Random(seed).choice(moves)


def test_greedy_bot_takes_a_swap_leaving_fewest_isolated_tiles():
    state = position(BLUE)
    # whole-board isolated tiles after each legal swap: (4,8) leaves 6; (8,13), (10,14)
    # and (13,14) leave 4 each (7 before)
    bot = make_bot("greedy")
    picked = {bot.choose(state, random.Random(s)).swap for s in range(60)}
    assert picked == {(8, 13), (10, 14), (13, 14)}


def test_greedy_bot_wins_when_one_swap_does():
    state = position(ALMOST)
    move = make_bot("greedy").choose(state, random.Random(0))
    assert move is not PASS and move.swap == (5, 10)


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_both_bots_draw_a_forced_move_and_nothing_for_a_pass(bot):
    """`rng.choice` over one move still spends randomness (the fast path draws so too)."""
    forced, blocked = position(FORCED), position(BLOCKED)
    assert forced.legal_actions() == [Move((2, 5), 5)]
    for seed in range(5):
        rng, same = random.Random(seed), random.Random(seed)
        assert make_bot(bot).choose(forced, rng) == same.choice(forced.legal_actions())
        assert make_bot(bot).choose(blocked, rng) is PASS
        assert rng.random() == same.random()


def test_the_engine_names_its_bots_and_refuses_others():
    for name in engine.BOTS:
        assert engine.make_bot(name, None).name == name
    with pytest.raises(ValueError, match="unknown bot 'clever': choose one of random, greedy"):
        make_bot("clever")


# --- lines in the spec's JSON format, and replay ------------------------------------------


def test_turns_and_the_start_in_the_pinned_format():
    model = play_model(BuildingCommunityParams(radius=2))
    assert rules.turn_json(model, 1, Move((6, 11), 15)) == {
        "pawn": 1,
        "swap": [[2, -1], [2, 0]],
        "to": [1, 1],
    }
    assert rules.turn_json(model, 0, PASS) == {"pawn": 0, "pass": True}
    assert rules.turn_from_json(model, {"pawn": 0, "swap": [[2, 0], [2, -1]], "to": [1, 1]}) == (
        Move((6, 11), 15)
    )
    state = rules.new_game(model, 2)
    assert state.action_str(Move((6, 11), 15)) == "swap (2,-1) (2,0) to (1,1)"
    assert state.action_str(PASS) == "pass"
    start = rules.start_json(model, 2)
    assert start["pawns"] == [[1, 0], [-1, 0]]
    assert start["tiles"][:3] == [[0, -2, 2], [1, -2, 0], [2, -2, 1]]
    assert len(start["tiles"]) == 19


def test_replay_plays_a_legal_line_and_refuses_an_illegal_one():
    model = play_model(BuildingCommunityParams(radius=2))
    first = rules.turn_json(model, 0, Move((6, 11), 15))
    state = rules.replay(model, 2, [first])
    assert state.turns == 1 and state.pawns[0] == 15
    with pytest.raises(ValueError, match="illegal move"):
        rules.replay(model, 2, [rules.turn_json(model, 0, Move((6, 11), 10))])
    with pytest.raises(ValueError, match="is due"):
        rules.replay(model, 2, [rules.turn_json(model, 1, Move((6, 11), 15))])
    with pytest.raises(ValueError, match="a pass with"):
        rules.replay(model, 2, [{"pawn": 0, "pass": True}])


# --- params, model and the engine contract ----------------------------------------------


def test_params_declare_their_limits():
    validate_params(BuildingCommunityParams())
    with pytest.raises(PnpError, match="radius"):
        validate_params(BuildingCommunityParams(radius=9))
    with pytest.raises(PnpError, match="scope"):
        validate_params(BuildingCommunityParams(scope="far"))  # type: ignore[arg-type]
    with pytest.raises(PnpError, match="colours"):
        validate_params(BuildingCommunityParams(colours=("red", "blue")))


@pytest.mark.parametrize(
    "change, message",
    [
        ({"colours": ("red", "red", "blue")}, "tile colours must differ"),
        ({"colours": ("red", "blue", "mauve")}, "unknown colour 'mauve'"),
        ({"pawn_colours": ("red",) * 6}, "pawn colours must differ"),
        ({"clearance": 13.0}, "clearance"),
    ],
)
def test_cross_field_limits_fail_with_one_line(change, message):
    with pytest.raises(PnpError, match=message) as err:
        validate(BuildingCommunityParams(**change))
    assert "\n" not in str(err.value)


def test_prepare_takes_two_to_six_players():
    params = BuildingCommunityParams()
    assert engine.prepare(params, 6) == play_model(params)
    for players in (1, 7):
        with pytest.raises(PnpError, match="2 to 6 players"):
            engine.prepare(params, players)


def test_the_record_of_a_win_names_every_seat_and_a_loss_nobody():
    model = play_model(BuildingCommunityParams(radius=2))
    records = [engine.play_one(model, 3, "random", f"r:{i}") for i in range(60)]
    ends = {r.end for r in records}
    assert "win" in ends and ends <= {t.value for t in engine.TERMINATION}
    for r in records:
        assert r.winners == ((0, 1, 2) if r.end == "win" else ())
        assert r.colours == (("black",), ("purple",), ("green",))
        assert set(r.counters) == set(engine.COUNTERS)
        assert r.counters["decisions"] + r.counters["passes"] == r.turns
