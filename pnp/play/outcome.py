"""What a rules engine hands back: how one game ended, and what a solver found.

These types sit below the games and the simulation runner, so a game's engine can build
them without importing `pnp.sim` (the runner imports the games, never the other way).

An engine (a module, or any object) offers the simulation contract, typed as
`pnp.contract.gamedef.Engine`:

- ``BOTS``: bot names (``"random"`` is one); ``MIN_PLAYERS``, ``MAX_PLAYERS``,
  ``DEFAULT_PLAYERS``;
- ``COOPERATIVE``: true when the seats win or lose together (no seat metrics then);
- ``COUNTERS``: ``{name: description}``, the whole-number counters every record carries
  (captures, passes, rolls seen, ...); the runner sums, averages and histograms them;
- ``OPTIONS``: `SimOption` declarations, the game's own ``pnp simulate`` options;
- ``ABSTRACTION``: a sentence the summary and the report print when the engine models a
  physical game only roughly ("" when it plays the real rules);
- ``prepare(params, players, **options) -> model``: validate once and build the picklable
  play model from the same params the kit prints (a `PnpError` for a kit that cannot play);
- ``play_one(model, players, bot, rng, **options) -> GameRecord``;
- ``TERMINATION``: the game's `Termination` enum; its cut-offs are what ``completion``
  leaves out and what the cap warning counts;
- ``new_state(model, players, rng, **options) -> pnp.play.state.State`` and
  ``make_bot(name, model) -> pnp.play.state.Bot``: the readable rules and the generic bots;
- ``HOOKS``: a `pnp.contract.hooks.EngineHooks` with what it adds, each member optional (ratios
  and totals of its counters, tree-search settings, ``warm``, ``degenerate``,
  ``play_many``).

A solver is a module with ``solve(model, players, budget) -> SolveResult`` and its own
``HOOKS`` (`pnp.contract.gamedef.Solver`, `pnp.contract.hooks.SolverHooks`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal, NamedTuple, TypeVar


class Termination(Enum):
    """Why a game ended. Each game declares its own enum: a member's value is the name the
    JSON and the tables print (``"win"``, ``"timeout"``), and ``finish`` says whether the
    ending is one the rules define (a finish) or a limit of the simulation (a cut-off):

        class Termination(pnp.play.outcome.Termination):
            WIN = "win"
            TIMEOUT = "timeout", CUTOFF
    """

    finish: bool

    def __new__(cls, value: str, finish: bool = True) -> Termination:
        member = object.__new__(cls)
        member._value_ = value
        member.finish = finish
        return member

    def __str__(self) -> str:
        return str(self.value)


CUTOFF = False
"""Second field of a `Termination` member that is a limit of the simulation, not a rule."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended and who won (python-chess's ``Outcome`` is the model).

    ``winners`` is empty when nobody won (a cooperative loss, a cut-off), one seat or
    several (a shared win), or every seat (a cooperative win).
    """

    termination: Termination
    winners: tuple[int, ...] = ()

    @property
    def end(self) -> str:
        """The termination's printed name: a `GameRecord`'s ``end``."""
        return str(self.termination.value)

    @property
    def finished(self) -> bool:
        return self.termination.finish

    def winner(self) -> int | None:
        """The one seat that won alone, else None."""
        return self.winners[0] if len(self.winners) == 1 else None


EMPTY: Mapping[str, int] = {}


class GameRecord(NamedTuple):
    """What one finished game tells the metrics.

    Seats are in turn order: seat 0 played first. ``leaders`` holds, after each turn, the
    seat that leads alone, or -1 when the top score is shared. ``counters`` holds this
    game's values of the counters the engine declares. A named tuple, not a dataclass:
    a simulation makes one per game and builds them by the million.
    """

    turns: int
    end: str  # the outcome's termination, e.g. "fifty", "win", "stuck", "timeout"
    scores: tuple[int, ...] = ()  # per seat
    winners: tuple[int, ...] = ()  # seats sharing the win; () nobody
    colours: tuple[tuple[str, ...], ...] = ()  # per seat: the colours (sides) it played
    leaders: tuple[int, ...] = ()
    counters: Mapping[str, int] = EMPTY


@dataclass(frozen=True)
class SimOption:
    """A game's own ``pnp simulate`` option: a flag (``kind=bool``) or a choice."""

    name: str  # keyword passed to prepare/play_one, e.g. "two_colours"
    help: str
    kind: type = bool
    choices: tuple[str, ...] = ()
    default: Any = False
    label: str = ""  # how the report names it when set ("two colours each")

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


SolveVerdict = Literal["win", "no-win", "unknown"]


@dataclass(frozen=True)
class SolveResult:
    """A solver's answer within its budget of nodes.

    ``result``: ``win`` (``line`` wins), ``no-win`` (the whole reachable space was explored
    and holds no win) or ``unknown`` (the budget ran out first). ``shortest`` is true only
    when ``length`` is proven minimal. ``info`` holds the game's own fields for the JSON
    (radius, scope, ...); ``start`` and ``line`` are in the format the game's spec pins.
    """

    result: SolveVerdict
    nodes: int
    line: tuple[Any, ...] = ()
    shortest: bool = False
    start: Any = None
    info: Mapping[str, Any] = field(default_factory=dict)

    @property
    def length(self) -> int | None:
        return len(self.line) if self.result == "win" else None


Bot = TypeVar("Bot")


def bot_maker(bots: Mapping[str, Callable[[], Bot]]) -> Callable[[str], Bot]:
    """A game's `make_bot(name)`: a new bot of that name, or a ValueError naming the bots."""

    def make_bot(name: str) -> Bot:
        if name not in bots:
            raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(bots)}")
        return bots[name]()

    return make_bot
