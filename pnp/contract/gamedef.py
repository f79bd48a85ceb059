"""What a game declares to be plugged into pnp: one `GameDef` in its own package.

It sits outside `pnp.games` so that a game's package can name it without importing the
registry (and the games must not depend on each other).

`Engine` and `Solver` are the contracts a game's simulation and solver modules meet (a
module satisfies a protocol for mypy as an object does). What a game may add to them (its
engine's ratios and totals, tree-search settings, `warm`, `degenerate`, `play_many`; its
solver's budgets and `label_line`) is one typed record each, `pnp.contract.hooks.EngineHooks` and
`pnp.contract.hooks.SolverHooks`, that the module declares as ``HOOKS``: mypy checks every name and
signature there, and the defaults are read here and nowhere else.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pnp.contract.hooks import EngineHooks, SolverHooks
from pnp.play.outcome import GameRecord, SimOption, SolveResult, Termination
from pnp.play.state import Bot, State
from pnp.runtime.errors import PnpError, shown

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from pnp.draw.checks import Finding
    from pnp.draw.kit import Kit
    from pnp.draw.scene import Component

ConfigValue = str | int | float | bool | list[object] | dict[str, object]
"""A config key's value, as TOML gives it."""


class Engine(Protocol):
    """A game's simulation module (see `pnp.play.outcome` for what each member means).

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
    def HOOKS(self) -> EngineHooks[Any]:
        """The optional members, typed (`EngineHooks()` for none)."""
        ...

    @property
    def prepare(self) -> Callable[..., object]:
        """(params, players, **options) -> the picklable play model."""
        ...

    @property
    def play_one(self) -> Callable[..., GameRecord]:
        """(model, players, bot, rng, **options) -> one game's record."""
        ...

    @property
    def new_state(self) -> Callable[..., State[Any]]:
        """(model, players, rng, **options) -> the readable rules' start position (a state
        of the game's own action type)."""
        ...

    @property
    def make_bot(self) -> Callable[..., Bot[Any]]:
        """(name, model) -> a generic bot, reading the game's own `State` class; a
        ValueError for an unknown name."""
        ...


class Solver(Protocol):
    """A game's solver: ``solve(model, players, budget[, progress]) -> SolveResult``, and
    its optional members as ``HOOKS`` (`SolverHooks`)."""

    @property
    def solve(self) -> Callable[..., SolveResult]: ...
    @property
    def HOOKS(self) -> SolverHooks[Any]: ...


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
    """A game as pnp knows it: its names, its kit, its checks and, if it has them, its
    engine and solver."""

    slug: str
    title: str
    blurb: str
    default_params: Callable[[], DataclassInstance]
    build_kit: Callable[..., Kit]  # (params, printing: PrintParams) -> Kit
    checks: Callable[[Kit], list[Finding]]  # the build adds kit.findings
    engine: Engine | None = None  # the game's simulation module, if any
    solver: Solver | None = None  # its solver, if any
    documents: tuple[tuple[str, str], ...] = ()  # (name, title) of PDFs beyond the main one
    variants: Mapping[str, Mapping[str, ConfigValue]] = field(default_factory=dict)
    """Named configs (config keys -> values) the golden files also cover, as Boxes.py's
    examples do: what a designer is likely to change, kept from drifting unseen."""
    draw_line: Callable[..., list[Component]] | None = None
    """(params, players, line, printing) -> components drawing a solver's line (its JSON
    turns) as board diagrams, one per turn: `pnp solve --pdf`. None: the game has none."""
    templates: tuple[str, str] | None = None
    """(package, folder) holding the game's rule-card templates, for a
    `jinja2.PackageLoader`; None: the built-in `templates/rules/<slug>/`."""
    rule_keys: tuple[str, ...] | None = None
    """The config keys the rules read: those the engine's play model is made from (read
    through `rule_keys`). A sweep changes only these; the others change the printed kit
    and nothing of the play. None: not declared, every key of the game's own parameters."""
    implementations: tuple[str, ...] = ("readable",)
    """The implementations of its rules by name, the readable reference first: those
    attached through `pnp.play.fastpath` (``"kernel"``) and any its engine plays whole games on
    (`pnp.play.fastpath.using` picks one; the conformance data is replayed through each)."""


# --- optional members, read in one place ---------------------------------------------------


