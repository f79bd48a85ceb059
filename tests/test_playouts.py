"""The playouts (`pnp.play.mcts.playout`) of Exploding Dice, Home in One Piece and Building
Community: the tree search's rollout from a given position (random play, or the state's
own `rollout_action` policy where it offers one: Home in One Piece's greedy player), on
the readable rules and on the kernel attached through `pnp.play.fastpath`.

Three checks per game: the kernel and the readable rules both play the very game written
out below (`reference`) from `random.Random(n)` (n the one draw taken), from many
mid-game positions; the kernel's outcomes from several positions follow the same law as
the readable rules' rollouts with other draws (a chi-square test of homogeneity); and a
position one turn from the end ends as worked out by hand, on both. With the readable
rules chosen, or the kernel not built, no compiled hook runs and the search still plays.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
from collections import Counter
from collections.abc import Hashable
from typing import Any

import pytest
from kernels import without_compiler

from pnp.games import get_game
from pnp.games.building_community import rules as bc_rules
from pnp.games.building_community.fast import kernel as bc_playout
from pnp.games.exploding_dice import rules as ed_rules
from pnp.games.exploding_dice.rules import entries as ed_entries
from pnp.games.exploding_dice.rules.grid import push
from pnp.games.home_in_one_piece import rules as hiop_rules
from pnp.play import fastpath, mcts
from pnp.play.mcts import MctsBot
from pnp.play.state import CHANCE, TERMINAL
from pnp.sim.intervals import chi_square_sf
from pnp.sim.seats import engine_for

GAMES = ("exploding-dice", "home-in-one-piece", "building-community")


def start(game: str, players: int, seed: int = 0, **params: Any) -> Any:
    gdef = get_game(game)
    engine = engine_for(gdef)
    kit = dataclasses.replace(gdef.default_params(), **params)
    return engine.new_state(engine.prepare(kit, players), players, random.Random(seed))


def step(state: Any, rng: random.Random) -> None:
    chance = state.current_player() == CHANCE
    state.apply(state.sample_chance(rng) if chance else state.random_action(rng))


IMPLEMENTATIONS = ("kernel", fastpath.READABLE)


def kernel_playout(state: Any, rng: random.Random, stop: int) -> None:
    """The playout the kernel attached (it must take the position)."""
    fast = fastpath.active(state)
    assert fast is not None and fast.playout is not None
    assert fast.playout(state, rng, stop)


def readable_playout(state: Any, rng: random.Random, stop: int) -> None:
    """The search's playout with the readable rules alone."""
    with fastpath.using(fastpath.READABLE):
        mcts.playout(state, rng, stop)


def loop(state: Any, rng: random.Random, stop: int) -> None:
    """Play on by the rules, the state's rollout policy where it has one, from `rng`."""
    policy = getattr(state, "rollout_action", None) or state.random_action
    while state.turns < stop and state.current_player() != TERMINAL:
        chance = state.current_player() == CHANCE
        state.apply(state.sample_chance(rng) if chance else policy(rng))


def midgame(game: str, players: int, seed: int, steps: int, **params: Any) -> Any:
    """The position after `steps` random steps (fewer if the game ends first)."""
    state = start(game, players, seed, **params)
    rng = random.Random(seed + 1)
    for _ in range(steps):
        if state.current_player() == TERMINAL:
            break
        step(state, rng)
    return state


def finish_turn(state: Any, rng: random.Random, stop: int) -> None:
    """Exploding Dice's playout finishes a redraw under way on the readable rules first."""
    if isinstance(state, ed_rules.State):
        while state.ended is None and state.turns < stop and state.redrawing():
            step(state, rng)


def reference(state: Any, seed: int, stop: int) -> Any:
    """What the kernel's playout from `random.Random(seed)` must leave: the readable rules
    on the same draws."""
    twin, rng = state.clone(), random.Random(seed)
    finish_turn(twin, rng, stop)
    if twin.current_player() != TERMINAL and twin.turns < stop:
        loop(twin, random.Random(rng.getrandbits(64)), stop)
    return twin


