"""The optional members of a game's engine and solver, as one typed record each.

A game's engine module declares ``HOOKS = EngineHooks[PlayModel](...)`` and its solver
``HOOKS = SolverHooks[PlayModel](...)`` (the contracts are `pnp.contract.gamedef.Engine`
and `pnp.contract.gamedef.Solver`), so mypy checks each name and each hook's signature
where the game writes it; `pnp.contract.gamedef` reads them with their defaults. Kept apart
from `pnp.contract.gamedef` so a game's rules side can name them without the
registration's types.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pnp.play.outcome import GameRecord

M = TypeVar("M")
"""A game's play model (what `Engine.prepare` builds), as its hooks take it."""


@dataclass(frozen=True)
class EngineHooks(Generic[M]):
    """What an engine may add to the `Engine` contract, each member typed and defaulted.

    A game's engine module declares ``HOOKS = EngineHooks[PlayModel](...)``, so mypy
    checks each name and each hook's signature where the game writes it."""

    ratios: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """``{metric: (numerator_counter, denominator_counter)}``, e.g. Ludii's branching
    factor as legal moves summed over decisions summed."""
    totals: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """``{json_key: {label: counter}}``: labelled sums the summary prints as one object."""
    mcts_budget: int | None = None
    """Playouts an mcts seat spends per decision (a game whose readable rules are slow to
    play declares fewer); None: `pnp.play.mcts.DEFAULT_BUDGET`."""
    mcts_budgets: Mapping[int, int] = field(default_factory=dict)
    """``{players: playouts}``: an mcts seat's playouts per decision at a player count whose
    decisions cost more than `mcts_budget` allows (more seats, more plays to list each
    turn); a count not named spends `mcts_budget`."""
    playout_turns: int | None = None
    """Turns an mcts playout runs beyond the position searched (a game that scores a
    cut-off playout on its `standing()` can stop sooner); None: the search's own."""
    mcts_exploration: float | None = None
    """UCB1's exploration constant for an mcts seat (a game whose playouts are scored on
    small graded differences explores less); None: the search's own."""
    mcts_sizing: Callable[[Any, int], int] | None = None
    """(position, budget) -> the playouts an mcts decision there spends, at most the budget
    (a game whose decisions differ much in what a playout costs sizes each; see
    `pnp.play.mcts.Sizing`); None: the budget at every decision."""
    warm: Callable[[M], None] | None = None
    """Build the engine's lookup tables now, before the runner forks its workers."""
    degenerate: Callable[[M, int], str | None] | None = None
    """(model, players) -> why no game of this model can last a turn, in the game's own
    words, or None."""
    play_many: Callable[..., Sequence[GameRecord] | None] | None = None
    """(model, players, bot, seeds, **options) -> the records `play_one` would give from
    `random.Random(seed)` for each seed text, in one call; None for a model it plays only
    game by game."""


@dataclass(frozen=True)
class SolverHooks(Generic[M]):
    """What a solver may add to the `Solver` contract (its module's ``HOOKS``)."""

    max_budget: int | None = None
    """The most nodes it may be given (what its memory per node allows)."""
    default_budget: int | None = None
    """Nodes `pnp solve` searches when no budget is given: enough to prove the kit's
    default board, where it can say."""
    label_line: Callable[[M, tuple[Any, ...]], list[str]] | None = None
    """(model, line) -> the answer's line in the names the printed board shows, one turn
    a string, so a person can replay it on the board."""
