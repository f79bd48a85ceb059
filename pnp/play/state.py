"""The game-state API every game's readable rules implement, after OpenSpiel's ``State``.

A `State` is one position of one game. Play is a walk: while it is not terminal, either a
seat chooses one of `legal_actions()` or, at a chance node (``current_player() ==
CHANCE``), the dice or the draw pile choose one of `chance_outcomes()`; `apply` makes the
step. Everything generic is written once against this API: the forward model that plays a
game and counts its decisions (`pnp.play.forward`), the random and greedy bots, replaying a
line, perft counts and recorded games (`pnp.reference.conformance`), and any tree search.

Two hooks keep a seed's game the same in every implementation of a rulebook (the readable
rules here, a compiled kernel beside them): `sample_chance(rng)` and `random_action(rng)`
make the very draws the kernel makes (`pnp.play.chance`), so they are part of the API rather
than left to a generic sampler. Their law is the one `chance_outcomes()` and a uniform
choice over `legal_actions()` state; over random games, each game's
`tests/test_<game>_properties.py` checks that the outcomes form a law and that every draw
is one of the outcomes or legal actions.

Actions are whatever a game finds natural (ints, small tuples, named tuples): hashable,
comparable for equality, printed by `action_str` in the game's own notation.

A state may offer more, each hook a protocol of its own below, checked by mypy where a
game names the hooks its `State` offers (``HOOKS: tuple[type[Stands], ...] = (State,)``)
and found by the functions named after each (`stands(state)`, ...):

- `ParsesActions`: ``parse_action(text)``, the legal action `action_str` printed as
  `text`, for a game whose `legal_actions()` is only a sample of a continuous space (Home
  in One Piece's targets): replaying a recorded game (`pnp.reference.conformance`) reads actions
  with it instead of looking them up among the legal actions.
- `PlaysOut`: ``playout(rng, stop)``, a tree search's rollout from this position, in
  place, until the game is over or `turns` reaches `stop`, for a game whose rollouts
  differ from playing its policy (`pnp.play.mcts.playout`). A compiled kernel plays the same
  rollout with the same draws and attaches it through `pnp.play.fastpath`, never as a method
  here: the readable rules import nothing compiled.
- `HasPolicy`: ``rollout_action(rng)``, the action a rollout plays where the game has a
  better policy than random play (its greedy player).
- `Stands`: ``standing()``, each seat's progress (higher is better), which scores a
  playout the search cuts off.
- `EstimatesWins`: ``win_chances()``, each seat's estimated chance to win from a position
  the search cuts off (a graded reward, where `standing()` only ranks the seats).
- `Resamples`: ``resample(rng)``, what the players cannot see (a shuffled order) drawn
  anew, so each playout plays against a fresh draw of it.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, Protocol, Self, TypeGuard, TypeVar, runtime_checkable

from pnp.play.outcome import GameRecord, Outcome

CHANCE = -1
"""`current_player()` at a chance node: a die is rolled, a tile drawn."""
TERMINAL = -2
"""`current_player()` once the game is over."""

A = TypeVar("A", bound=Hashable)
A_co = TypeVar("A_co", covariant=True)
S_contra = TypeVar("S_contra", contravariant=True)


@runtime_checkable
class State(Protocol[A]):
    """One position of one game: what the readable rules of every game offer."""

    @property
    def players(self) -> int:
        """The number of seats, in turn order (seat 0 moves first)."""
        ...

    @property
    def turns(self) -> int:
        """Turns completed so far, as the game counts them for its records."""
        ...

    def current_player(self) -> int:
        """The seat to move, `CHANCE`, or `TERMINAL`."""
        ...

    def legal_actions(self) -> Sequence[A]:
        """The seat to move's choices, in the game's canonical order (never empty)."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[A, float]]:
        """At a chance node: every outcome with its probability (they sum to 1)."""
        ...

    def sample_chance(self, rng: random.Random) -> A:
        """At a chance node: one outcome drawn by the law of `chance_outcomes`, with the
        draws the game's kernel makes, so a seed gives the same game in both."""
        ...

    def random_action(self, rng: random.Random) -> A:
        """A uniform choice among `legal_actions()`, drawn as the kernel draws it."""
        ...

    def apply(self, action: A) -> None:
        """Play `action` (a legal action, or a chance outcome at a chance node)."""
        ...

    def is_terminal(self) -> bool: ...

    def outcome(self) -> Outcome | None:
        """How the game ended (a finish or a cut-off), or None while it goes on."""
        ...

    def clone(self) -> Self:
        """An independent copy: applying actions to it leaves this state unchanged."""
        ...

    def action_str(self, action: A) -> str:
        """`action` in the game's notation, as a player would write it down."""
        ...

    def record(self) -> GameRecord:
        """The finished game as the simulation runner tallies it (turns, scores, ...);
        counters the forward model keeps (decisions, legal moves) are merged in by it."""
        ...