def seat_range(game: GameDef) -> tuple[int, int] | None:
    """The fewest and most players the game's rules take (what a config's `players` key
    may say); None for a game without rules, whose configs have no seat count."""
    if game.engine is None:
        return None
    return game.engine.MIN_PLAYERS, game.engine.MAX_PLAYERS


def rule_keys(game: GameDef) -> tuple[str, ...]:
    """The config keys the game's rules read, in the order its parameters declare them:
    the keys worth sweeping or tuning (print settings never reach the rules). A game that
    declares none gets every key of its own parameters; a game without an engine, none.
    A declared key that is not one of its parameters is a `PnpError` naming it."""
    if game.engine is None:
        return ()
    own = [f.name for f in dataclasses.fields(game.default_params())]
    if game.rule_keys is None:
        return tuple(own)
    unknown = [k for k in game.rule_keys if k not in own]
    if unknown:
        raise PnpError(f"{game.slug} declares rule key '{unknown[0]}', which is not its parameter")
    return tuple(k for k in own if k in game.rule_keys)


def ratios(engine: Engine) -> dict[str, tuple[str, str]]:
    """``{metric: (numerator_counter, denominator_counter)}``; none by default."""
    return dict(engine.HOOKS.ratios)


def totals(engine: Engine) -> dict[str, dict[str, str]]:
    """``{json_key: {label: counter}}``; none by default."""
    return {k: dict(v) for k, v in engine.HOOKS.totals.items()}


def warm(engine: Engine, model: object) -> None:
    """Let the engine build its lookup tables now (before the runner forks), if it has any."""
    if engine.HOOKS.warm is not None:
        engine.HOOKS.warm(model)


def mcts_budget(engine: Engine, players: int, default: int) -> int:
    """Playouts an mcts seat spends per decision by default with `players` seats: the
    engine's own for that count, else its own, else `default`."""
    own = engine.HOOKS.mcts_budgets.get(players, engine.HOOKS.mcts_budget)
    return default if own is None else own


def playout_turns(engine: Engine, default: int) -> int:
    """Turns an mcts playout runs beyond the position searched: the engine's own, else
    `default`."""
    own = engine.HOOKS.playout_turns
    return default if own is None else own


def mcts_exploration(engine: Engine, default: float) -> float:
    """UCB1's exploration constant for an mcts seat: the engine's own, else `default`."""
    own = engine.HOOKS.mcts_exploration
    return default if own is None else own


def mcts_sizing(engine: Engine) -> Callable[[Any, int], int] | None:
    """How the engine sizes an mcts decision's playouts (`EngineHooks.mcts_sizing`), or None:
    the budget at every decision."""
    return engine.HOOKS.mcts_sizing


def max_budget(solver: Solver, default: int) -> int:
    """The most nodes the solver may be given: its own, else `default`."""
    own = solver.HOOKS.max_budget
    return default if own is None else own


SOLVE_BUDGET = 1_000_000
"""Nodes `pnp solve` searches when the solver declares no default budget."""


def default_budget(solver: Solver) -> int:
    """The nodes `pnp solve` searches when no budget is given: the solver's own, else
    `SOLVE_BUDGET`."""
    own = solver.HOOKS.default_budget
    return SOLVE_BUDGET if own is None else own


def line_labels(solver: Solver, model: object, line: tuple[object, ...]) -> list[str] | None:
    """The line in the printed board's names, one turn a string; None if the solver
    offers no `label_line`."""
    hook = solver.HOOKS.label_line
    return None if hook is None else [str(s) for s in hook(model, line)]


def degenerate_reason(engine: Engine, model: object, players: int) -> str | None:
    """Why no game of this model can last a turn, in the game's own words (its optional
    `degenerate`), or None: the general rule (`pnp.sim.metrics.no_turn_played`) finds such
    a setting from its games; this says what in the rules makes it so."""
    hook = engine.HOOKS.degenerate
    return None if hook is None else hook(model, players)


def cutoffs(engine: Engine) -> tuple[str, ...]:
    """End names that are a limit of the simulation, not a rule: its `TERMINATION`'s
    cut-offs. `completion` leaves them out; the cap warning counts them."""
    return tuple(str(t.value) for t in engine.TERMINATION if not t.finish)


# --- what a slug and a game declaration must be ---------------------------------------------

SLUG = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
"""A game's slug: lower-case words of letters and digits joined by single hyphens; it names
the game on the command line and its folders (output, templates, golden files)."""
MAX_SLUG = 40
RESERVED = frozenset({"all"})
"""Words the commands take in place of a game (`pnp build all`)."""


