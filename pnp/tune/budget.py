"""`--budget`: how much a tune may spend, in time (`20m`, `90s`, `1h`) or in games
(`5000games`, or `5000games,10m` for games with a time limit as well), and the clock that
spends it.

A budget in games gives the same answer on any machine and backend (the JSON is the same
for a seed) unless its time limit strikes; a budget in time stops when the time is up, so
how many trials fit depends on the machine. Either way `SEARCH_SHARE` of it goes to the
search, and the rest to playing the recommended settings again on fresh seeds
(`pnp.tune.verify`).

Time is kept at three depths: rounds of games stop at the phase's deadline as on a first
Ctrl-C (`pnp.sim.runner.run_jobs`), a setting is not begun past it, and a preparation or
round that runs on past the deadline by `grace` is cut by an alarm (`hard_stop`), so a
setting that takes minutes to set up cannot hold the tune.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from pnp.runtime.errors import PnpError
from pnp.runtime.interrupt import alarm

SEARCH_SHARE = 0.6
MIN_GAMES = 200
MAX_GAMES = 10_000_000
MAX_SECONDS = 7 * 24 * 3600
_AMOUNT = r"\s*(\d+(?:\.\d+)?)\s*(s|sec|m|min|h|games?)\s*"
_BUDGET = re.compile(rf"{_AMOUNT}(?:,{_AMOUNT})?", re.IGNORECASE)
GRACE_SHARE = 0.1  # a time budget ends within its time and this share of it...
MAX_GRACE = 30.0  # ...and at most this many seconds more
MIN_GRACE = 1.0  # (a budget of seconds gets a second: starting a pool takes some)
_UNIT = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600}


class TimeUp(Exception):
    """A preparation or a round ran on past its deadline and its grace (`hard_stop`)."""


@dataclass(frozen=True)
class Budget:
    kind: str  # "games" or "seconds"
    amount: float
    limit: float | None = None  # seconds, for a budget in games that has a time limit too

    def as_json(self) -> dict[str, float]:
        out: dict[str, float] = {
            self.kind: int(self.amount) if self.kind == "games" else self.amount
        }
        if self.limit is not None:
            out["seconds"] = self.limit
        return out

    @property
    def text(self) -> str:
        if self.kind == "games":
            games = f"{int(self.amount):,} games"
            return games if self.limit is None else f"{games} within {self.limit:g} s"
        return f"{self.amount:g} s"

    @property
    def seconds(self) -> float | None:
        """The time the tune may take, if it is bounded in time."""
        return self.amount if self.kind == "seconds" else self.limit

    def grace(self) -> float:
        """How far past its time a timed tune may end: `GRACE_SHARE` of it, at least
        `MIN_GRACE`, at most `MAX_GRACE` seconds."""
        seconds = self.seconds or 0.0
        return min(MAX_GRACE, max(MIN_GRACE, GRACE_SHARE * seconds))


def parse_budget(text: str) -> Budget:
    """`20m`, `90s`, `1.5h`, `5000games` or `5000games,10m`; one line for anything else
    (a number of any length included: the studio answers it with a 4xx as well)."""
    found = _BUDGET.fullmatch(text)
    if not found:
        raise PnpError(
            f"--budget '{text}' is not a budget: give a time (90s, 20m, 1h), a number of "
            "games (5000games), or both (5000games,10m)"
        )
    first = _amount(text, found[1], found[2])
    if found[3] is None:
        return first
    second = _amount(text, found[3], found[4])
    if first.kind != "games" or second.kind != "seconds":
        raise PnpError(
            f"--budget {text}: a budget of both gives the games first, then the time "
            "(5000games,10m)"
        )
    return Budget("games", first.amount, second.amount)


def _amount(text: str, digits: str, unit: str) -> Budget:
    if len(digits) > 30:  # float() would give inf, or round a whole number
        digits = "inf"
    number, unit = float(digits), unit.lower()
    if unit.startswith("game"):
        if not MIN_GAMES <= number <= MAX_GAMES or number != int(number):
            raise PnpError(
                f"--budget {text}: from {MIN_GAMES:,} to {MAX_GAMES:,} games, a whole number"
            )
        return Budget("games", int(number))
    seconds = number * _UNIT[unit]
    if not (math.isfinite(seconds) and 1 <= seconds <= MAX_SECONDS):
        raise PnpError(f"--budget {text}: from 1 second to {MAX_SECONDS // 86400} days")
    return Budget("seconds", seconds)


@contextmanager
def hard_stop(deadline: float | None) -> Iterator[None]:
    """Raise `TimeUp` in the block at `deadline` (a `time.monotonic()` time; at once if it
    is past): for a preparation or a round that the softer stops did not end. An alarm
    (`pnp.runtime.interrupt.alarm`), so it reaches Python code wherever it is; on the main thread
    of a POSIX system only (elsewhere the block runs to its end)."""
    with alarm(None if deadline is None else deadline - time.monotonic(), TimeUp):
        yield


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
        seconds = self.budget.seconds
        if seconds is not None and self.elapsed() >= SEARCH_SHARE * seconds:
            return False
        if self.budget.kind == "games":
            return self.games + next_cost <= SEARCH_SHARE * self.budget.amount
        return True

    def deadline(self, phase: str) -> float | None:
        """When the 'search' or the whole tune ('end') must stop (`time.monotonic()`);
        None for a budget of games alone."""
        seconds = self.budget.seconds
        if seconds is None:
            return None
        return self.start + (SEARCH_SHARE if phase == "search" else 1.0) * seconds

    def cutoff(self, phase: str) -> float | None:
        """When a preparation or round still running in `phase` is cut (`hard_stop`): the
        phase's deadline and the budget's grace."""
        soft = self.deadline(phase)
        return None if soft is None else soft + self.budget.grace()

    def over(self, phase: str) -> bool:
        """Is the phase's time up?"""
        soft = self.deadline(phase)
        return soft is not None and time.monotonic() >= soft

    def left(self) -> float:
        """What is left: games, or seconds."""
        if self.budget.kind == "games":
            return max(0.0, self.budget.amount - self.games)
        return max(0.0, self.budget.amount - self.elapsed())

    def seconds_left(self) -> float | None:
        """Seconds left of a budget bounded in time, else None."""
        seconds = self.budget.seconds
        return None if seconds is None else max(0.0, seconds - self.elapsed())

    def fraction(self) -> float:
        """How much of the budget is spent, 0 to 1."""
        spent = self.games if self.budget.kind == "games" else self.elapsed()
        return min(1.0, spent / self.budget.amount)
