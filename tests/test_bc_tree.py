"""Building Community's compiled tree search (`_tree.h` over `pnp/play/_uct.h`,
`playout.tree_search`) is the readable one (`MctsBot(compiled=False).search`), draw for draw.

From positions of every kind (the start, the middle, a few turns before a win, a stuck
game or a repeat, a special turn, a forced pass, passes under way, a game near the turn
cap; 2 to 6 players; boards of radius 2 and 3, both swap scopes) and for budgets, horizons
and team scoring of every size, the two searches give the same visits in the same order
and leave the generator in the same state; whole games of mcts seats give the same records
either way. Where the kernel does not take the board, `tree_search` is None and leaves the
generator alone.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kernels import with_hook
from tiers import ci_keeps

from pnp.games import get_game
from pnp.games.building_community import engine as bc_engine
from pnp.games.building_community import rules
from pnp.games.building_community.fast import kernel as bc_playout
from pnp.play import fastpath
from pnp.play.mcts import EXPLORATION, PLAYOUT_TURNS, MctsBot
from pnp.sim.command import run_simulation
from pnp.sim.seats import Lineup, play_lineup

SLUG = "building-community"
KITS = (
    {"radius": 3},
    {"radius": 2},
    {"radius": 3, "scope": "anywhere"},
    {"radius": 2, "scope": "anywhere"},
)


def model(**params: Any) -> Any:
    kit = dataclasses.replace(get_game(SLUG).default_params(), **params)
    return bc_engine.prepare(kit, 2)


def game(kit: dict[str, Any], players: int, seed: int) -> list[rules.State]:
    """Every position of one random game, the end included."""
    state = rules.new_game(model(**kit), players)
    rng, out = random.Random(seed), [state.clone()]
    while not state.is_terminal():
        state.apply(state.random_action(rng))
        out.append(state.clone())
    return out


def kinds(state: rules.State, line: list[rules.State], i: int) -> set[str]:
    """What sort of decision a position is (a position may be several)."""
    end = line[-1].ended
    assert end is not None
    out = {f"players {state.players}", f"radius {state.model.radius}", state.model.scope}
    if len(line) - i <= 4:
        out.add(f"{len(line) - 1 - i} before {end.value}")
        out.add(f"near {end.value}")
    if i == 0:
        out.add("start")
    special, moves = state.turn_options()
    if special:
        out.add("special")
    if not moves:
        out.add("pass")
    if state.passes_in_a_row:
        out.add("passes under way")
    return out


def positions() -> Iterator[tuple[rules.State, set[str]]]:
    """Decisions from random games of several seeds, kits and player counts: the first,
    a few in the middle, the last four; and a few games moved near the turn cap."""
    for k, kit in enumerate(KITS):
        for players in (2, 3, 4, 6):
            for seed in range(3 if players <= 3 else 1):
                line = game(kit, players, 100 * k + 10 * players + seed)
                chosen = {0, len(line) // 3, len(line) // 2, *range(len(line) - 5, len(line) - 1)}
                for i in sorted(i for i in chosen if 0 <= i < len(line) - 1):
                    yield line[i], kinds(line[i], line, i)
    for seed in range(4):
        line = game(KITS[seed % 2], 2 + seed // 2, seed)
        for back in (3, 4):  # stuck a few turns on, or cut off by the turn cap
            state = line[-1 - back]
            state.turns = rules.MAX_TURNS - 3
            yield state, {"near the turn cap"}


def endings(
    end: rules.End, kit: dict[str, Any], players: int
) -> Iterator[tuple[rules.State, set[str]]]:
    """The last positions before random games' wins or repeats (a few games in a hundred
    end so on these kits)."""
    found = 0
    for seed in range(1000):
        line = game(kit, players, seed)
        if line[-1].ended is end:
            found += 1
            for i in range(max(0, len(line) - 4), len(line) - 1):
                yield line[i], kinds(line[i], line, i)
        if found == 2:
            return


@functools.cache
def all_positions() -> tuple[tuple[rules.State, set[str]], ...]:
    """The positions the tests search from: made once per process, on first use (not while
    pytest collects, which every worker does)."""
    return (
        *positions(),
        *endings(rules.End.WIN, KITS[1], 2),
        *endings(rules.End.WIN, KITS[0], 6),
        *endings(rules.End.REPEAT, KITS[3], 2),
    )


SHARDS = 12
"""The positions are searched in this many tests, each taking every SHARDS-th: the work
spreads over the workers without making the positions at collection."""


def both(
    state: rules.State, budget: int, horizon: int, cooperative: bool, seed: int
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(visits in order, the generator's state after) of the compiled and readable search."""
    out = []
    for compiled in (True, False):
        rng = random.Random(seed)
        bot = MctsBot(budget, cooperative, horizon, EXPLORATION, compiled)
        visits = bot.search(state.clone(), rng)
        out.append((tuple(visits.items()), rng.getstate()))
    return out[0], out[1]


