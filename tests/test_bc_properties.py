"""Building Community over random games and positions: invariants, the game-state API,
and fast == reference."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.games.building_community import engine, rules
from pnp.games.building_community.params import BuildingCommunityParams
from pnp.games.building_community.rules import PASS, End
from pnp.games.building_community.rules.model import play_model
from pnp.play.state import CHANCE, TERMINAL
from pnp.play.state import State as GameState

SOME = settings(max_examples=25, deadline=None)

kits = st.builds(
    BuildingCommunityParams,
    radius=st.sampled_from([2, 2, 3, 4]),
    scope=st.sampled_from(["near", "anywhere"]),
)


def play_checked(model, players: int, bot: str, seed: int) -> rules.State:
    """A reference game through the game-state API, checking every turn's invariants."""
    rng = random.Random(seed)
    state = engine.new_state(model, players, rng)
    colours = Counter(state.tiles)
    b = engine.make_bot(bot, model)
    while not state.is_terminal():
        mover, cell = state.to_move, state.pawns[state.to_move]
        stood = state.tiles[cell]
        moves = rules.legal_moves(state)
        assert len(set(moves)) == len(moves)
        assert state.legal_actions() == (moves or [PASS])
        state.apply(b.choose(state, rng))
        move = state.history[-1]
        assert (move is PASS) == (not moves)
        if move is not PASS:
            assert move in moves
            assert state.tiles[move.to] != stood  # every move changes the pawn's colour
            assert state.pawns[mover] == move.to
        assert Counter(state.tiles) == colours  # swaps never change the colour counts
        assert len(set(state.pawns)) == players  # no two pawns on one space
        assert state.turns <= rules.MAX_TURNS
    assert isinstance(state.ended, End)
    assert len(state.history) == state.turns
    return state


@SOME
@given(kits, st.integers(2, 6), st.sampled_from(engine.BOTS), st.integers(0, 2**32))
def test_games_keep_tiles_and_pawns_apart_and_end(params, players, bot, seed):
    model = play_model(params)
    state = play_checked(model, players, bot, seed)
    outcome = state.outcome()
    assert outcome is not None and outcome.termination is state.ended
    if state.ended is End.WIN:
        assert rules.isolated_cells(model, state.tiles) == []
        assert outcome.winners == tuple(range(players))
    else:
        assert outcome.winners == ()
    if state.ended is End.STUCK:
        assert state.history[-players:] == [PASS] * players
    if state.ended is End.REPEAT:
        assert state.position() in state.seen


def snapshot(state: rules.State) -> tuple:
    """Everything a turn changes, copied."""
    return (
        state.position(),
        (state.turns, state.passes_in_a_row, state.ended),
        (frozenset(state.seen), tuple(state.history), tuple(state.counters.items())),
    )


@SOME
@given(kits, st.integers(2, 6), st.integers(0, 2**32))
def test_the_state_api_holds_over_random_games(params, players, seed):
    """No chance nodes; random actions are legal; a clone is independent; games end."""
    model = play_model(params)
    rng = random.Random(seed)
    state = engine.new_state(model, players, rng)
    assert isinstance(state, GameState)
    while not state.is_terminal():
        assert state.current_player() == state.to_move != CHANCE
        assert state.chance_outcomes() == ()
        action = state.random_action(rng)
        assert action in state.legal_actions()
        before = snapshot(state)
        twin = state.clone()
        twin.apply(action)
        assert snapshot(state) == before  # the original did not move with its clone
        state.apply(action)
        assert state == twin and state.position() == twin.position()
    assert state.current_player() == TERMINAL and state.outcome() is not None
    assert state.turns <= rules.MAX_TURNS
    with pytest.raises(ValueError):
        state.apply(PASS)  # nothing is legal once the game is over


@SOME
@given(kits, st.integers(2, 6), st.sampled_from(engine.BOTS), st.integers(0, 2**32))
def test_fast_engine_plays_the_same_game_as_the_reference(params, players, bot, seed):
    model = play_model(params)
    fast = engine.play_one(model, players, bot, seed)
    assert fast == engine.play_one(model, players, bot, seed, reference=True)


@st.composite
def positions(draw):
    """Any tiles (not only reachable ones), distinct pawns, any pawn to move."""
    params = draw(kits)
    model = play_model(params)
    tiles = draw(st.lists(st.integers(0, 2), min_size=model.size, max_size=model.size))
    players = draw(st.integers(2, 6))
    pawns = draw(st.permutations(range(model.size)))[:players]
    state = rules.State(model, tiles, list(pawns), draw(st.integers(0, players - 1)))
    return state


@settings(max_examples=30, deadline=None)
@given(positions())
def test_fast_options_list_the_reference_moves_in_the_same_order(state):
    t = engine.fast_board(state.model)
    masks = [0, 0, 0]
    for cell, colour in enumerate(state.tiles):
        masks[colour] |= 1 << t.bit_of[cell]
    occ = sum(1 << t.bit_of[p] for p in state.pawns)
    p = t.bit_of[state.pawns[state.to_move]]
    special = t.is_special(tuple(masks), occ, p)
    assert special == rules.is_special(state, state.to_move)
    fast = []
    for a, b, _, _, _, dest, left in t.options(*masks, occ, p, special):
        after = rules.swapped(state.tiles, (t.cell_of[a], t.cell_of[b]))
        assert left == len(rules.isolated_cells(state.model, after))
        while dest:
            low = dest & -dest
            dest ^= low
            fast.append(rules.Move((t.cell_of[a], t.cell_of[b]), t.cell_of[low.bit_length() - 1]))
    assert fast == rules.legal_moves(state)


def test_fast_and_reference_agree_game_by_game_on_the_default_kit():
    model = play_model(BuildingCommunityParams())
    for players in (2, 4, 6):
        for bot in engine.BOTS:
            for i in range(15):
                seed = f"7:{i}"
                assert engine.play_one(model, players, bot, seed) == engine.play_one(
                    model, players, bot, seed, reference=True
                )


def test_a_seed_fixes_the_game_and_different_seeds_differ():
    model = play_model(BuildingCommunityParams())
    a = [engine.play_one(model, 3, "random", f"1:{i}") for i in range(30)]
    assert a == [engine.play_one(model, 3, "random", f"1:{i}") for i in range(30)]
    assert len({(r.turns, r.counters["legal_moves"]) for r in a}) > 10
    assert engine.play_one(model, 3, "random", random.Random("1:5")) == a[5]


def test_random_games_on_the_default_board_end_stuck_within_a_few_dozen_turns():
    """Loose sanity bounds over 300 games (the README has the measured numbers)."""
    model = play_model(BuildingCommunityParams())
    records = [engine.play_one(model, 2, "random", f"3:{i}") for i in range(300)]
    ends = Counter(r.end for r in records)
    assert ends["stuck"] > 250 and set(ends) <= {t.value for t in engine.TERMINATION}
    assert 5 < sum(r.turns for r in records) / len(records) < 40
