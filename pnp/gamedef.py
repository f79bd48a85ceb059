"""What a game declares to be plugged into pnp: one `GameDef` in its own package.

It sits outside `pnp.games` so that a game's package can name it without importing the
registry (and the games must not depend on each other).

`Engine` and `Solver` are the contracts a game's simulation and solver modules meet (a
module satisfies a protocol for mypy as an object does). Members a game may leave out
(`RATIOS`, `TOTALS`, `warm`, `MCTS_BUDGET`, `PLAYOUT_TURNS`, `MCTS_EXPLORATION`, a solver's
`MAX_BUDGET` and `label_line`) are read here, with their defaults, and nowhere else.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pnp.outcome import GameRecord, SimOption, SolveResult, Termination
from pnp.state import Bot, State

if TYPE_CHECKING:
    from pnp.checks import Finding
    from pnp.kit import Kit

ConfigValue = str | int | float | bool | list[object] | dict[str, object]
"""A config key's value, as TOML gives it."""


class Engine(Protocol):
    """A game's simulation module (see `pnp.outcome` for what each member means).

    The functions take the game's own model and options, so they are typed by what they
    return: each game's signature is checked where it is written."""

    @property
    def BOTS(self) -> tuple[str, ...]: ...
    @property
    def MIN_PLAYERS(self) -> int: ...
    @property
    def MAX_PLAYERS(self) -> int: ...
    @property
    def DEFAULT_PLAYERS(self) -> int: ...
    @property
    def COOPERATIVE(self) -> bool: ...
    @property
    def COUNTERS(self) -> Mapping[str, str]: ...
    @property
    def OPTIONS(self) -> tuple[SimOption, ...]: ...
    @property
    def ABSTRACTION(self) -> str: ...
    @property
    def TERMINATION(self) -> type[Termination]: ...

    @property
    def prepare(self) -> Callable[..., object]:
        """(params, players, **options) -> the picklable play model."""
        ...

    @property
    def play_one(self) -> Callable[..., GameRecord]:
        """(model, players, bot, rng, **options) -> one game's record."""
        ...

    @property
    def new_state(self) -> Callable[..., State]:
        """(model, players, rng, **options) -> the readable rules' start position."""
        ...

    @property
    def make_bot(self) -> Callable[..., Bot]:
        """(name, model) -> a generic bot; a ValueError for an unknown name."""
        ...


class Solver(Protocol):
    """A game's solver: ``solve(model, players, budget[, progress]) -> SolveResult``.

    It may also offer ``label_line(model, line) -> list[str]``: the answer's line written in
    the names the printed board shows, one turn a string (`pnp solve` prints them; read
    through `line_labels`), so a person can replay the line on the board.
    """

    @property
    def solve(self) -> Callable[..., SolveResult]: ...


@dataclass(frozen=True)
class Deferred:
    """A function named by its module, imported on the first call: a game's `GameDef`
    points at its print side (kit, checks, diagrams) this way, so resolving the game to
    simulate or solve it imports no drawing code. Picklable, as a module function is."""

    module: str
    name: str

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(self.module), self.name)(*args, **kwargs)


@dataclass(frozen=True)
class GameDef:
    slug: str
    title: str
    blurb: str
    default_params: Callable[[], object]
    build_kit: Callable[..., Kit]  # (params, printing: PrintParams) -> Kit
    checks: Callable[[Kit], list[Finding]]  # the build adds kit.findings
    engine: Engine | None = None  # the game's simulation module, if any
    solver: Solver | None = None  # its solver, if any
    documents: tuple[tuple[str, str], ...] = ()  # (name, title) of PDFs beyond the main one
    variants: Mapping[str, Mapping[str, ConfigValue]] = field(default_factory=dict)
    """Named configs (config keys -> values) the golden files also cover, as Boxes.py's
    examples do: what a designer is likely to change, kept from drifting unseen."""
    draw_line: Callable[..., list] | None = None
    """(params, players, line, printing) -> components drawing a solver's line (its JSON
    turns) as board diagrams, one per turn: `pnp solve --pdf`. None: the game has none."""
    templates: tuple[str, str] | None = None
    """(package, folder) holding the game's rule-card templates, for a
    `jinja2.PackageLoader`; None: the built-in `templates/rules/<slug>/`."""


# --- optional members, read in one place ---------------------------------------------------


def ratios(engine: Engine) -> dict[str, tuple[str, str]]:
    """``{metric: (numerator_counter, denominator_counter)}``; none by default."""
    return dict(getattr(engine, "RATIOS", {}))


def totals(engine: Engine) -> dict[str, dict[str, str]]:
    """``{json_key: {label: counter}}``; none by default."""
    return {k: dict(v) for k, v in getattr(engine, "TOTALS", {}).items()}


def warm(engine: Engine, model: object) -> None:
    """Let the engine build its lookup tables now (before the runner forks), if it has any."""
    hook: Callable[[object], None] | None = getattr(engine, "warm", None)
    if hook is not None:
        hook(model)


def mcts_budget(engine: Engine, default: int) -> int:
    """Playouts an mcts seat spends per decision by default: the engine's `MCTS_BUDGET`
    (a game whose readable rules are slow to play declares a smaller one), else `default`."""
    return int(getattr(engine, "MCTS_BUDGET", default))


def playout_turns(engine: Engine, default: int) -> int:
    """Turns an mcts playout runs beyond the position searched: the engine's
    `PLAYOUT_TURNS` (a game that scores a cut-off playout on its `standing()` can stop
    sooner), else `default`."""
    return int(getattr(engine, "PLAYOUT_TURNS", default))


def mcts_exploration(engine: Engine, default: float) -> float:
    """UCB1's exploration constant for an mcts seat: the engine's `MCTS_EXPLORATION` (a
    game whose playouts are scored on small graded differences explores less), else
    `default`."""
    return float(getattr(engine, "MCTS_EXPLORATION", default))


def max_budget(solver: Solver, default: int) -> int:
    """The most nodes the solver may be given: its own `MAX_BUDGET`, else `default`."""
    return int(getattr(solver, "MAX_BUDGET", default))


def line_labels(solver: Solver, model: object, line: tuple[object, ...]) -> list[str] | None:
    """The line in the printed board's names, one turn a string; None if the solver
    offers no `label_line`."""
    hook: Callable[[object, tuple[object, ...]], list[str]] | None = getattr(
        solver, "label_line", None
    )
    return None if hook is None else [str(s) for s in hook(model, line)]


def cutoffs(engine: Engine) -> tuple[str, ...]:
    """End names that are a limit of the simulation, not a rule: its `TERMINATION`'s
    cut-offs. `completion` leaves them out; the cap warning counts them."""
    return tuple(str(t.value) for t in engine.TERMINATION if not t.finish)
