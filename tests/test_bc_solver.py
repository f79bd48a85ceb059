"""Building Community solver: its lines replay with the reference rules; its verdicts."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.games.building_community import rules, solver
from pnp.games.building_community.engine import fast_board
from pnp.games.building_community.model import play_model
from pnp.games.building_community.params import BuildingCommunityParams


def replays_to_a_win(model, players: int, line) -> bool:
    state = rules.replay(model, players, list(line))
    return state.ended == "win" and state.turns == len(line)


def test_radius_2_two_players_wins_in_six_turns_at_best():
    model = play_model(BuildingCommunityParams(radius=2))
    result = solver.solve(model, 2, 2_000_000)
    assert result.result == "win" and result.shortest
    assert result.length == 6
    assert replays_to_a_win(model, 2, result.line)
    assert result.start == rules.start_json(model, 2)
    assert result.info == {"radius": 2, "players": 2, "scope": "near"}
    assert 0 < result.nodes <= 2_000_000


def test_a_small_budget_still_finds_a_line_on_the_default_board():
    model = play_model(BuildingCommunityParams())
    result = solver.solve(model, 2, 3_000)
    assert result.result == "win" and not result.shortest
    assert replays_to_a_win(model, 2, result.line)
    assert all(set(turn) in ({"pawn", "swap", "to"}, {"pawn", "pass"}) for turn in result.line)


def test_a_budget_too_small_for_any_line_says_unknown():
    model = play_model(BuildingCommunityParams())
    result = solver.solve(model, 2, 10)
    assert result.result == "unknown" and result.line == () and result.length is None
    assert not result.shortest
    assert result.start["pawns"] == [[2, 0], [-2, 0]]


def test_a_position_nobody_can_move_from_is_no_win():
    """Two pawns that can only pass: the search runs out of positions."""
    model = play_model(BuildingCommunityParams(radius=2))
    picture = ["Y R R", "Y B B R", "Y Y R R Y", "R Y B B", "R Y B"]  # tests/test_bc_rules BLOCKED
    tiles = ["RBY".index(c) for row in picture for c in row.split()]
    search = solver._Search(fast_board(model), 2, 1_000)
    t = search.t
    masks = [0, 0, 0]
    for cell, colour in enumerate(tiles):
        masks[colour] |= 1 << t.bit_of[cell]
    pawns = (t.bit_of[model.index((0, 0))], t.bit_of[model.index((2, 0))])
    search.start = search.encode(masks[0], masks[1], pawns, 0)
    search.start_left = t.isolated(*masks).bit_count()
    line, complete = search.best_first(0, True, None, 1_000)
    assert line is None and complete
    assert search.nodes == 2  # a pass each, then the first position again


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([2, 3]), st.integers(2, 6), st.integers(0, 2**32))
def test_keys_decode_to_what_was_encoded(radius, players, seed):
    model = play_model(BuildingCommunityParams(radius=radius))
    search = solver._Search(fast_board(model), players, 0)
    rng = random.Random(seed)
    m0, m1 = rng.getrandbits(search.S), rng.getrandbits(search.S)
    pawns = [search.t.bit_of[c] for c in rng.sample(range(model.size), players)]
    k = rng.randrange(players)
    assert search.decode(search.encode(m0, m1, tuple(pawns), k)) == (m0, m1, pawns, k)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([2, 3]), st.data())
def test_one_swap_joins_up_at_most_six_isolated_tiles(radius, data):
    """The bound the shortest-line proof rests on, over arbitrary colourings."""
    model = play_model(BuildingCommunityParams(radius=radius))
    tiles = data.draw(st.lists(st.integers(0, 2), min_size=model.size, max_size=model.size))
    before = len(rules.isolated_cells(model, tiles))
    for a in range(model.size):
        for b in model.neighbours[a]:
            after = len(rules.isolated_cells(model, rules.swapped(tiles, (a, b))))
            assert before - after <= solver.MAX_DROP


def test_lines_of_every_player_count_replay_on_radius_2():
    model = play_model(BuildingCommunityParams(radius=2))
    for players in range(3, 7):
        result = solver.solve(model, players, 20_000)
        assert result.result == "win"
        assert replays_to_a_win(model, players, result.line)
        assert [t["pawn"] for t in result.line] == [i % players for i in range(result.length)]


def test_anywhere_scope_lines_replay_too():
    model = play_model(BuildingCommunityParams(radius=2, scope="anywhere"))
    result = solver.solve(model, 3, 20_000)
    assert result.result == "win" and result.info["scope"] == "anywhere"
    assert replays_to_a_win(model, 3, result.line)