def facts(state: Any) -> dict[str, Any]:
    """Everything a position holds that the rules read (dice of a colour are one)."""
    out: dict[str, Any] = {"turns": state.turns, "over": state.is_terminal()}
    out["outcome"] = state.outcome()
    if state.is_terminal():
        out["record"] = state.record()
    if isinstance(state, ed_rules.State):
        colour = [d.colour for d in state.model.dice]
        out |= {
            "grid": [None if d is None else colour[d] for d in state.grid],
            "shown": state.shown,
            "reserve": sorted(colour[d] for d in state.reserve),
            "scores": state.scores,
            "seat": state.seat,
            "quiet": state.quiet_turns,
            "leaders": state.leaders,
            "options": state.legal_actions(),
        }
    elif isinstance(state, bc_rules.State):
        out |= {
            "position": state.position(),
            "seen": state.seen,
            "history": state.history,
            "counters": state.counters,
            "passes": state.passes_in_a_row,
            "legal": state.legal_actions() if not state.is_terminal() else None,
        }
    else:
        out |= {
            "blobs": [[(b.x, b.y, b.units, b.r) for b in seat] for seat in state.blobs],
            "seat": state.seat,
            "rolled": state.rolled,
            "leaders": state.leaders,
            "counters": state.counters,
        }
    return out


CASES = [
    ("exploding-dice", 4, {}),
    ("exploding-dice", 2, {}),
    ("home-in-one-piece", 2, {}),
    ("building-community", 2, {}),
    ("building-community", 3, {"scope": "anywhere"}),
    ("building-community", 4, {"radius": 2}),
]


@pytest.mark.parametrize(("game", "players", "params"), CASES)
def test_the_kernel_plays_the_readable_rules_game_from_one_draw(game, players, params):
    for seed in range(12):
        state = midgame(game, players, seed, 7 * seed, **params)
        assert fastpath.active(state) is not None
        for stop in (state.turns + seed % 4, state.turns + 40, 10**6):
            want = facts(reference(state, seed, stop))
            for play in (kernel_playout, readable_playout):
                played = state.clone()
                play(played, random.Random(seed), stop)
                assert facts(played) == want, (seed, stop, play.__name__)


def test_exploding_dice_two_colours_each_plays_the_same_game_too():
    gdef = get_game("exploding-dice")
    engine = engine_for(gdef)
    model = engine.prepare(gdef.default_params(), 2)
    for seed in range(10):
        state = engine.new_state(model, 2, random.Random(seed), two_colours=True)
        rng = random.Random(seed)
        for _ in range(5 * seed):
            if state.is_terminal():
                break
            step(state, rng)
        for play in (kernel_playout, readable_playout):
            played = state.clone()
            play(played, random.Random(seed), 10**6)
            assert facts(played) == facts(reference(state, seed, 10**6))


def homogeneous(a: Counter[Hashable], b: Counter[Hashable]) -> float:
    """The p-value of a chi-square test that two samples come from one law (categories
    expected fewer than 5 times pooled into one)."""
    na, nb = sum(a.values()), sum(b.values())
    pooled: dict[Hashable, tuple[int, int]] = {}
    for key in a.keys() | b.keys():
        expected = (a[key] + b[key]) * min(na, nb) / (na + nb)
        name = key if expected >= 5 else "rare"
        x, y = pooled.get(name, (0, 0))
        pooled[name] = (x + a[key], y + b[key])
    if len(pooled) < 2:
        return 1.0
    stat = 0.0
    for x, y in pooled.values():
        for seen, n in ((x, na), (y, nb)):
            expected = (x + y) * n / (na + nb)
            stat += (seen - expected) ** 2 / expected
    return chi_square_sf(stat, len(pooled) - 1)


