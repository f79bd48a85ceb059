"""The compiled tree search (`pnp/play/_uct.h`) is `pnp.play.mcts`' readable search, draw for draw.

Checked on a toy race whose rules exist twice, in Python below and in C beside this file
(`uct_toy/_toy.c`), so the core is tested apart from any game: every kind of node (chance,
decision, terminal), the search's own cut-off scored on the game's win chances, on its
standing or on nothing, the game's own cut-off scored on its record, a hidden value
redrawn per playout, cooperative scoring, one seat to three. The same visits (order
included) and the same generator afterwards, or the core and `pnp.play.mcts` have drifted
apart. Each game's own tests check its callbacks the same way.

The whole-game driver over the same hooks (`pnp/play/_drive.h`) is held to the readable
loop of a whole game: the same end and the same generator afterwards, with the random bot
as `pick` draws it, with a game's own random draw (a `random` hook) and with a bot rule of
the game's own, to the end or to a turn to stop at."""

from __future__ import annotations

import importlib.util
import random
import shutil
import subprocess
import sysconfig
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.play import fastpath
from pnp.play.chance import below
from pnp.play.mcts import MctsBot
from pnp.play.outcome import Outcome, Termination
from pnp.play.state import CHANCE, TERMINAL

ROOT = Path(__file__).resolve().parent.parent
COMPILER = shutil.which("gcc") or shutil.which("clang") or shutil.which("cc")


class End(Termination):
    HOME = "home"
    CUT = "cut", False


ACTIONS = ("advance", "push", "rest")


class Race:
    """The toy: seats race to `goal`; a turn is a die (1-3), then advance by it (plus the
    hidden wind), push the next seat back by it (when it is off the start), or rest (+1).
    `limit` turns cut the game off (scored on the positions); `standing` offers them as
    the search's cut-off score, `chances` each seat's share of them (each one up) as its
    win chances; `hidden` makes the wind a hidden value (`resample`)."""

    def __init__(
        self,
        toy: object,
        players: int = 2,
        goal: int = 12,
        limit: int = 30,
        standing: bool = True,
        hidden: bool = False,
        chances: bool = False,
    ) -> None:
        self.toy, self.players, self.goal, self.limit = toy, players, goal, limit
        self.hidden, self.with_standing, self.with_chances = hidden, standing, chances
        self.keyed = True  # the C side names its actions by keys (off: by their index)
        self.pos = [0] * players
        self.seat = self.turns = self.die = self.wind = 0
        self.over: End | None = None
        self.winner = -1

    def current_player(self) -> int:
        if self.over is not None:
            return TERMINAL
        return self.seat if self.die else CHANCE

    def legal_actions(self) -> list[str]:
        nxt = (self.seat + 1) % self.players
        return [a for a in ACTIONS if a != "push" or self.pos[nxt] > 0]

    def sample_chance(self, rng: random.Random) -> int:
        return 1 + below(rng, 3)

    def random_action(self, rng: random.Random) -> str:
        legal = self.legal_actions()
        return legal[below(rng, len(legal))]

    def apply(self, action: int | str) -> None:
        if isinstance(action, int):
            self.die = action
            return
        nxt = (self.seat + 1) % self.players
        if action == "advance":
            self.pos[self.seat] += self.die + self.wind
        elif action == "push":
            self.pos[nxt] = max(0, self.pos[nxt] - self.die)
        else:
            self.pos[self.seat] += 1
        self.die = 0
        self.turns += 1
        if self.pos[self.seat] >= self.goal:
            self.over, self.winner = End.HOME, self.seat
        elif self.turns >= self.limit:
            self.over = End.CUT
        self.seat = nxt

    def is_terminal(self) -> bool:
        return self.over is not None

    def outcome(self) -> Outcome | None:
        if self.over is None:
            return None
        return Outcome(self.over, (self.winner,) if self.winner >= 0 else ())

    def record(self) -> SimpleNamespace:
        return SimpleNamespace(scores=tuple(self.pos))

    def standing(self) -> list[int]:
        return list(self.pos)

    def win_chances(self) -> list[float]:
        total = sum(p + 1 for p in self.pos)
        return [(p + 1) / total for p in self.pos]

    def clone(self) -> Race:
        twin = Race.__new__(Race)
        twin.__dict__.update(self.__dict__, pos=list(self.pos))
        return twin

    def resample(self, rng: random.Random) -> None:
        if self.hidden:
            self.wind = below(rng, 2)

    def playout(self, rng: random.Random, stop: int) -> None:
        own = random.Random(rng.getrandbits(64))
        while self.over is None and self.turns < stop:
            if not self.die:
                self.die = self.sample_chance(own)
            self.apply(self.random_action(own))

    def compiled_search(self, rng, budget, turns, exploration, cooperative):
        """The toy's compiled search, attached below as games attach theirs."""
        if self.toy is None:
            return None
        args = (self.players, self.goal, self.limit, self.with_standing, self.hidden, self.keyed)
        args += (self.with_chances,)
        position = (tuple(self.pos), self.seat, self.turns, self.die)
        over = {None: 0, End.HOME: 1, End.CUT: 2}[self.over]
        return fastpath.compiled_visits(
            rng,
            self.legal_actions(),
            keys=[ACTIONS.index(a) for a in self.legal_actions()] if self.keyed else None,
            run=lambda words: self.toy.tree_search(
                *args,
                *position,
                over,
                self.winner,
                self.wind,
                words,
                budget,
                turns,
                exploration,
                cooperative,
            ),
        )


