"""Exploding Dice's compiled tree search is `pnp.play.mcts`'s readable search, draw for draw.

`kernel.tree_search` (`_tree.h` over `pnp/play/_uct.h`) runs the search of
`MctsBot.search` on the kernel's positions. It is held to `MctsBot(compiled=False)` on the
readable rules: the same visits in the same order and the generator left in the same
state, from decisions of random games (a turn's first colour, a redraw's colour under the
`redraw` stall rule, an entry after one colour or several, the first die going in
unrestricted), near the end of a game, with 2 to 4 players and two colours each, on kits
of other sizes, faces, arrows and stall rules, at several budgets and horizons; and whole
games with mcts seats give the same records either way. A kit the kernel does not play is
left to the readable search.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kernels import with_hook
from test_ed_properties import kits
from tiers import ci_keeps

from pnp.games.exploding_dice import engine, rules
from pnp.games.exploding_dice.fast import kernel
from pnp.games.exploding_dice.params import ExplodingDiceParams, play_model
from pnp.games.exploding_dice.rules.entries import legal_entries
from pnp.play import fastpath
from pnp.play.mcts import EXPLORATION, MctsBot
from pnp.play.state import CHANCE
from pnp.sim.seats import Lineup, play_lineup

pytestmark = pytest.mark.skipif(
    kernel._kernel is None and not os.environ.get("CI"),
    reason="pnp was installed without a C compiler: the kernel was not built",
)

ONE_FACE = {  # dice that rarely explode: the grid crowds and the restriction bites
    "red": ((1, 1, 1, 1, 1, 1),),
    "green": ((1, 2, 2, 2, 2, 2),),
    "blue": ((1, 3, 3, 3, 3, 3),),
    "purple": ((1, 4, 4, 4, 4, 4),),
}
KITS = {
    "default": ExplodingDiceParams(),
    "six": ExplodingDiceParams(n=6, dice_per_colour=3),  # the reserve runs dry
    "crowded": ExplodingDiceParams(faces=ONE_FACE, arrows="pinwheel", dice_per_colour=8),
    "skip": ExplodingDiceParams(
        faces=ONE_FACE, arrows="pinwheel", dice_per_colour=8, stall="skip"
    ),  # games stall
}
MODELS = {name: play_model(p) for name, p in KITS.items()}
TURNS = engine.PLAYOUT_TURNS


def decisions(model, players: int, seed: int, each: int = 1) -> Iterator[rules.State]:
    """Every decision of one random game (a copy of each), then the game's end."""
    rng = random.Random(seed)
    state = rules.new_game(model, players, rng, each)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            yield state.clone()
            state.apply(state.random_action(rng))
    yield state


def game(model, players: int, seed: int, each: int = 1) -> list[rules.State]:
    """A random game's decisions."""
    return list(decisions(model, players, seed, each))[:-1]


def kind(state: rules.State) -> str:
    """Which decision of a turn this is."""
    if state.step is rules.Step.COLOUR:
        return "redraw" if state.tried else "colour"
    if not legal_entries(state, state.die, state.face):
        return "unrestricted"  # every colour failed: the first die goes in anyway
    return "entry after a redraw" if len(state.tried) > 1 else "entry"


def same_search(
    state: rules.State, budget: int, horizon: int, seed: int, cooperative: bool = False
) -> None:
    """The compiled search gives the readable one's visits, in order, and leaves the
    generator where it leaves it."""
    ours, theirs = random.Random(seed), random.Random(seed)
    compiled = kernel.tree_search(
        state, ours, fastpath.SearchSettings(budget, horizon, EXPLORATION, cooperative)
    )
    assert compiled is not None  # the kernel really searched
    bot = MctsBot(budget, cooperative=cooperative, playout_turns=horizon, compiled=False)
    readable = bot.search(state, theirs)
    assert list(compiled.items()) == list(readable.items())
    assert ours.getstate() == theirs.getstate()


def sample(model, players: int, seed: int, each: int = 1, every: int = 5) -> list[rules.State]:
    """Some decisions of a game: every `every`-th, each redraw, and the last four."""
    found = game(model, players, seed, each)
    keep = [s for i, s in enumerate(found) if i % every == 0 or kind(s) not in ("colour", "entry")]
    return keep + found[-4:]


