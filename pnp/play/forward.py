"""The forward model: plays a `State` to its end with one bot per seat (TAG's ``next()``).

What every game needs of a whole game is here, once: checking the player count and the bots
before the first move, sampling chance, counting decisions and the legal moves offered at
them (the branching factor), and a bound on the number of steps so a faulty rulebook
cannot loop for ever. The random and greedy bots are generic: greedy only needs the game's
evaluation of an action.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pnp.play.chance import pick
from pnp.play.outcome import GameRecord
from pnp.play.state import CHANCE, TERMINAL, Bot, State
from pnp.runtime.errors import PnpError

A = TypeVar("A", bound=Hashable)
S = TypeVar("S", bound=State[Any])

MAX_STEPS = 1_000_000
"""Steps (decisions and chance) after which a game is a bug, not a long game."""
MAX_PLAYOUT_STEPS = 100_000
"""Steps (chance included) after which a playout stops whatever the turn count says."""


class RandomBot:
    """Uniform over the legal actions, drawn as the game's kernel draws."""

    name = "random"

    def choose(self, state: State[Any], rng: random.Random) -> Any:
        return state.random_action(rng)


class GreedyBot(Generic[S, A]):
    """One step ahead: the action the game's evaluation rates highest, ties drawn by `tie`.

    A forced action goes through `tie` too, so a game whose draw spends randomness even on
    one option (`rng.choice`) keeps its seeds; `pnp.play.chance.pick` spends none there.

    `evaluate(state, action)` rates `action` for the seat to move (higher is better); it may
    look at a clone with the action applied, or at the game's own cheaper preview.
    """

    name = "greedy"

    def __init__(
        self,
        evaluate: Callable[[S, A], float],
        tie: Callable[[random.Random, Sequence[A]], A] = pick,
    ) -> None:
        self.evaluate = evaluate
        self.tie = tie

    def choose(self, state: S, rng: random.Random) -> A:
        actions = state.legal_actions()
        if len(actions) == 1:  # nothing to rate; `tie` still draws as the game draws
            return self.tie(rng, actions)
        values = [self.evaluate(state, a) for a in actions]
        best = max(values)
        return self.tie(rng, [a for a, v in zip(actions, values, strict=True) if v == best])


def seat_bots(
    bots: Bot[S] | Sequence[Bot[S]], players: int, known: Sequence[str] | None = None
) -> list[Bot[S]]:
    """One bot per seat from one bot or a list; a wrong count or name is one `PnpError`."""
    listed = list(bots) if isinstance(bots, Sequence) else [bots] * players
    if len(listed) != players:
        raise PnpError(f"{players} players need {players} bots, got {len(listed)}")
    if known is not None:
        for bot in listed:
            if bot.name not in known:
                raise PnpError(f"unknown bot '{bot.name}': choose one of {', '.join(known)}")
    return listed


@dataclass
class Played(Generic[S]):
    """A finished walk: the final state, and what the forward model counted on the way."""

    state: S
    decisions: int = 0  # seat choices with more than one legal action
    legal_moves: int = 0  # legal actions offered, summed over those decisions
    steps: int = 0  # every applied action, chance included

    def counters(self) -> Mapping[str, int]:
        return {"decisions": self.decisions, "legal_moves": self.legal_moves}

    def record(self, counted: Sequence[str] = ()) -> GameRecord:
        """The state's record, with the forward model's counters the engine declares."""
        rec = self.state.record()
        mine = {k: v for k, v in self.counters().items() if k in counted}
        if not mine:
            return rec
        return rec._replace(counters={**rec.counters, **mine})


def play(
    state: S,
    bots: Bot[S] | Sequence[Bot[S]],
    rng: random.Random,
    max_steps: int = MAX_STEPS,
    on_step: Callable[[S, Any], None] | None = None,
) -> Played[S]:
    """Play `state` to its end in place. `on_step(state, action)` sees each action before
    it is applied (recorders, viewers)."""
    seats = seat_bots(bots, state.players)
    played: Played[S] = Played(state)
    while True:
        player = state.current_player()
        if player == TERMINAL:
            return played
        if player == CHANCE:
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            if len(legal) > 1:
                played.decisions += 1
                played.legal_moves += len(legal)
            action = seats[player].choose(state, rng)
        if on_step is not None:
            on_step(state, action)
        state.apply(action)
        played.steps += 1
        if played.steps > max_steps:
            raise RuntimeError(f"no end after {max_steps} steps: a rules bug")


def play_on(
    state: State[Any],
    rng: random.Random,
    stop: int,
    policy: Callable[[random.Random], Any] | None = None,
    steps: int = 0,
) -> None:
    """Play `state` on, in place, until it ends or `turns` reaches `stop`: chance drawn by
    the game, each seat by `policy` (random play when None), all from `rng`. A tree
    search's playout (`pnp.play.mcts.playout`); `steps` already taken count towards the bound
    (a playout, unlike a game, is cut off there rather than reported as a bug)."""
    choose = policy or state.random_action
    while steps < MAX_PLAYOUT_STEPS and state.turns < stop:
        player = state.current_player()
        if player == TERMINAL:
            return
        state.apply(state.sample_chance(rng) if player == CHANCE else choose(rng))
        steps += 1