fastpath.attach(
    Race,
    fastpath.Implementation(
        "kernel",
        True,
        tree_search=lambda race, rng, s: race.compiled_search(
            rng, s.budget, s.horizon, s.exploration, s.cooperative
        ),
    ),
)


def without_standing(race: Race) -> Race:
    """The readable side of a toy that keeps no standing or no win chances: they are not
    offered."""
    if not race.with_standing:
        race.standing = None  # type: ignore[assignment,method-assign]
    if not race.with_chances:
        race.win_chances = None  # type: ignore[assignment,method-assign]
    return race


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    """The toy race in C, built against this Python with the project's flags."""
    if COMPILER is None:
        pytest.skip("no C compiler on this machine")
    out = tmp_path_factory.mktemp("uct") / f"_toy{sysconfig.get_config_var('EXT_SUFFIX')}"
    subprocess.run(
        [COMPILER, "-O2", "-ffp-contract=off", "-shared", "-fPIC", "-std=c99",
         "-I", sysconfig.get_paths()["include"], "-I", str(ROOT / "pnp" / "play"),
         str(ROOT / "tests/uct_toy/_toy.c"), "-o", str(out)],
        check=True,
    )  # fmt: skip
    spec = importlib.util.spec_from_file_location("_toy", out)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def position(toy, rng: random.Random, moves: int, **rules) -> Race:
    """A race `moves` random steps in, at a decision (or over, if it ended)."""
    race = without_standing(Race(toy, **rules))
    for _ in range(moves):
        if race.is_terminal():
            break
        player = race.current_player()
        race.apply(race.sample_chance(rng) if player == CHANCE else race.random_action(rng))
    while race.current_player() == CHANCE:
        race.apply(race.sample_chance(rng))
    return race


def both(race: Race, seed: int, **bot) -> tuple[tuple, tuple]:
    """(visits, generator state) from the compiled and the readable search."""
    out = []
    for compiled in (True, False):
        rng = random.Random(seed)
        visits = MctsBot(compiled=compiled, **bot).search(race.clone(), rng)
        out.append((list(visits.items()), rng.getstate()))
    return out[0], out[1]


@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 40),
    players=st.integers(1, 3),
    budget=st.sampled_from([1, 2, 7, 60, 400]),
    turns=st.sampled_from([1, 2, 5, 40]),
    standing=st.booleans(),
    chances=st.booleans(),
    hidden=st.booleans(),
    cooperative=st.booleans(),
    limit=st.sampled_from([6, 30]),
)
def test_compiled_search_is_the_readable_search(
    toy, seed, moves, players, budget, turns, standing, chances, hidden, cooperative, limit
):
    race = position(
        toy, random.Random(seed), moves, players=players, standing=standing,
        hidden=hidden, limit=limit, chances=chances,
    )  # fmt: skip
    if race.is_terminal():
        return
    compiled, readable = both(
        race, seed + 1, budget=budget, playout_turns=turns, cooperative=cooperative
    )
    assert compiled == readable


def test_the_comparison_can_fail(toy):
    """A search that is not the same (another exploration constant on one side) is told
    apart, so the equality above is a real check."""
    race = position(toy, random.Random(3), 6, players=2)
    rng_a, rng_b = random.Random(9), random.Random(9)
    a = MctsBot(300, compiled=True).search(race.clone(), rng_a)
    b = MctsBot(300, compiled=False, exploration=0.3).search(race.clone(), rng_b)
    assert list(a.items()) != list(b.items())


def hidden_positions(toy) -> list[Race]:
    """One-seat races with the wind hidden: a tree node then stands for positions whose
    lists of actions differ (push is listed only while the seat is off the start)."""
    races = [position(toy, random.Random(s), s % 40, players=1, hidden=True) for s in range(30)]
    return [r for r in races if not r.is_terminal()]


