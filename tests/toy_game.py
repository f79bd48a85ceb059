"""A throwaway game that uses every extension point of the general layers.

"Lamps": a cooperative game on a row of lamps; a move toggles one lamp and its
neighbours, and the team wins when every lamp is lit. It has a cooperative engine with
a counter of its own, a solver, a board printed reduced on one sheet, a second document,
tiles packed onto cut sheets and a named variant. It touches no general module: the
contract test plugs it in with `pnp.games.registered`, as the registry's list would.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from typing import Any, Self

from shapely.geometry import Point, box

from pnp.contract.gamedef import GameDef
from pnp.contract.hooks import EngineHooks, SolverHooks
from pnp.contract.params import CardGroup, ScaleGroup, param
from pnp.draw.cards import CardFormat, fit_text_card
from pnp.draw.checks import Finding, check_cut_outlines
from pnp.draw.kit import Kit, KitDocument, KitSection, PrintParams
from pnp.draw.scene import CUT_STYLE, Component, Shape, Style, Text
from pnp.play.forward import RandomBot
from pnp.play.outcome import CUTOFF, GameRecord, Outcome, SolveResult, Termination
from pnp.play.state import TERMINAL
from pnp.runtime.errors import PnpError


@dataclass(frozen=True)
class LampsParams(CardGroup, ScaleGroup):
    lamps: int = param(5, lo=2, hi=12)
    lamp_size: float = param(40.0, lo=10, hi=100, help="mm")
    board_scale: float = param(0.5, lo=0, hi=1, lo_open=True)


@dataclass(frozen=True)
class Model:
    lamps: int
    max_turns: int = 60


def _toggle(state: int, i: int, n: int) -> int:
    for j in (i - 1, i, i + 1):
        if 0 <= j < n:
            state ^= 1 << j
    return state


class LampsEnd(Termination):
    WIN = "win"
    TIMEOUT = "timeout", CUTOFF


class LampsState:
    """The readable rules (`pnp.play.state.State`): seats take turns switching a lamp."""

    def __init__(self, model: Model, players: int) -> None:
        self.model, self._players = model, players
        self.lit = self.toggles = self._turns = 0

    @property
    def players(self) -> int:
        return self._players

    @property
    def turns(self) -> int:
        return self._turns

    def _won(self) -> bool:
        return self.lit == (1 << self.model.lamps) - 1

    def is_terminal(self) -> bool:
        return self._won() or self._turns >= self.model.max_turns

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self._turns % self._players

    def legal_actions(self) -> list[int]:
        return list(range(self.model.lamps))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def sample_chance(self, rng: random.Random) -> int:
        raise ValueError("Lamps has no chance nodes")

    def random_action(self, rng: random.Random) -> int:
        return rng.randrange(self.model.lamps)  # as `Engine.play_one` draws

    def apply(self, action: int) -> None:
        before = self.lit
        self.lit = _toggle(self.lit, action, self.model.lamps)
        self.toggles += bin(before ^ self.lit).count("1")
        self._turns += 1

    def outcome(self) -> Outcome | None:
        if self._won():
            return Outcome(LampsEnd.WIN, tuple(range(self._players)))
        return Outcome(LampsEnd.TIMEOUT) if self.is_terminal() else None

    def clone(self) -> Self:
        twin = type(self)(self.model, self._players)
        twin.lit, twin.toggles, twin._turns = self.lit, self.toggles, self._turns
        return twin

    def action_str(self, action: int) -> str:
        return f"lamp {action + 1}"

    def record(self) -> GameRecord:
        out = self.outcome()
        assert out is not None, "the game is not over"
        return GameRecord(
            self._turns, out.end, winners=out.winners, counters={"toggles": self.toggles}
        )


class BareEngine:
    """The engine contract's required members only (`pnp.contract.gamedef.Engine`), as an object."""

    BOTS = ("random",)
    MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 1, 3, 2
    COOPERATIVE = True
    COUNTERS = {"toggles": "lamps switched"}
    OPTIONS = ()
    ABSTRACTION = "A toy: lamps stand for anything a team must switch on together."
    TERMINATION = LampsEnd
    HOOKS: EngineHooks[Model] = EngineHooks()

    def prepare(self, params: LampsParams, players: int) -> Model:
        return Model(params.lamps)

    def new_state(self, model: Model, players: int, rng: random.Random) -> LampsState:
        return LampsState(model, players)

    def make_bot(self, name: str, model: Model) -> RandomBot:
        if name != "random":
            raise ValueError(f"unknown bot {name!r}: choose one of random")
        return RandomBot()

    def play_one(self, model: Model, players: int, bot: str, rng: Any) -> GameRecord:
        rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        full, state, toggles = (1 << model.lamps) - 1, 0, 0
        for turn in range(1, model.max_turns + 1):
            i = rng.randrange(model.lamps)
            before = state
            state = _toggle(state, i, model.lamps)
            toggles += bin(before ^ state).count("1")
            if state == full:
                return GameRecord(
                    turn, "win", winners=tuple(range(players)), counters={"toggles": toggles}
                )
        return GameRecord(model.max_turns, "timeout", counters={"toggles": toggles})


