"""A toy game whose best parameters are known in closed form, for `pnp tune`.

"Ones": the seats take turns rolling a die of `sides` faces; the first to roll one of its
`hits` lowest faces wins. A turn ends the game with chance p = hits / sides, so the length
is geometric: mean sides / hits turns; seat 1 wins 1 / (2 - p) of two-player games, so the
seat gap is p / (2 - p). The tune's targets are then checked against these formulas, not
against anything pnp computed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from pnp.contract.gamedef import GameDef
from pnp.contract.hooks import EngineHooks
from pnp.contract.params import param
from pnp.play.forward import RandomBot
from pnp.play.outcome import CUTOFF, GameRecord, Termination
from pnp.runtime.errors import PnpError

MAX_TURNS = 2000


@dataclass(frozen=True)
class OnesParams:
    sides: int = param(6, lo=2, hi=30, help="faces of the die")
    hits: int = param(1, lo=1, hi=6, help="faces that win")
    label: str = param("Ones", help="printed only")


@dataclass(frozen=True)
class Model:
    sides: int
    hits: int


class OnesEnd(Termination):
    WIN = "win"
    TIMEOUT = "timeout", CUTOFF


class Engine:
    BOTS = ("random", "greedy")
    MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 2, 4, 2
    COOPERATIVE = False
    COUNTERS: dict[str, str] = {}
    OPTIONS = ()
    ABSTRACTION = ""
    TERMINATION = OnesEnd
    HOOKS: EngineHooks[Model] = EngineHooks()

    def prepare(self, params: OnesParams, players: int) -> Model:
        if params.hits >= params.sides:
            raise PnpError(f"hits ({params.hits}) must be fewer than sides ({params.sides})")
        return Model(params.sides, params.hits)

    def new_state(self, model: Model, players: int, rng: random.Random) -> Any:
        raise NotImplementedError("Ones plays on its fast path only")

    def make_bot(self, name: str, model: Model) -> RandomBot:
        return RandomBot()

    def play_one(self, model: Model, players: int, bot: str, rng: Any) -> GameRecord:
        rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        for turn in range(1, MAX_TURNS + 1):
            if rng.randrange(model.sides) < model.hits:
                return GameRecord(turn, "win", winners=((turn - 1) % players,))
        return GameRecord(MAX_TURNS, "timeout")


def mean_turns(sides: int, hits: int) -> float:
    return sides / hits


def seat_gap(sides: int, hits: int) -> float:
    p = hits / sides
    return p / (2 - p)


def _no_kit(*args: Any) -> Any:
    raise PnpError("Ones has no kit")


GAME = GameDef(
    slug="ones",
    title="Ones",
    blurb="A toy race for the tune tests.",
    default_params=OnesParams,
    build_kit=_no_kit,
    checks=lambda kit: [],
    engine=Engine(),
    rule_keys=("sides", "hits"),
)
