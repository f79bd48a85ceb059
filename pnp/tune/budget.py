"""`--budget`: how much a tune may spend, in time (`20m`, `90s`, `1h`) or in games
(`5000games`), and the clock that spends it.

A budget in games gives the same answer on any machine and backend (the JSON is the same
for a seed); a budget in time stops when the time is up, so how many trials fit depends on
the machine. Either way `SEARCH_SHARE` of it goes to the search, and the rest to playing
the recommended settings again on fresh seeds (`pnp.tune.verify`).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from pnp.errors import PnpError

SEARCH_SHARE = 0.6
MIN_GAMES = 200
MAX_GAMES = 10_000_000
MAX_SECONDS = 7 * 24 * 3600
_BUDGET = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(s|sec|m|min|h|games?)\s*", re.IGNORECASE)
_UNIT = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600}


@dataclass(frozen=True)
class Budget:
    kind: str  # "games" or "seconds"
    amount: float

    def as_json(self) -> dict[str, float]:
        return {self.kind: int(self.amount) if self.kind == "games" else self.amount}

    @property
    def text(self) -> str:
        if self.kind == "games":
            return f"{int(self.amount):,} games"
        return f"{self.amount:g} s"


def parse_budget(text: str) -> Budget:
    """`20m`, `90s`, `1.5h` or `5000games`; one line for anything else."""
    found = _BUDGET.fullmatch(text)
    if not found:
        raise PnpError(
            f"--budget '{text}' is not a budget: give a time (90s, 20m, 1h) or a number of "
            "games (5000games)"
        )
    number, unit = float(found[1]), found[2].lower()
    if unit.startswith("game"):
        if number != int(number) or not MIN_GAMES <= number <= MAX_GAMES:
            raise PnpError(
                f"--budget {text}: from {MIN_GAMES:,} to {MAX_GAMES:,} games, a whole number"
            )
        return Budget("games", int(number))
    seconds = number * _UNIT[unit]
    if not 1 <= seconds <= MAX_SECONDS:
        raise PnpError(f"--budget {text}: from 1 second to {MAX_SECONDS // 86400} days")
    return Budget("seconds", seconds)


@dataclass
class Spend:
    """What a tune has spent so far: games (of each kind) and seconds, and the rate of
    each kind of game, for sizing what is left of a time budget."""

    budget: Budget
    start: float = field(default_factory=time.monotonic)
    games: int = 0
    seconds_by_kind: dict[str, float] = field(default_factory=dict)
    games_by_kind: dict[str, int] = field(default_factory=dict)

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def note(self, kind: str, games: int, seconds: float) -> None:
        self.games += games
        self.games_by_kind[kind] = self.games_by_kind.get(kind, 0) + games
        self.seconds_by_kind[kind] = self.seconds_by_kind.get(kind, 0.0) + seconds

    def rate(self, kind: str) -> float | None:
        """Games a second of this kind so far (None before any)."""
        seconds = self.seconds_by_kind.get(kind, 0.0)
        games = self.games_by_kind.get(kind, 0)
        return games / seconds if games and seconds > 0 else None

    def searching(self, next_cost: int = 0) -> bool:
        """May the search go on (and play about `next_cost` more games)?"""
        if self.budget.kind == "games":
            return self.games + next_cost <= SEARCH_SHARE * self.budget.amount
        return self.elapsed() < SEARCH_SHARE * self.budget.amount

    def left(self) -> float:
        """What is left: games, or seconds."""
        if self.budget.kind == "games":
            return max(0.0, self.budget.amount - self.games)
        return max(0.0, self.budget.amount - self.elapsed())

    def fraction(self) -> float:
        """How much of the budget is spent, 0 to 1."""
        spent = self.games if self.budget.kind == "games" else self.elapsed()
        return min(1.0, spent / self.budget.amount)