@runtime_checkable
class Bot(Protocol[S_contra]):
    """A seat's player: picks one of `state.legal_actions()`; `rng` is the game's own.

    Generic in the state type it reads, so a game's greedy bot may take its own `State`
    class while the generic random bot takes any `State`."""

    @property
    def name(self) -> str: ...

    def choose(self, state: S_contra, rng: random.Random) -> Any: ...


# --- what a state may offer beyond the protocol ---------------------------------------------


@runtime_checkable
class ParsesActions(Protocol[A_co]):
    def parse_action(self, text: str) -> A_co:
        """The legal action `action_str` printed as `text`; a ValueError if none here."""
        ...


@runtime_checkable
class PlaysOut(Protocol):
    def playout(self, rng: random.Random, stop: int) -> None:
        """A search's rollout, in place, to the end or until `turns` reaches `stop`."""
        ...


@runtime_checkable
class HasPolicy(Protocol):
    def rollout_action(self, rng: random.Random) -> Any:
        """The action a rollout plays here (the game's own policy, not random play)."""
        ...


@runtime_checkable
class Stands(Protocol):
    def standing(self) -> Sequence[float]:
        """Each seat's progress, higher is better."""
        ...


@runtime_checkable
class EstimatesWins(Protocol):
    def win_chances(self) -> Sequence[float]:
        """Each seat's estimated chance to win from here."""
        ...


@runtime_checkable
class Resamples(Protocol):
    def resample(self, rng: random.Random) -> None:
        """Draw anew, in place, what the players cannot see."""
        ...


# Asked at every playout of a search: a runtime protocol's own isinstance costs some twenty
# microseconds, one attribute look-up a tenth of one. The state itself is asked each time,
# so a hook removed from its class (a test's monkeypatch) or set to None on one state (a
# toy that offers no standing) is seen at once.


def parses_actions(state: object) -> TypeGuard[ParsesActions[Any]]:
    return _offers(state, ParsesActions)


def plays_out(state: object) -> TypeGuard[PlaysOut]:
    return _offers(state, PlaysOut)


def has_policy(state: object) -> TypeGuard[HasPolicy]:
    return _offers(state, HasPolicy)


def stands(state: object) -> TypeGuard[Stands]:
    return _offers(state, Stands)


def estimates_wins(state: object) -> TypeGuard[EstimatesWins]:
    return _offers(state, EstimatesWins)


def resamples(state: object) -> TypeGuard[Resamples]:
    return _offers(state, Resamples)


_METHOD: dict[type, str] = {
    hook: next(name for name in vars(hook) if not name.startswith("_"))
    for hook in (ParsesActions, PlaysOut, HasPolicy, Stands, EstimatesWins, Resamples)
}
"""Each protocol's one method, by name."""


def _offers(state: object, hook: type) -> bool:
    """As ``isinstance(state, hook)`` for a protocol of one method: a None there is none."""
    return callable(getattr(state, _METHOD[hook], None))
