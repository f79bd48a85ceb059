"""Desert Home over random games: every piece and tile accounted for, points spent while
they can be, every game ends, a seed fixes the game, the supply check agrees with play, and
the readable rules keep the `pnp.play.state.State` API's promises."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.games.desert_home import engine, rules
from pnp.games.desert_home.kit.supply import supply_verdict
from pnp.games.desert_home.params import DesertHomeParams
from pnp.games.desert_home.rules import (
    ENTER,
    MOVE,
    NONE,
    P_SPEND,
    PROTECT,
    STOP,
    THIRST,
    End,
    goal,
    moves,
)
from pnp.games.desert_home.rules import turn as turn_steps
from pnp.games.desert_home.rules.bots import make_bot
from pnp.games.desert_home.rules.model import CAMP_ENTRY, play_model
from pnp.games.desert_home.rules.state import State, new_state
from pnp.play.forward import play
from pnp.play.state import CHANCE, TERMINAL

FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
COST = {MOVE: lambda a: a[4], ENTER: lambda a: 3 if a[3] else 1, PROTECT: lambda a: 3}


@st.composite
def kits(draw) -> DesertHomeParams:
    """Boards, decks, supplies and goals of every size the rules should cope with."""
    rows = draw(st.integers(2, 6))
    refuges = draw(st.lists(st.integers(0, rows - 1), min_size=2, max_size=2, unique=True))
    safe = draw(st.integers(0, 30))
    return DesertHomeParams(
        rows=rows,
        path_columns=draw(st.integers(1, 5)),
        refuge_rows=tuple(refuges),
        deck_safe=safe,
        deck_thirst=draw(st.integers(0 if safe else 1, 20)),
        protection_cards=draw(st.integers(0, 6)),
        figures_per_colour=draw(st.integers(0, 14)),
        tents_per_colour=draw(st.integers(0, 3)),
        goal_per_colour=draw(st.integers(1, 6)),
        tent_value=draw(st.integers(1, 4)),
        road_bonus=draw(st.sampled_from(["optional", "compulsory"])),
    )


def check_invariants(state: State) -> None:
    m = state.model
    blue = m.blue
    for c in range(len(m.colours)):  # every figure and tent, exactly once
        figs = state.camp_figs[c] + sum(state.refuge_figs[s][c] for s in range(2))
        tents = state.camp_tents[c] + sum(state.refuge_tents[s][c] for s in range(2))
        for i in range(m.cells):
            if state.colour[i] == c:
                figs += state.figs[i]
                tents += state.tents[i]
            if c == blue:
                figs += state.bearer[i]
        assert (figs, tents) == (m.figures[c], m.tents[c])
    assert min(state.camp_figs) >= 0 and min(state.camp_tents) >= 0
    placed = [i for i in m.path_cells if state.tile[i] != NONE]
    hand = [state.drawn] if state.drawn else []  # a tile drawn, its slot not yet chosen
    assert len(placed) + len(hand) + len(state.deck) == m.deck_size  # tiles conserved
    assert not hand or state.phase in (rules.P_PLACE, rules.P_ROAD_TILE)
    thirsty = sum(state.tile[i] != rules.SAFE for i in placed) + hand.count(THIRST)
    assert thirsty + state.deck.count(THIRST) == m.deck_thirst
    guarded = sum(state.tile[i] == rules.GUARDED for i in placed)
    assert guarded + state.cards == m.protection_cards
    for i in range(m.cells):
        c = state.colour[i]
        if c < 0:
            assert state.figs[i] == state.tents[i] == state.bearer[i] == 0
            continue
        assert state.tile[i] != NONE  # pieces stand on placed tiles or entry fields only
        assert state.figs[i] + state.tents[i] >= 1 and state.bearer[i] in (0, 1)
        assert not (state.bearer[i] and c == blue)  # blue groups need no escort
        if m.kind[i] == CAMP_ENTRY:
            assert state.figs[i] + state.tents[i] == 1  # one piece, plus maybe a bearer


def play_checked(model, bot: str, seed, max_rounds: int = 40) -> State:
    """A game through the State API with the invariants checked after every step and the
    spending duty checked at every choice."""
    rng = random.Random(seed)
    b = make_bot(bot, model)
    state = new_state(model, 2, rng, max_rounds)
    into_refuge = False
    turn = state.turns
    while not state.is_terminal():
        check_invariants(state)
        if state.turns != turn:
            turn, into_refuge = state.turns, False
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        actions = state.legal_actions()
        assert actions and actions == moves.legal_actions(state)  # the kept list is current
        if state.phase == P_SPEND:
            assert ((STOP,) in actions) == into_refuge  # STOP only after a refuge move
            assert all(COST.get(a[0], lambda a: 1)(a) <= state.points for a in actions)
        action = b.choose(state, rng)
        if state.phase == P_SPEND and action[0] not in (STOP, rules.SWAP):
            left = state.points - COST.get(action[0], lambda a: 1)(action)
            raw = state.clone()  # the action alone, before points with no use are let go
            turn_steps.apply(raw, action)
            if raw.turns != turn and raw.ended is None and raw.phase != rules.P_SWAP:
                assert left == 0  # a turn never ends with points a use exists for
        state.apply(action)
        if action[0] == MOVE and action[2] >= model.cells:
            into_refuge = True
        if action[0] == rules.ROAD and action[1] >= 0:
            into_refuge = into_refuge or state.may_stop
    check_invariants(state)
    assert isinstance(state.ended, End) and state.current_player() == TERMINAL
    assert state.round <= max_rounds and len(state.leaders) == state.turns
    if state.ended is End.REFUGE:
        for seat in state.winners:
            assert rules.goal_met(goal.refuge_values(state, seat), model.blue, model.goal)
    if state.ended is End.DECK:
        assert not state.deck and goal.nobody_can_win(state)
    return state


def snapshot(state: State) -> dict:
    """Everything a position holds (derived data left out), copied."""
    skip = ("model", "memo", "legal")
    return copy.deepcopy(
        {k: getattr(state, k) for k in state.__dataclass_fields__ if k not in skip}
    )


@FEW
@given(kits(), st.integers(0, 2**32), st.sampled_from(["random", "greedy"]))
def test_the_state_api_keeps_its_promises(params, seed, bot):
    """Over whole games: chance outcomes sum to 1 and `sample_chance` draws one of them,
    `random_action` one of the legal actions, a clone is independent of its original, and
    the game ends."""
    model = play_model(params)
    rng = random.Random(seed)
    state = new_state(model, 2, rng, max_rounds=25)
    b = make_bot(bot, model)
    steps = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            action = state.sample_chance(rng)
            assert action in [a for a, _ in outcomes]
        else:
            assert state.random_action(random.Random(steps)) in state.legal_actions()
            action = b.choose(state, rng)
        if steps % 5 == 0:  # a clone plays on; the original stays as it was
            before, twin = snapshot(state), state.clone()
            twin.apply(action)
            while not twin.is_terminal() and twin.current_player() == CHANCE:
                twin.apply(twin.sample_chance(random.Random(steps)))
            assert snapshot(state) == before
        state.apply(action)
        steps += 1
        assert steps < 100_000
    assert state.outcome() is not None and state.outcome().termination is state.ended


@FEW
@given(kits(), st.integers(0, 2**32))
def test_random_games_keep_every_piece_and_tile_and_end(params, seed):
    play_checked(play_model(params), "random", seed)


@settings(max_examples=8, deadline=None)
@given(kits(), st.integers(0, 2**32))
def test_greedy_games_keep_the_invariants(params, seed):
    play_checked(play_model(params), "greedy", seed, max_rounds=25)


def test_default_games_keep_the_invariants_to_the_end():
    model = play_model(DesertHomeParams())
    for i in range(4):
        play_checked(model, "greedy", f"9:{i}", max_rounds=rules.MAX_ROUNDS)
    play_checked(model, "random", "9:r", max_rounds=rules.MAX_ROUNDS)


@pytest.mark.parametrize(
    "changes",
    [{}, {"deck_safe": 14, "deck_thirst": 6}, {"figures_per_colour": 4, "tents_per_colour": 1}],
    ids=["default", "deck-runs-out", "shortage-swaps"],
)
def test_random_games_play_whole_as_the_readable_rules(changes):
    """Whole games to the round limit (in the kernel when it is built) give the readable
    rules' records; the kits reach the deck's end and the shortage."""
    model = engine.prepare(DesertHomeParams(**changes), 2)
    for i in range(4):
        reference = engine.play_one(model, 2, "random", f"8:{i}", reference=True)
        assert engine.play_one(model, 2, "random", f"8:{i}") == reference


def test_a_seed_fixes_the_game_and_different_seeds_differ():
    model = engine.prepare(DesertHomeParams(), 2)
    for bot in engine.BOTS:
        a = [engine.play_one(model, 2, bot, f"1:{i}", max_rounds=60) for i in range(6)]
        b = [engine.play_one(model, 2, bot, f"1:{i}", max_rounds=60) for i in range(6)]
        assert a == b
        assert len({(r.turns, r.scores, r.counters["deaths"]) for r in a}) > 3
    rng = random.Random("1:2")  # a seeded generator gives the same game as its seed
    assert engine.play_one(model, 2, "greedy", rng, max_rounds=60) == engine.play_one(
        model, 2, "greedy", "1:2", max_rounds=60
    )


def test_a_small_deck_can_run_out_and_end_the_game():
    model = play_model(DesertHomeParams(deck_safe=4, deck_thirst=2))
    ends = Counter(play_checked(model, "random", f"4:{i}", 80).ended for i in range(12))
    assert ends[End.DECK] > 0


@pytest.mark.slow  # a second or more: the fast tier stays under a minute
def test_a_supply_the_verdict_rejects_never_gives_a_win():
    params = DesertHomeParams(figures_per_colour=4, tents_per_colour=0)
    model = play_model(params)
    assert supply_verdict(model)[0] is False
    for bot in engine.BOTS:
        for i in range(6):
            assert play_checked(model, bot, f"5:{i}", 60).ended is not End.REFUGE


def test_the_default_supply_is_accepted_and_greedy_games_are_won():
    model = play_model(DesertHomeParams())
    assert supply_verdict(model)[0]
    ends = Counter(engine.play_one(model, 2, "greedy", f"6:{i}").end for i in range(10))
    assert ends["refuge"] >= 8


def test_greedy_beats_random_from_either_seat():
    model = play_model(DesertHomeParams())
    for greedy_seat in (0, 1):
        bots = [make_bot("random", model), make_bot("random", model)]
        bots[greedy_seat] = make_bot("greedy", model)
        wins = Counter()
        for i in range(8):
            rng = random.Random(f"2:{i}")
            wins[play(new_state(model, 2, rng), bots, rng).state.winners] += 1
        assert wins[(greedy_seat,)] >= 7