def test_a_game_that_hides_something_plays_the_action_tried(toy):
    """Keyed by the action, the compiled search plays what the readable one plays, where
    the same place in another list would be another action; keyed by index, it does not
    (so the equality is a real check)."""
    for seed, race in enumerate(hidden_positions(toy)):
        compiled, readable = both(race, seed, budget=150)
        assert compiled == readable
    drift = 0
    for seed, race in enumerate(hidden_positions(toy)):
        race.keyed = False
        compiled, readable = both(race, seed, budget=150)
        drift += compiled != readable
    assert drift > 0


def test_whole_games_choose_alike(toy):
    """Playing whole races with the bot, compiled and readable: the same moves."""
    for seed in range(6):
        games = []
        for compiled in (True, False):
            rng = random.Random(seed)
            race = without_standing(Race(toy, players=2, hidden=True))
            bot = MctsBot(40, compiled=compiled, playout_turns=4)
            moves = []
            while not race.is_terminal():
                if race.current_player() == CHANCE:
                    race.apply(race.sample_chance(rng))
                else:
                    moves.append(bot.choose(race, rng))
                    race.apply(moves[-1])
            games.append((moves, race.pos, rng.getstate()))
        assert games[0] == games[1]


def test_a_kernel_that_does_not_take_the_position_leaves_the_readable_search():
    """`tree_search` returning None (no kernel): the readable search runs, untouched."""
    race = Race(None)
    race.apply(2)
    rng_a, rng_b = random.Random(4), random.Random(4)
    assert MctsBot(50).search(race.clone(), rng_a) == MctsBot(50, compiled=False).search(
        race.clone(), rng_b
    )
    assert rng_a.getstate() == rng_b.getstate()


def rejecting(race: Race, rng: random.Random) -> str:
    """A random bot that draws otherwise than `pick`: any action until a legal one (the
    toy's `random` hook, `r_reject`)."""
    legal = race.legal_actions()
    while True:
        action = ACTIONS[below(rng, 3)]
        if action in legal:
            return action


def chaser(race: Race, rng: random.Random) -> str:
    """A bot rule of the toy's own (`r_chaser`): push a seat that is ahead, else advance
    or rest at random."""
    legal = race.legal_actions()
    if "push" in legal and race.pos[(race.seat + 1) % race.players] > race.pos[race.seat]:
        return "push"
    return legal[-1] if below(rng, 2) else legal[0]


BOTS = (Race.random_action, rejecting, chaser)
"""The readable bots of `drive`'s `bot` argument, in its order."""


def driven(toy, race: Race, rng: random.Random, stop: int, bot: int) -> tuple:
    """(end, generator state) of `_drive.h`'s `drive_play` on the toy from `race`."""
    over = {None: 0, End.HOME: 1, End.CUT: 2}[race.over]
    end, words = toy.drive(
        race.players, race.goal, race.limit, race.keyed, tuple(race.pos), race.seat,
        race.turns, race.die, over, race.winner, rng.getstate()[1], stop, bot,
    )  # fmt: skip
    return end, words


def played(race: Race, rng: random.Random, stop: int, bot: int) -> tuple:
    """The same on the readable rules: chance drawn, every seat playing `BOTS[bot]`."""
    while not race.is_terminal() and race.turns < stop:
        if race.current_player() == CHANCE:
            race.apply(race.sample_chance(rng))
        else:
            race.apply(BOTS[bot](race, rng))
    over = {None: 0, End.HOME: 1, End.CUT: 2}[race.over]
    end = (tuple(race.pos), race.seat, race.turns, race.die, over, race.winner)
    return end, rng.getstate()[1]


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 30),
    players=st.integers(1, 3),
    limit=st.sampled_from([6, 30]),
    more=st.sampled_from([0, 1, 3, 1000]),
    bot=st.sampled_from([0, 1, 2]),
    keyed=st.booleans(),
)
def test_whole_games_over_the_hooks_are_the_readable_games(
    toy, seed, moves, players, limit, more, bot, keyed
):
    """From any position (a die in hand or not), to the end or to `more` turns on, the
    bots naming their actions by key (`apply_key`) or by index."""
    rng = random.Random(seed)
    race = Race(toy, players=players, limit=limit)
    race.keyed = keyed
    for _ in range(moves):
        if race.is_terminal():
            break
        player = race.current_player()
        race.apply(race.sample_chance(rng) if player == CHANCE else race.random_action(rng))
    stop = race.turns + more
    ours = driven(toy, race, random.Random(seed + 1), stop, bot)
    assert ours == played(race.clone(), random.Random(seed + 1), stop, bot)


def test_the_driver_comparison_can_fail(toy):
    """Each bot plays its own games (the driver really takes the hook it is given), so
    the equality above is a real check."""
    race = Race(toy, players=2)
    ends = {driven(toy, race, random.Random(5), 1000, bot)[0] for bot in range(3)}
    assert len(ends) == 3
