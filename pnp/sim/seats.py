"""Who plays: the one check of a request's player count and bots against what a game's
engine declares, shared by `pnp simulate`, `pnp solve` and the bench; and the generic
way to play a game whose seats the engine's own fast path cannot play (a bot every game
has, such as `mcts`, or seats that mix bots): `pnp.play.forward.play` over the readable rules.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from pnp.contract.gamedef import (
    Engine,
    GameDef,
    mcts_budget,
    mcts_exploration,
    mcts_sizing,
    playout_turns,
)
from pnp.play import fastpath
from pnp.play.forward import play
from pnp.play.mcts import DEFAULT_BUDGET, EXPLORATION, MAX_BUDGET, PLAYOUT_TURNS, MctsBot
from pnp.play.outcome import GameRecord
from pnp.play.state import Bot
from pnp.runtime.errors import PnpError, shown

GENERIC_BOTS = ("mcts",)
"""Bots every game has: they need the State API alone, no code of the game's own."""


def engine_for(game: GameDef) -> Engine:
    """The game's simulation engine, or one line saying it has none (or that the
    implementation `PNP_IMPLEMENTATION` asks for is not one of the game's)."""
    if game.engine is None:
        raise PnpError(f"{game.slug} has no rules engine yet, so it cannot be simulated")
    wanted = fastpath.chosen()
    if wanted is not None and wanted not in game.implementations:
        raise PnpError(
            f"{fastpath.ENVIRONMENT}={wanted}: {game.slug} has no such implementation "
            f"(choose one of {', '.join(game.implementations)})"
        )
    return game.engine


def bot_names(engine: Engine) -> tuple[str, ...]:
    """Every bot a seat of this game may be: the engine's own, then the generic ones."""
    return (*engine.BOTS, *(b for b in GENERIC_BOTS if b not in engine.BOTS))


def seat_count(game: GameDef, players: int | None = None, bot: str | None = None) -> int:
    """The number of seats to play (the game's default when `players` is None), once it
    and `bot` (when given) are checked: a `PnpError` naming what the game takes."""
    engine = engine_for(game)
    if players is None:
        players = engine.DEFAULT_PLAYERS
    lo, hi = engine.MIN_PLAYERS, engine.MAX_PLAYERS
    if not lo <= players <= hi:
        raise PnpError(f"{game.title} takes {lo} to {hi} players, got {shown(players)}")
    if bot is not None:
        known_bot(engine, bot)
    return players


def known_bot(engine: Engine, bot: str) -> str:
    """`bot` if a seat of this game may be it, else one line naming the bots it takes."""
    names = bot_names(engine)
    if bot not in names:
        raise PnpError(f"unknown bot '{bot}': choose one of {', '.join(names)}")
    return bot


@dataclass(frozen=True)
class Lineup:
    """The bot of each seat, in turn order, and the playouts an `mcts` seat spends on
    each decision. Picklable: the runner sends it to its workers.

    Seats that mix bots take every seat order in turn (`rotate`): game i seats the bots
    turned i places, so bot 1 sits in seat 1 in game 0, seat 2 in game 1 and so on. A
    run of mixed bots then measures the bots, pooled over the seat orders, rather than
    the first seat's advantage (which would add to whichever bot sat there)."""

    bots: tuple[str, ...]
    budget: int
    rotate: bool = True

    @property
    def mixed(self) -> bool:
        """Do the seats play different bots?"""
        return len(set(self.bots)) > 1

    def seated(self, index: int) -> Lineup:
        """The lineup of game `index`: the bots turned `index` places when they mix."""
        if not (self.rotate and self.mixed):
            return self
        k = index % len(self.bots)
        return Lineup(self.bots[-k:] + self.bots[:-k] if k else self.bots, self.budget, False)

    @property
    def label(self) -> str:
        """The one bot every seat plays, else the seats' bots joined by commas."""
        return ",".join(self.bots) if self.mixed else self.bots[0]

    def engine_bot(self, engine: Engine) -> str | None:
        """The bot name to hand the engine's own `play_one` (its fast path), when every
        seat plays one bot the engine knows; None when the generic path must play."""
        one = self.bots[0]
        return one if not self.mixed and one in engine.BOTS else None


def lineup(
    engine: Engine, players: int, bot: str, bots: str | None = None, budget: int | None = None
) -> Lineup:
    """The seats of a request: `bots` ('mcts,random,...', one per seat) when given, else
    `bot` for every seat; `budget` None is the game's default. Bad input is one line."""
    if bots is None:
        names = [known_bot(engine, bot)] * players
    else:
        names = [b.strip() for b in bots.split(",")]
        if any(not b for b in names):
            raise PnpError(f"--bots takes one bot per seat, comma-separated, got '{bots}'")
        if len(names) != players:
            raise PnpError(f"--bots names {len(names)} bots for {players} seats, got '{bots}'")
        names = [known_bot(engine, b) for b in names]
    if budget is None:
        budget = mcts_budget(engine, players, DEFAULT_BUDGET)
    if not 1 <= budget <= MAX_BUDGET:
        raise PnpError(f"--bot-budget must be 1 to {MAX_BUDGET:,} playouts, got {budget}")
    return Lineup(tuple(names), budget)


def mcts_bot(engine: Engine, budget: int) -> MctsBot:
    """The mcts bot as the engine declares it: its team scoring, its playouts' horizon and
    its exploration, and how it sizes each decision's playouts."""
    return MctsBot(
        budget,
        cooperative=engine.COOPERATIVE,
        playout_turns=playout_turns(engine, PLAYOUT_TURNS),
        exploration=mcts_exploration(engine, EXPLORATION),
        sizing=mcts_sizing(engine),
    )


def seat_bot(engine: Engine, model: object, name: str, budget: int) -> Bot[Any]:
    """A seat's bot: a generic one, or the engine's own."""
    if name == "mcts":
        return mcts_bot(engine, budget)
    return engine.make_bot(name, model)


def play_lineup(
    engine: Engine,
    model: object,
    players: int,
    seats: Lineup,
    rng: random.Random,
    **options: Any,
) -> GameRecord:
    """One game on the readable rules, a bot per seat (`engine.play_one`'s signature with
    a lineup for its bot). The forward model's counters fill those the engine declares
    and the state's own record does not keep."""
    state = engine.new_state(model, players, rng, **options)
    bots = [seat_bot(engine, model, name, seats.budget) for name in seats.bots]
    played = play(state, bots, rng)
    kept = played.state.record().counters
    return played.record(tuple(k for k in engine.COUNTERS if k not in kept))