def summary(state: Any) -> Hashable:
    """What a playout's reward reads: how it ended (if it did) and who won or leads."""
    outcome = state.outcome()
    if isinstance(state, ed_rules.State):
        return outcome, state.leaders[-1] if state.leaders else None
    if isinstance(state, bc_rules.State):
        return outcome, min(state.turns, 60) // 4
    return outcome, state.leaders[-1] if state.leaders else None


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players", "params"), CASES[:4])
def test_kernel_playouts_follow_the_readable_rules_law_from_several_positions(
    game, players, params
):
    """Other draws (the kernel's from one stream, the rules' from another), one law."""
    runs = 150 if game == "home-in-one-piece" else 400
    depths = (2, 5, 9) if game == "building-community" else (6, 30, 61)
    for seed, steps in enumerate(depths, 1):
        state = midgame(game, players, seed, steps, **params)
        assert not state.is_terminal()
        stop = state.turns + 40
        kernel_rng, rules_rng = random.Random(100 + seed), random.Random(200 + seed)
        fast, slow = Counter(), Counter()
        for _ in range(runs):
            a, b = state.clone(), state.clone()
            kernel_playout(a, kernel_rng, stop)
            loop(b, rules_rng, stop)
            fast[summary(a)] += 1
            slow[summary(b)] += 1
        assert len(slow) > 1 and homogeneous(fast, slow) > 0.001, (seed, fast, slow)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_exploding_dice_one_turn_from_the_cap_ends_it(implementation):
    """Worked by hand: at turn 999 of the first position no colour can reach 50 nor the
    grid fill in one turn, so the next turn ends the game on the turn cap, whatever is
    drawn: 1,000 turns, `timeout`, one more leader noted, the next seat to move."""
    for seed in range(5):
        state = start("exploding-dice", 4, seed)
        state.turns = ed_rules.MAX_TURNS - 1
        with fastpath.using(implementation):
            mcts.playout(state, random.Random(seed), 10**6)
        assert (state.turns, state.ended, state.seat) == (1000, ed_rules.Termination.TIMEOUT, 1)
        assert len(state.leaders) == 1
        assert sum(d is not None for d in state.grid) + len(state.reserve) == len(state.model.dice)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_home_in_one_piece_one_turn_from_the_cap_ends_it(implementation):
    """Worked by hand: from the start nobody gathers their dough home in one turn, so at
    turn 599 the next turn ends the game on the cap with no winner, one roll counted."""
    for seed in range(5):
        state = start("home-in-one-piece", 2, seed)
        state.turns = hiop_rules.MAX_TURNS - 1
        with fastpath.using(implementation):
            mcts.playout(state, random.Random(seed), 10**6)
        assert (state.turns, state.ended, state.winner) == (
            600,
            hiop_rules.Termination.TIMEOUT,
            None,
        )
        assert state.counters["rolls"] == 1 and len(state.leaders) == 1 and state.seat == 1


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_building_community_the_last_pass_of_a_round_ends_it_stuck(implementation):
    """Worked by hand: every tile one colour leaves no swap, so the pawn to move passes;
    with every other pawn having passed, that pass ends the game `stuck` (before the
    repeat its position would also make), one turn on."""
    state = start("building-community", 3)
    state.tiles = [0] * len(state.tiles)
    state.passes_in_a_row = 2
    state.seen = {state.position()}
    with fastpath.using(implementation):
        mcts.playout(state, random.Random(1), 10**6)
    assert (state.turns, state.ended, state.history) == (1, bc_rules.End.STUCK, [bc_rules.PASS])
    assert state.counters["passes"] == 1 and state.counters["isolated_left"] == 0


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_building_community_one_turn_from_the_cap_ends_it(implementation):
    """Worked by hand: at turn 999 of the first position one move cannot join every tile
    and the new position was never seen, so the next turn ends the game on the cap."""
    state = start("building-community", 2)
    state.turns = bc_rules.MAX_TURNS - 1
    with fastpath.using(implementation):
        mcts.playout(state, random.Random(3), 10**6)
    assert (state.turns, state.ended, len(state.history)) == (1000, bc_rules.End.TIMEOUT, 1)


@pytest.mark.parametrize(
    ("radius", "scope", "players"), [(2, "near", 2), (3, "near", 6), (3, "anywhere", 3)]
)
def test_building_community_kernel_turn_options_are_the_rules_own(radius, scope, players):
    """The kernel lists the moves the readable rules list, in their order, and says
    whether the turn is special as `is_special` does, position after position."""
    for seed in range(8):
        state = start("building-community", players, radius=radius, scope=scope)
        rng = random.Random(seed)
        while not state.is_terminal():
            expected = (bc_rules.is_special(state, state.to_move), bc_rules.legal_moves(state))
            assert bc_playout.turn_options(state) == expected
            step(state, rng)