def slug_problem(slug: object) -> str | None:
    """Why `slug` cannot name a game, in one line; None when it can."""
    if not isinstance(slug, str):
        return f"a slug must be a string, not {type(slug).__name__} {shown(slug)}"
    if not SLUG.fullmatch(slug) or len(slug) > MAX_SLUG:
        return (
            f"{shown(slug)} is not a game slug: use lower-case letters, digits and single "
            f"hyphens, starting with a letter, at most {MAX_SLUG} characters (e.g. lantern-race)"
        )
    if slug in RESERVED:
        return f"'{slug}' is the word for every game ('pnp build {slug}'): choose another slug"
    return None


def _line(value: object, empty: bool = False) -> bool:
    return (
        isinstance(value, str)
        and (empty or bool(value.strip()))
        and not any(ord(c) < 32 or ord(c) == 127 for c in value)
    )


def _pairs_of_lines(value: object) -> bool:
    return isinstance(value, tuple) and all(
        isinstance(p, tuple) and len(p) == 2 and all(_line(x) for x in p) for p in value
    )


_ENGINE_MEMBERS = tuple(n for n in vars(Engine) if not n.startswith("_"))


def _engine_problem(engine: object) -> str | None:
    missing = [n for n in _ENGINE_MEMBERS if not hasattr(engine, n)]
    if missing:
        return f"its engine lacks {', '.join(missing)}"
    # each member is there (above); what it holds is checked here, so read it as it comes
    seats = (engine.MIN_PLAYERS, engine.DEFAULT_PLAYERS, engine.MAX_PLAYERS)  # type: ignore[attr-defined]
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in seats):
        return "its engine's MIN_PLAYERS, DEFAULT_PLAYERS and MAX_PLAYERS must be whole numbers"
    if not 1 <= seats[0] <= seats[1] <= seats[2]:
        return f"its engine's player counts are not in order: {seats}"
    bots = engine.BOTS  # type: ignore[attr-defined]  # there (above); checked here
    if not (isinstance(bots, tuple) and bots and all(_line(b) for b in bots)):
        return "its engine's BOTS must be a tuple of bot names"
    hooks = engine.HOOKS  # type: ignore[attr-defined]  # there (above); checked here
    if not isinstance(hooks, EngineHooks):
        return f"its engine's HOOKS must be a pnp EngineHooks, got {type(hooks).__name__}"
    return None


def game_problem(game: object) -> str | None:
    """Why `game` cannot be plugged in, in one line (its slug, the types of its fields);
    None when it can. A plugin is checked so when it is loaded, so that a broken one is
    one warning rather than a build failing late."""
    if not isinstance(game, GameDef):
        return f"it gives a {type(game).__name__}, not a pnp GameDef"
    problem = slug_problem(game.slug)
    if problem is not None:
        return problem
    for name in ("title", "blurb"):
        if not _line(getattr(game, name)):
            return f"its {name} must be a line of text, got {shown(getattr(game, name))}"
    for name in ("default_params", "build_kit", "checks"):
        if not callable(getattr(game, name)):
            return f"its {name} must be callable, got {shown(getattr(game, name))}"
    if game.draw_line is not None and not callable(game.draw_line):
        return f"its draw_line must be callable or None, got {shown(game.draw_line)}"
    if game.engine is not None and (problem := _engine_problem(game.engine)) is not None:
        return problem
    if game.solver is not None and not callable(getattr(game.solver, "solve", None)):
        return "its solver has no solve()"
    if game.solver is not None and not isinstance(getattr(game.solver, "HOOKS", None), SolverHooks):
        return "its solver's HOOKS must be a pnp SolverHooks (SolverHooks() for none)"
    if not _pairs_of_lines(game.documents):
        return f"its documents must be (name, title) pairs, got {shown(game.documents)}"
    if game.templates is not None and not _pairs_of_lines((game.templates,)):
        return f"its templates must be (package, folder), got {shown(game.templates)}"
    variants = game.variants
    if not isinstance(variants, Mapping) or not all(
        _line(k) and isinstance(v, Mapping) and all(isinstance(key, str) for key in v)
        for k, v in variants.items()
    ):
        return f"its variants must map names to config tables, got {shown(variants)}"
    params = game.default_params()
    if not dataclasses.is_dataclass(params) or isinstance(params, type):
        return f"its default_params() gives a {type(params).__name__}, not a parameter dataclass"
    return None
