"""The search's cut-off evaluation (`rules/outlook.py`): each seat's chance to win.

A playout cut off before the end used to score each seat by its place between the last
and the first on progress: a seat that stays last whatever it plays scored nothing for
every play, so the search could not tell a safe play from one that leaves its pawns to
be captured. These tests hold the chances to what a race says (more progress, fewer pawns
exposed, more chance; they sum to 1) and the search to the safe play from such a position.
"""

from __future__ import annotations

import random

from test_parcheesi_kernel import needs_kernel
from test_parcheesi_properties import MODELS

from pnp.games.parcheesi import engine
from pnp.games.parcheesi.rules import NEST, Position
from pnp.games.parcheesi.rules import state as game
from pnp.play.mcts import MctsBot

HOME = MODELS["seed"].home


def four_players(pawns: dict[int, list[int]], seat: int = 0) -> game.State:
    """A four-player game at a chance node of `seat`, colours' pawns as given."""
    state = game.new_game(MODELS["seed"], 4)
    for colour, own in pawns.items():
        state.pawns[colour] = list(own)
    state.seat, state.turns = seat, 60
    return state


def test_the_chances_sum_to_one_and_follow_the_race():
    """Ahead on the track, more chance; level, the seat to move first has the edge."""
    level = four_players({c: [10, 20, NEST, NEST] for c in range(4)})
    chances = level.win_chances()
    assert abs(sum(chances) - 1) < 1e-12
    assert chances[0] > chances[1] > chances[2] > chances[3]  # the turn order
    ahead = four_players({0: [10, 30, NEST, NEST]} | {c: [10, 20, NEST, NEST] for c in (1, 2, 3)})
    assert ahead.win_chances()[0] > chances[0]


def test_a_pawn_a_capture_could_send_back_lowers_the_chance():
    """Colour 0 with the same progress and pawns in the nest three ways: a blockade on 10,
    one pawn on a safe space (7) and one not (13), or neither on one (9 and 11): the more
    pawns exposed, the less chance. A pawn in the home strip cannot be captured."""
    model = MODELS["seed"]
    on_safe = [p for p in (7, 9, 10, 11, 13) if model.safe[model.paths[0][p]]]
    assert on_safe == [7]
    others = {c: [10, 20, NEST, NEST] for c in (1, 2, 3)}

    def chance(own: list[int]) -> float:
        return four_players({0: own} | others).win_chances()[0]

    assert chance([10, 10, NEST, NEST]) > chance([7, 13, NEST, NEST]) > chance([9, 11, NEST, NEST])
    strip = model.strip(0)
    assert not model.safe[model.paths[0][strip - 2]] and not model.safe[model.paths[0][2]]
    assert chance([strip, 0, NEST, NEST]) > chance([strip - 2, 2, NEST, NEST])


@needs_kernel
def test_a_seat_far_behind_still_keeps_its_pawns_safe():
    """Four players; the seat to move (colour 0) is far last, with no way past anyone in
    the search's eight turns, and rolls 3-4 with pawns on progress 9 and 20, two blue
    (colour 3) pawns 4 to 17 spaces behind them. Only 9+3 and 20+4 puts both on safe
    spaces (12 and 24); every other play leaves a pawn within a roll of blue's. Scored by
    place, every playout gave this seat nothing, so all four plays had the same visits
    (250 each of 1,000) and the pick was a coin's; scored by the chances to win, the
    search (as the engine sets it up) plays safe from every seed."""
    state = four_players(
        {
            0: [NEST, NEST, 9, 20],
            1: [HOME, HOME, 64, NEST],
            2: [HOME, HOME, 64, NEST],
            3: [20, 22, HOME, HOME],
        }
    )
    state.apply((3, 4))
    safe = Position((NEST, NEST, 12, 24))
    assert safe in state.legal_actions() and len(state.legal_actions()) == 4
    bot = MctsBot(
        budget=engine.MCTS_BUDGET,
        playout_turns=engine.PLAYOUT_TURNS,
        exploration=engine.MCTS_EXPLORATION,
    )
    for seed in range(10):
        visits = bot.search(state.clone(), random.Random(seed))
        assert max(visits, key=lambda a: visits[a]) == safe
        assert visits[safe] > max(n for a, n in visits.items() if a != safe)