def test_exploding_dice_restriction_is_the_push_made():
    """`breaks_restriction` decides without pushing: the same answer as making the push
    and looking around the new die, for every entry of many positions."""
    for seed in range(20):
        state = midgame("exploding-dice", 4, seed, 9 * seed)
        if state.is_terminal():
            continue
        for die in range(len(state.model.dice)):
            colour = state.colour_of(die)
            for entry, line in enumerate(state.board.lines):
                if all(state.grid[c] is not None for c in line):
                    continue
                grid, _ = push(state.grid, state.shown, line, die, 3)
                cell = line[sum(state.grid[c] is not None for c in line)]
                pushed = any(
                    grid[nb] is not None and state.colour_of(grid[nb]) == colour  # type: ignore[arg-type]
                    for nb in state.board.neighbours[cell]
                )
                assert ed_entries.breaks_restriction(state, entry, die, 3) is pushed


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("how", ["chosen", "not built"])
def test_without_the_kernel_no_compiled_hook_runs_and_the_search_plays(monkeypatch, game, how):
    players = 4 if game == "exploding-dice" else 2
    state = midgame(game, players, 3, 12)
    kind = type(state)
    if how == "chosen":
        monkeypatch.setenv(fastpath.ENVIRONMENT, fastpath.READABLE)
        unbuilt = contextlib.nullcontext()
    else:  # as installed without a C compiler
        unbuilt = without_compiler(kind)
    with unbuilt:
        assert fastpath.active(state) is None
        while state.current_player() == CHANCE:
            step(state, random.Random(1))
        visits = MctsBot(30).search(state, random.Random(2))
    assert sum(visits.values()) == 30


def test_a_large_building_community_board_has_no_kernel_playout():
    """Radius 4 does not fit the fast path's 64 bits: the search plays the readable rules."""
    state = start("building-community", 2, radius=4)
    assert not bc_playout.playout(state, random.Random(1), 10**6)
    assert bc_playout.turn_options(state) is None
    assert state.legal_actions() == bc_rules.legal_moves(state)


def test_the_homogeneity_test_tells_two_laws_apart():
    assert homogeneous(Counter(a=300, b=100), Counter(a=200, b=200)) < 0.001
    assert homogeneous(Counter(a=200, b=200, c=3), Counter(a=201, b=199, c=2)) > 0.5


class BeforeSelect(MctsBot):
    """The search as it selected before its selection was made faster (the reference)."""

    def _select(self, node: Any, player: int) -> Any:
        import math

        log_n = math.log(node.visits)
        best_value, best = -math.inf, None
        for action, child in node.children.items():
            value = child.reward[player] / child.visits + self.exploration * math.sqrt(
                log_n / child.visits
            )
            if value > best_value:
                best_value, best = value, action
        return best


@pytest.mark.parametrize(("game", "players"), [("exploding-dice", 4), ("building-community", 2)])
def test_the_faster_selection_makes_the_same_decisions(game, players):
    for seed in range(3):
        state = midgame(game, players, seed, 3 + 5 * seed)
        while state.current_player() == CHANCE:
            step(state, random.Random(seed))
        for budget in (40, 200):
            now = MctsBot(budget).search(state, random.Random(seed))
            before = BeforeSelect(budget).search(state, random.Random(seed))
            assert now == before


def test_exploding_dice_remembered_entries_are_the_entries_worked_out_afresh():
    """A game's clones share what they worked out (`restricted_entries`): every entry
    choice offered in a search's worth of clones is `legal_entries` worked out afresh."""
    root = midgame("exploding-dice", 4, 5, 20)
    rng = random.Random(4)
    offered = 0
    for _ in range(60):
        state = root.clone()
        while not state.is_terminal() and state.turns < root.turns + 6:
            if state.step is ed_rules.Step.ENTRY and len(state.tried) == 1:
                fresh = ed_rules.legal_entries(state, state.die, state.face)
                assert list(state.options) == fresh
                offered += 1
            step(state, rng)
    assert offered > 100 and root.known


@pytest.mark.parametrize("stall", ["redraw", "skip"])
def test_exploding_dice_plays_on_from_every_step_of_a_turn_redraws_included(stall):
    """A kit crowded enough that dice often cannot go in: every step of a turn (a colour
    to redraw, a second die to take, roll or place) plays on as the readable rules do."""
    kinds = Counter()
    for seed in range(12):
        state = start("exploding-dice", 4, seed, dice_per_colour=8, stall=stall)
        rng = random.Random(seed)
        while not state.is_terminal():
            kinds[state.step, len(state.tried)] += 1
            want = facts(reference(state, seed, state.turns + 3))
            for play in (kernel_playout, readable_playout):
                played = state.clone()
                play(played, random.Random(seed), state.turns + 3)
                assert facts(played) == want
            step(state, rng)
    if stall == "redraw":
        assert kinds[ed_rules.Step.COLOUR, 1] and kinds[ed_rules.Step.ENTRY, 2]