@pytest.mark.parametrize(
    ("kit", "players", "each"),
    [("default", 4, 1), ("default", 2, 2), ("crowded", 3, 1), ("skip", 2, 1), ("six", 4, 1)],
)
def test_the_compiled_search_is_the_readable_one(kit, players, each):
    for seed in range(2):
        for i, state in enumerate(sample(MODELS[kit], players, seed, each, every=9)):
            budget, horizon = [(1, 40), (2, 1), (7, 2), (60, 40), (60, 2), (60, TURNS)][i % 6]
            same_search(state, budget, horizon, seed * 100 + i)


@pytest.mark.slow
@pytest.mark.parametrize("kit", sorted(KITS))
@pytest.mark.parametrize("players", ci_keeps([2, 3, 4], 0, 2))
def test_every_budget_and_horizon_from_many_positions(kit, players):
    for seed in range(3):
        for i, state in enumerate(sample(MODELS[kit], players, seed, every=7)):
            for budget in (1, 2, 7, 60):
                for horizon in (1, 2, TURNS, 40):
                    same_search(state, budget, horizon, 1000 * seed + 10 * i + horizon)
            if i % 4 == 0:
                same_search(state, 400, (1, 2, TURNS, 40)[i % 4], seed + i)


def test_the_positions_hold_every_kind_of_decision_and_ending():
    """The positions the tests search from hold every step of a turn and every ending (a
    check on the tests: a kit change that lost one would leave it untested)."""
    kinds, ends = set(), set()
    for model in MODELS.values():
        for seed in range(10):
            *played, end = decisions(model, 4, seed)
            kinds |= {kind(state) for state in played}
            ends.add(end.ended)
    assert kinds == {"colour", "redraw", "entry", "entry after a redraw"}
    assert ends >= {rules.Termination.FIFTY, rules.Termination.FULL}
    assert ends >= {rules.Termination.STALLED, rules.Termination.RESERVE}


@pytest.mark.slow
def test_the_first_die_going_in_unrestricted():
    """Every colour fails the restriction: the first die and roll go in anyway, on any
    entry with room (rare in random play: one game in hundreds on a kit whose dice
    hardly explode reaches it, seed 38's at its 60th decision)."""
    found = game(play_model(ExplodingDiceParams(faces=ONE_FACE)), 2, 38)
    assert kind(found[59]) == "unrestricted"
    for i, state in enumerate(found[52:]):
        for horizon in (2, TURNS, 40):
            same_search(state, 200, horizon, i)


def every_colour_fails(state: rules.State) -> rules.State | None:
    """A redraw's position with the reserve cut down to the colours not tried that fit
    nowhere (None when none of them fails, or all do): whichever is drawn fails too, and
    the turn's first die and roll go in unrestricted after several colours."""
    untried = {state.colour_of(d) for d in state.reserve} - set(state.tried)
    first_die = {}
    for d, die in enumerate(state.model.dice):
        first_die.setdefault(die.colour, d)
    failing = {c for c in untried if not legal_entries(state, first_die[c], 0)}
    if not failing or failing == untried:
        return None
    cut = state.clone()
    cut.reserve = [d for d in state.reserve if state.colour_of(d) not in untried - failing]
    cut.options = tuple(rules.lowest_score_colours(cut, failing))
    return cut


def test_the_first_die_going_in_after_every_colour_failed():
    """The `redraw` rule's last resort after several colours: the first colour's die and
    roll go in (positions cut down by hand from redraws of random games, as the random
    games reach it too seldom to test)."""
    cut = []
    for seed in range(12):
        for state in game(MODELS["crowded"], 2, seed):
            if kind(state) == "redraw" and (position := every_colour_fails(state)):
                cut.append(position)
    assert len(cut) >= 5
    for i, state in enumerate(cut):
        for horizon in (2, TURNS):
            same_search(state, 60, horizon, i)