@pytest.mark.slow  # checks the test's own positions, which the fast tier searches
def test_the_positions_cover_every_kind_of_decision():
    seen = set().union(*(k for _, k in all_positions()))
    for needed in (
        "start",
        "special",
        "pass",
        "passes under way",
        "near the turn cap",
        "1 before win",
        "1 before stuck",
        "1 before repeat",
        "players 2",
        "players 3",
        "players 4",
        "players 6",
        "radius 2",
        "radius 3",
        "near",
        "anywhere",
    ):
        assert needed in seen, needed


def test_the_compiled_search_runs_on_the_kernel():
    """`tree_search` answers (not None) for every position here, and draws (a choice of
    one of several actions at least)."""
    every = all_positions()
    for state, _ in every[:: max(1, len(every) // 12)]:
        rng = random.Random(3)
        before = rng.getstate()
        visits = bc_playout.tree_search(
            state, rng, fastpath.SearchSettings(20, PLAYOUT_TURNS, EXPLORATION, True)
        )
        assert visits is not None and sum(visits.values()) == 20
        assert set(visits) <= set(state.legal_actions())
        assert rng.getstate() != before or len(state.legal_actions()) == 1


BUDGETS = (1, 2, 7, 60)
COMBOS = [
    (budget, horizon, cooperative)
    for budget in BUDGETS
    for horizon in (1, 2, PLAYOUT_TURNS)
    for cooperative in (True, False)
]


@pytest.mark.parametrize("shard", range(SHARDS))
def test_compiled_equals_readable(shard):
    """Each position at the default horizon, and under two more of the combinations (they
    rotate over the positions)."""
    every = all_positions()
    for index in range(shard, len(every), SHARDS):
        state, _ = every[index]
        tried = [(BUDGETS[index % len(BUDGETS)], PLAYOUT_TURNS, index % 2 == 0)]
        tried += [COMBOS[(2 * index + j) % len(COMBOS)] for j in range(2)]
        for j, (budget, horizon, cooperative) in enumerate(tried):
            compiled, readable = both(state, budget, horizon, cooperative, seed=index + 7 * j)
            assert compiled == readable, (index, budget, horizon, cooperative)


@pytest.mark.slow  # a second or more: the fast tier stays under a minute
def test_the_turn_cap_inside_the_tree():
    """Positions three turns from the cap: some playouts end stuck, others cut off (which
    score nothing, as the game's record keeps no scores)."""
    near = [state for state, kind in all_positions() if "near the turn cap" in kind]
    for state in near:
        for budget in (60, 400):
            for cooperative in (True, False):
                compiled, readable = both(state, budget, PLAYOUT_TURNS, cooperative, budget)
                assert compiled == readable


def repeats(found: int) -> Iterator[rules.State]:
    """The position just before the first of a repeat's two visits, in random games whose
    repeat closes a cycle of four turns: a search from there meets the repeat inside its
    tree, not only among the positions seen before the root."""
    for seed in range(1000):
        line = game(KITS[3], 2, seed)
        if line[-1].ended is rules.End.REPEAT:
            seen = [s.position() for s in line]
            first = seen.index(seen[-1])
            if len(line) - 1 - first == 4:
                yield line[first - 1]
                found -= 1
                if not found:
                    return


@pytest.mark.slow
def test_a_repeat_inside_the_tree():
    """Deep enough a search to walk the cycle in its tree (the repeat rule on the positions
    reached since the root, `tree_seen`'s path)."""
    for state in repeats(2):
        compiled, readable = both(state, 2000, PLAYOUT_TURNS, True, 1)
        assert compiled == readable


@pytest.mark.slow
@pytest.mark.parametrize(
    "budget", [1, 2, 7, *(pytest.param(b, marks=pytest.mark.long) for b in (60, 400))]
)
def test_compiled_equals_readable_everywhere(budget):
    """Every position under every horizon and scoring."""
    for index, (state, _) in enumerate(all_positions()):
        for horizon in (1, 2, PLAYOUT_TURNS):
            for cooperative in (True, False):
                compiled, readable = both(state, budget, horizon, cooperative, seed=index)
                assert compiled == readable, (index, horizon, cooperative)


@settings(max_examples=40)
@given(
    kit=st.sampled_from(KITS),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 60),
    budget=st.integers(1, 120),
    horizon=st.sampled_from([1, 2, 3, 5, 13, PLAYOUT_TURNS, 200, 10**6]),
    cooperative=st.booleans(),
)
def test_compiled_equals_readable_anywhere(kit, players, seed, steps, budget, horizon, cooperative):
    line = game(kit, players, seed)
    state = line[min(steps, len(line) - 2)]
    compiled, readable = both(state, budget, horizon, cooperative, seed)
    assert compiled == readable


def test_no_kernel_no_compiled_search():
    """A board too big for the kernel's 64 bits (radius 4), or a game over: None, and the
    generator untouched (the readable search then runs, and agrees with itself)."""
    big = rules.new_game(model(radius=4), 2)
    assert bc_playout.tables(big.model) is None
    over = game(KITS[1], 2, 0)[-1]
    for state in (big, over):
        rng = random.Random(5)
        before = rng.getstate()
        assert (
            bc_playout.tree_search(
                state, rng, fastpath.SearchSettings(10, PLAYOUT_TURNS, EXPLORATION, True)
            )
            is None
        )
        assert rng.getstate() == before
    compiled, readable = both(big, 5, 3, True, 1)
    assert compiled == readable


def records(players: int, seeds: range, budget: int, **kit: Any) -> list[Any]:
    gdef = get_game(SLUG)
    board = model(**kit)
    seats = Lineup(("mcts",) * players, budget)
    return [
        play_lineup(gdef.engine, board, players, seats, random.Random(f"{s}:{i}"))
        for s in seeds
        for i in range(2)
    ]


@pytest.mark.parametrize(
    "players, kit", ci_keeps([(2, {}), (3, {"radius": 2}), (2, {"radius": 2})], 2)
)
@pytest.mark.slow  # equality held position by position in the fast tier (conformance replays)
def test_whole_games_are_the_same_compiled_or_not(players, kit):
    """mcts seats' games, record by record, and a simulation's summary: the compiled search
    on (and used), then off (the readable search on the kernel's playouts), then the
    readable rules alone (no kernel at all)."""
    calls = []
    real = bc_playout.tree_search
    config = {"budget": 30, "games": 3, "bot": "mcts", "players": players, "seed": 4}
    with with_hook(rules.State, tree_search=lambda *a: calls.append(1) or real(*a)):
        on = records(players, range(2), 30, **kit), run_simulation(SLUG, values=kit, **config)
    assert calls
    calls.clear()
    with with_hook(rules.State, tree_search=None):
        off = records(players, range(2), 30, **kit), run_simulation(SLUG, values=kit, **config)
    with fastpath.using(fastpath.READABLE):
        alone = records(players, range(2), 30, **kit), run_simulation(SLUG, values=kit, **config)
    assert not calls
    assert on[0] == off[0] == alone[0]
    assert on[1].summary == off[1].summary == alone[1].summary
