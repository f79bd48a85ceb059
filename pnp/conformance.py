"""Conformance as data: recorded games and perft counts every implementation must reproduce.

After python-chess's perft files and OpenSpiel's playthroughs. A recorded game is a seed,
the actions played (in the game's notation), the number of legal actions at each seat's
turn, and the outcome; replaying it through `State` must meet the same counts and end the
same way, and a kernel playing the same seed must end with the same record. Perft counts
the paths of a given depth from a position, chance outcomes included, so a rules change
that adds or drops a single move shows up as a different number.

The files live in ``tests/conformance/<slug>.json``; `record_game` and `perft` write them
(``make conformance``), and the tests say which implementation differs, and where.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pnp.forward import play
from pnp.state import CHANCE, TERMINAL, Bot, State

A = TypeVar("A", bound=Hashable)
S = TypeVar("S", bound=State[Any])


def perft(state: State[A], depth: int) -> int:
    """Paths of `depth` steps from `state` (a seat's action or a chance outcome is a step;
    a path that ends the game early counts once)."""
    if depth == 0 or state.current_player() == TERMINAL:
        return 1
    if state.current_player() == CHANCE:
        branches: Sequence[A] = [a for a, _ in state.chance_outcomes()]
    else:
        branches = state.legal_actions()
    total = 0
    for action in branches:
        child = state.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


@dataclass
class Recorded:
    """One game as data: what `record_game` writes and `replay` checks."""

    seed: str
    actions: list[str] = field(default_factory=list)  # every step, chance included
    legal: list[int] = field(default_factory=list)  # legal actions at each seat's step; 0 at chance
    end: str = ""
    winners: list[int] = field(default_factory=list)
    turns: int = 0
    scores: list[int] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "actions": self.actions,
            "legal": self.legal,
            "end": self.end,
            "winners": self.winners,
            "turns": self.turns,
            "scores": self.scores,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Recorded:
        return cls(**data)


def record_game(state: S, bots: Bot[S] | Sequence[Bot[S]], seed: str) -> Recorded:
    """Play `state` to its end with `random.Random(seed)` and keep every step."""
    rec = Recorded(seed)

    def keep(s: S, action: Any) -> None:
        rec.actions.append(s.action_str(action))
        rec.legal.append(0 if s.current_player() == CHANCE else len(s.legal_actions()))

    played = play(state, bots, random.Random(seed), on_step=keep)
    outcome = played.state.outcome()
    assert outcome is not None
    final = played.state.record()
    rec.end, rec.winners = outcome.end, list(outcome.winners)
    rec.turns, rec.scores = final.turns, list(final.scores)
    return rec


class Mismatch(AssertionError):
    """Where an implementation leaves a recorded game: the step and what differed."""


def replay(state: State[A], recorded: Recorded, who: str = "readable rules") -> None:
    """Replay `recorded` through `state`, raising `Mismatch` at the first difference."""
    for step, (text, legal) in enumerate(zip(recorded.actions, recorded.legal, strict=True)):
        player = state.current_player()
        if player == TERMINAL:
            raise Mismatch(f"{who}, seed {recorded.seed}: ended at step {step}, before {text}")
        if player == CHANCE:
            options: Sequence[A] = [a for a, _ in state.chance_outcomes()]
        else:
            options = state.legal_actions()
            if len(options) != legal:
                raise Mismatch(
                    f"{who}, seed {recorded.seed}, step {step}: {len(options)} legal actions, "
                    f"recorded {legal}"
                )
        by_name = {state.action_str(a): a for a in options}
        if text not in by_name:
            raise Mismatch(f"{who}, seed {recorded.seed}, step {step}: {text} is not legal")
        state.apply(by_name[text])
    outcome = state.outcome()
    if outcome is None:
        raise Mismatch(f"{who}, seed {recorded.seed}: not over after the recorded actions")
    got = (outcome.end, list(outcome.winners), state.record().turns, list(state.record().scores))
    want = (recorded.end, recorded.winners, recorded.turns, recorded.scores)
    if got != want:
        raise Mismatch(
            f"{who}, seed {recorded.seed}: ended (end, winners, turns, scores) "
            f"{got}, recorded {want}"
        )


def line_str(state: State[A], line: Sequence[A]) -> list[str]:
    """A line of actions from `state` in the game's notation (the state is left unchanged)."""
    walk, out = state.clone(), []
    for action in line:
        out.append(walk.action_str(action))
        walk.apply(action)
    return out