class Engine(BareEngine):
    """The whole contract, optional members included."""

    HOOKS = EngineHooks(ratios={"toggles_per_turn": ("toggles", "turns")})


class Solver:
    """Breadth-first: the first win found is the shortest."""

    HOOKS: SolverHooks[Model] = SolverHooks()

    def solve(self, model: Model, players: int, budget: int) -> SolveResult:
        full = (1 << model.lamps) - 1
        seen = {0: (None, None)}
        todo = deque([0])
        info = {"lamps": model.lamps}
        while todo:
            if len(seen) > budget:
                return SolveResult("unknown", len(seen), info=info, start=[0] * model.lamps)
            state = todo.popleft()
            if state == full:
                line = []
                while seen[state][0] is not None:
                    prev, move = seen[state]
                    line.append({"toggle": move})
                    state = prev
                return SolveResult(
                    "win", len(seen), tuple(reversed(line)), True, [0] * model.lamps, info
                )
            for i in range(model.lamps):
                nxt = _toggle(state, i, model.lamps)
                if nxt not in seen:
                    seen[nxt] = (state, i)
                    todo.append(nxt)
        return SolveResult("no-win", len(seen), (), False, [0] * model.lamps, info)


def _board(p: LampsParams) -> Component:
    w, h = p.lamps * p.lamp_size + 20, p.lamp_size * 4
    c = Component("board", "Lamp board", w, h, imposition="board", bleed=3.0)
    c.add(Shape(box(-3, -3, w + 3, h + 3), "art", Style(fill="#fff6e0", stroke=None)))
    for i in range(p.lamps):
        x = 10 + (i + 0.5) * p.lamp_size
        c.add(Shape(Point(x, h / 2), "art", Style(fill="#E69F00"), radius=p.lamp_size * 0.4))
        c.add(Text(x, h / 2 - 3, str(i + 1), 18, True, anchor="middle"))
    return c


def _tile(p: LampsParams) -> Component:
    s = p.lamp_size * 0.7
    c = Component("lamp-tile", "Lamp tile", s, s, copies=p.lamps)
    c.add(Shape(Point(s / 2, s / 2), "art", Style(fill="#F0E442"), radius=s * 0.45))
    c.add(Shape(Point(s / 2, s / 2).buffer(s * 0.48).exterior, "cut", CUT_STYLE))
    c.add(Shape(Point(s / 2, s / 2), "drill", Style(), radius=1.0))
    return c


def build_kit(params: LampsParams, printing: PrintParams) -> Kit:
    if params.lamps * params.lamp_size > 500:
        raise PnpError("the lamp row is longer than 500 mm")
    kit = Kit("lamps", "Lamps", params, printing, model=Engine().prepare(params, 2))
    card, found = fit_text_card(
        "rule-card",
        "Lamps",
        "Take turns. Switch a lamp and its neighbours.",
        CardFormat.of(params, printing),
        "#2F3E55",
    )
    kit.components += [_board(params), _tile(params), card]
    kit.findings += found
    kit.sections = [
        KitSection("Board", ("board",), "One sheet, reduced.", scale=params.board_scale),
        KitSection("Tiles and card", ("lamp-tile", "rule-card")),
    ]
    kit.documents = [KitDocument("pattern", "Tile pattern", (KitSection("Tiles", ("lamp-tile",)),))]
    kit.cut_parts = {"tiles": ("lamp-tile",)}
    kit.materials = ("Yellow card for the tiles.",)
    return kit


def checks(kit: Kit) -> list[Finding]:
    found = []
    for c in kit.components:
        found += check_cut_outlines(c)
    return found


GAME = GameDef(
    slug="lamps",
    title="Lamps",
    blurb="A toy cooperative game for the contract test.",
    default_params=LampsParams,
    build_kit=build_kit,
    checks=checks,
    engine=Engine(),
    solver=Solver(),
    rule_keys=("lamps",),
    documents=(("pattern", "Tile pattern"),),
    variants={"seven": {"lamps": 7}},
)