def test_a_stalled_game_is_a_cut_off_scored_on_the_points():
    """Under the `skip` rule a round with no die placed and no point ends the game
    `stalled`: the leaders share less than a win (`LEAD_REWARD`)."""
    for seed in range(2):
        *played, end = decisions(MODELS["skip"], 2, seed)
        assert end.ended is rules.Termination.STALLED
        for i, state in enumerate(played[:8]):  # the end's last turns are forced
            same_search(state, 100, (TURNS, 40)[i % 2], i)


def test_a_search_without_a_standing_is_the_readable_one_too(monkeypatch):
    """A playout the search cuts off scores nothing where the state keeps no standing."""
    monkeypatch.delattr(rules.State, "standing")
    for i, state in enumerate(sample(MODELS["default"], 4, 5, every=6)):
        same_search(state, 40, (2, TURNS)[i % 2], i)


def test_a_cooperative_search_is_the_readable_one_too():
    for i, state in enumerate(sample(MODELS["crowded"], 2, 3, every=11)):
        same_search(state, 30, (1, 40)[i % 2], i, cooperative=True)


@settings(max_examples=25, deadline=None)
@given(
    params=kits(per_die=False),
    players=st.integers(2, 4),
    seed=st.integers(0, 10**6),
    at=st.floats(0, 1),
    budget=st.sampled_from([1, 2, 7, 40]),
    horizon=st.sampled_from([1, 2, 40]),
)
def test_any_kit_any_decision(params, players, seed, at, budget, horizon):
    model = play_model(params)
    found = game(model, players, seed)
    if found:
        same_search(found[int(at * (len(found) - 1))], budget, horizon, seed)


def test_a_kit_the_kernel_does_not_play_is_searched_on_the_readable_rules():
    faces = {
        "red": ((1, 2, 3, 4, 5, 6), (1, 1, 1, 1, 1, 1), (1, 2, 2, 2, 2, 2), (1, 3, 3, 3, 3, 3))
    }
    model = play_model(ExplodingDiceParams(faces=faces))
    state = game(model, 4, 1)[0]
    rng = random.Random(5)
    before = rng.getstate()
    assert (
        kernel.tree_search(state, rng, fastpath.SearchSettings(10, 40, EXPLORATION, False)) is None
    )
    assert rng.getstate() == before  # untouched
    a, b = random.Random(5), random.Random(5)
    assert MctsBot(10).search(state, a) == MctsBot(10, compiled=False).search(state, b)


def test_mcts_bot_calls_the_compiled_search():
    """`MctsBot` takes the kernel's `tree_search` (attached through `pnp.play.fastpath`) when it
    answers."""
    state = game(MODELS["default"], 4, 2)[0]
    calls = []
    real = kernel.tree_search
    a, b = random.Random(1), random.Random(1)
    with with_hook(rules.State, tree_search=lambda *a: calls.append(1) or real(*a)):
        assert MctsBot(50).search(state, a) == MctsBot(50, compiled=False).search(state, b)
    assert calls == [1] and a.getstate() == b.getstate()


@pytest.mark.parametrize(
    ("players", "bots", "options"),
    ci_keeps(
        [
            (4, ("mcts",) * 4, {}),
            (2, ("mcts", "greedy"), {"two_colours": True}),
            (3, ("mcts",) * 3, {}),
        ],
        1,
    ),
)
@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_whole_games_are_the_same_compiled_or_not(monkeypatch, players, bots, options):
    """Games with mcts seats (as `pnp simulate --bot mcts` plays them) give the same records
    and leave the generator alike, with the compiled search, without it (the kernel's
    playouts), and on the readable rules alone (no kernel at all)."""
    model = engine.prepare(ExplodingDiceParams(), players, **options)
    lineup = Lineup(bots, 30)

    def games() -> list[tuple[object, object]]:
        out = []
        for i in range(3):
            rng = random.Random(f"7:{i}")
            out.append(
                (play_lineup(engine, model, players, lineup, rng, **options), rng.getstate())
            )
        return out

    compiled = games()
    with with_hook(rules.State, tree_search=None):
        assert games() == compiled
    with fastpath.using(fastpath.READABLE):
        assert games() == compiled
