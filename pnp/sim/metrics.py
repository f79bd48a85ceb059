"""Metrics over many games, named after Ludii's evaluation metrics where one fits.

Everything is accumulated as whole numbers (a histogram of game lengths, win shares in
units of 1/lcm(1..players)), so chunks of games played by different processes merge to
exactly the same result whatever the number of jobs or the order they finish in.

Definitions:
- ``duration_turns``: turns per game (a turn is one player's turn): mean, median, p5, p95
  (nearest-rank percentiles).
- ``advantage_p1``: win share of seat 1, the first player; a shared win is split.
- ``win_rate_by_seat``: the same for every seat, seat 1 first.
- ``balance``: 1 - (highest - lowest seat win rate); 1 is perfectly fair.
- ``completion``: share of games ending by a rule of the game, not a timeout or a stall.
- ``timeouts``: share of games stopped by the turn cap.
- ``drawishness``: share of games drawn (no winner, ended by a rule, not a cut-off) or
  with a shared win.
- ``win_rate_by_colour``: for each colour (side), the win share of the seat that played it,
  over the games where someone played it.
- ``lead_changes``: mean per game of the times the sole leader after a turn is a different
  seat from the previous sole leader (turns with a tied lead do not count; the first
  leader is not a change); None (null) when the engine reports no leaders.
- ``leader_at_midgame_wins``: over games with a sole leader after turn ceil(turns / 2),
  the win share of that leader; None when there is no such game.

Each share has a sibling ``<name>_ci`` (95 % Wilson), each distribution a ``ci`` of its
mean and the ``ci_method`` that made it (`pnp.sim.intervals`); the summary adds
``end_reasons_ci`` and the ``fairness`` tests (`pnp.sim.verdicts`).

A cooperative game (the seats win or lose together) reports ``completion`` as the share of
games the team won, and no seat metrics at all: they mean nothing there. Counters a game
declares (captures, passes, rolls seen...) are summed and histogrammed per game; ratios of
two counters (Ludii's ``branching_factor``: legal moves over decisions) are metrics too.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pnp.play.outcome import GameRecord
from pnp.sim.intervals import mean_interval, wilson
from pnp.sim.verdicts import fairness


def lead_changes(leaders: tuple[int, ...]) -> int:
    """Times the sole leader changes hands; tied turns keep the previous leader."""
    changes, last = 0, -1
    for seat in leaders:
        if seat >= 0:
            if last >= 0 and seat != last:
                changes += 1
            last = seat
    return changes


def midgame_leader(record: GameRecord) -> int:
    """The sole leader after turn ceil(turns / 2), or -1 (also for a game that keeps no
    leaders, such as a cooperative one)."""
    k = (record.turns + 1) // 2 - 1
    return record.leaders[k] if 0 <= k < len(record.leaders) else -1


@dataclass
class Accumulator:
    """Mergeable tallies for the games of one run."""

    players: int
    games: int = 0
    turns: Counter[int] = field(default_factory=Counter)  # length -> games
    ends: Counter[str] = field(default_factory=Counter)  # reason -> games
    seat_wins: list[int] = field(default_factory=list)  # in units of 1/unit
    colour_wins: Counter[str] = field(default_factory=Counter)  # colour -> units
    colour_games: Counter[str] = field(default_factory=Counter)  # colour -> games it was played
    shared: int = 0
    changes: int = 0
    mid_games: int = 0
    mid_wins: int = 0  # units
    team_wins: int = 0  # games someone won (a cooperative game's team wins)
    no_winner: Counter[str] = field(default_factory=Counter)  # end reason -> games no one won
    led_games: int = 0  # games whose engine reported a leader (or a tie) after each turn
    change_hist: Counter[int] = field(default_factory=Counter)  # lead changes -> games
    counter_hist: dict[str, Counter[int]] = field(default_factory=dict)  # name -> value -> games
    # (bot, seat) -> games, when the seats mix bots
    bot_games: Counter[tuple[str, int]] = field(default_factory=Counter)
    bot_wins: Counter[tuple[str, int]] = field(default_factory=Counter)  # (bot, seat) -> units

    def __post_init__(self) -> None:
        self.unit = math.lcm(*range(1, self.players + 1))
        if not self.seat_wins:
            self.seat_wins = [0] * self.players

    def add(self, r: GameRecord, bots: tuple[str, ...] = ()) -> None:
        """Tally one game (the record is read, never kept); `bots` names each seat's bot
        when the seats mix bots, so each bot's share can be pooled over seat orders."""
        share = self.unit // len(r.winners) if r.winners else 0
        for seat, name in enumerate(bots):
            self.bot_games[name, seat] += 1
            if seat in r.winners:
                self.bot_wins[name, seat] += share
        self.games += 1
        if r.winners:
            self.team_wins += 1
        else:
            self.no_winner[r.end] += 1
        for name, value in r.counters.items():
            hist = self.counter_hist.get(name)
            if hist is None:
                hist = self.counter_hist[name] = Counter()
            hist[value] += 1
        self.turns[r.turns] += 1
        self.ends[r.end] += 1
        for s in r.winners:
            self.seat_wins[s] += share
        for seat, colours in enumerate(r.colours):
            for c in colours:
                self.colour_games[c] += 1
                if seat in r.winners:
                    self.colour_wins[c] += share
        if len(r.winners) > 1:
            self.shared += 1
        changes = lead_changes(r.leaders)
        self.changes += changes
        if r.leaders:
            self.led_games += 1
            self.change_hist[changes] += 1
        mid = midgame_leader(r)
        if mid >= 0:
            self.mid_games += 1
            if mid in r.winners:
                self.mid_wins += share

    def merge(self, other: Accumulator) -> Accumulator:
        self.games += other.games
        self.turns.update(other.turns)
        self.ends.update(other.ends)
        self.seat_wins = [a + b for a, b in zip(self.seat_wins, other.seat_wins, strict=True)]
        self.colour_wins.update(other.colour_wins)
        self.colour_games.update(other.colour_games)
        self.shared += other.shared
        self.changes += other.changes
        self.mid_games += other.mid_games
        self.mid_wins += other.mid_wins
        self.team_wins += other.team_wins
        self.no_winner.update(other.no_winner)
        self.led_games += other.led_games
        self.change_hist.update(other.change_hist)
        for name, hist in other.counter_hist.items():
            self.counter_hist.setdefault(name, Counter()).update(hist)
        self.bot_games.update(other.bot_games)
        self.bot_wins.update(other.bot_wins)
        return self

    def counter_total(self, name: str) -> int:
        if name == "turns":
            return sum(v * k for v, k in self.turns.items())
        return sum(v * k for v, k in self.counter_hist.get(name, Counter()).items())


NO_TURN = "no game lasted a turn: every game ended before its first turn was played"


def no_turn_played(acc: Accumulator) -> bool:
    """Did every game end before a turn was played? Then the lengths, draws and seat
    shares describe a setup, not a game: such a setting is degenerate."""
    return acc.games > 0 and set(acc.turns) == {0}


def _at_rank(hist: Counter[int], rank: int) -> int:
    """The value at 1-based position `rank` of the sorted sample the histogram holds."""
    seen = 0
    for value in sorted(hist):
        seen += hist[value]
        if seen >= rank:
            return value
    raise ValueError("rank beyond the sample")


def duration(hist: Counter[int]) -> dict[str, float]:
    n = sum(hist.values())
    if not n:
        return {"mean": 0.0, "median": 0.0, "p5": 0.0, "p95": 0.0}
    mean = sum(v * k for v, k in hist.items()) / n
    median = (_at_rank(hist, (n + 1) // 2) + _at_rank(hist, n // 2 + 1)) / 2
    return {
        "mean": round(mean, 3),
        "median": float(median),
        "p5": float(_at_rank(hist, max(1, math.ceil(0.05 * n)))),
        "p95": float(_at_rank(hist, max(1, math.ceil(0.95 * n)))),
    }


def _share(part: float, whole: float) -> float:
    return round(part / whole, 4) if whole else 0.0


def share_ci(part: float, whole: float) -> list[float]:
    """The 95 % Wilson interval of part / whole, as JSON holds it."""
    lo, hi = wilson(part, whole)
    return [round(lo, 4), round(hi, 4)]


def mean_ci(hist: Counter[int]) -> tuple[list[float] | None, str]:
    """The 95 % interval of a histogram's mean as JSON holds it (None where one value
    cannot give one), and how it was made."""
    found, method = mean_interval(hist)
    if found is None:
        return None, method
    lo, hi = found
    return [round(lo, 3), round(hi, 3)], method


def with_mean_ci(d: dict[str, Any], hist: Counter[int]) -> dict[str, Any]:
    """A distribution's figures plus the 95 % interval of its mean and how it was made."""
    ci, method = mean_ci(hist)
    return d | {"ci": ci, "ci_method": method}


def counter_metrics(
    acc: Accumulator,
    counters: tuple[str, ...] = (),
    ratios: dict[str, tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """Per-game distribution of each declared counter, then each declared ratio (null when
    its denominator never counted anything: the ratio does not apply)."""
    out: dict[str, Any] = {}
    for name in counters:
        hist = acc.counter_hist.get(name, Counter())
        out[name] = with_mean_ci({"total": acc.counter_total(name), **duration(hist)}, hist)
    for name, (top, bottom) in (ratios or {}).items():
        whole = acc.counter_total(bottom)
        out[name] = _share(acc.counter_total(top), whole) if whole else None
    return out


def metrics(
    acc: Accumulator,
    colours: tuple[str, ...] = (),
    cooperative: bool = False,
    counters: tuple[str, ...] = (),
    ratios: dict[str, tuple[str, str]] | None = None,
    unfinished: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The metrics object of the JSON output. `colours` fixes the colour order;
    `unfinished` names the ends `completion` leaves out (the engine's cut-offs). Each share
    has a sibling ``<name>_ci`` (Wilson, 95 %); each distribution a ``ci`` of its mean."""
    n = acc.games
    timeouts = acc.ends.get("timeout", 0)
    length = with_mean_ci(duration(acc.turns), acc.turns)
    if cooperative:
        return {
            "duration_turns": length,
            "completion": _share(acc.team_wins, n),
            "completion_ci": share_ci(acc.team_wins, n),
            "timeouts": _share(timeouts, n),
            "timeouts_ci": share_ci(timeouts, n),
            **counter_metrics(acc, counters, ratios),
        }
    seat_rates = [_share(w, acc.unit * n) for w in acc.seat_wins]
    order = list(colours) + sorted(c for c in acc.colour_games if c not in colours)
    played = [c for c in order if acc.colour_games[c]]
    finished = sum(k for e, k in acc.ends.items() if e not in unfinished)
    drawn = acc.shared + sum(k for e, k in acc.no_winner.items() if e not in unfinished)
    led = acc.led_games > 0  # the engine reports leaders: lead metrics apply
    changes = acc.change_hist + Counter({0: n - acc.led_games})
    c_ci, c_method = mean_ci(changes)
    return {
        "duration_turns": length,
        "advantage_p1": seat_rates[0] if seat_rates else 0.0,
        "advantage_p1_ci": share_ci(acc.seat_wins[0] / acc.unit, n) if seat_rates else None,
        "balance": round(1 - (max(seat_rates) - min(seat_rates)), 4) if n else 0.0,
        "completion": _share(finished, n),
        "completion_ci": share_ci(finished, n),
        "timeouts": _share(timeouts, n),
        "timeouts_ci": share_ci(timeouts, n),
        "drawishness": _share(drawn, n),
        "drawishness_ci": share_ci(drawn, n),
        "win_rate_by_seat": seat_rates,
        "win_rate_by_seat_ci": [share_ci(w / acc.unit, n) for w in acc.seat_wins],
        "win_rate_by_colour": {
            c: _share(acc.colour_wins[c], acc.unit * acc.colour_games[c]) for c in played
        },
        "win_rate_by_colour_ci": {
            c: share_ci(acc.colour_wins[c] / acc.unit, acc.colour_games[c]) for c in played
        },
        "lead_changes": _share(acc.changes, n) if led else None,
        "lead_changes_ci": c_ci if led else None,
        "lead_changes_ci_method": c_method if led else None,
        "leader_at_midgame_wins": (
            _share(acc.mid_wins, acc.unit * acc.mid_games) if acc.mid_games else None
        ),
        "leader_at_midgame_wins_ci": (
            share_ci(acc.mid_wins / acc.unit, acc.mid_games) if acc.mid_games else None
        ),
        **counter_metrics(acc, counters, ratios),
    }


def bot_shares(acc: Accumulator, order: tuple[str, ...] = ()) -> dict[str, dict[str, Any]]:
    """Each bot's win share per seat it held, pooled over the seat orders a mixed run
    plays (a shared win split), with its Wilson interval, and its share in each seat; the
    fair share is 1/players. This, not a seat verdict, is what a run of mixed bots
    measures."""
    names = dict.fromkeys((*order, *sorted({name for name, _ in acc.bot_games})))
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        seats = [acc.bot_games[name, s] for s in range(acc.players)]
        if not any(seats):
            continue
        units = [acc.bot_wins[name, s] for s in range(acc.players)]
        played = sum(seats)
        out[name] = {
            "seat_games": played,
            "share": _share(sum(units), acc.unit * played),
            "ci": share_ci(sum(units) / acc.unit, played),
            "by_seat": [
                _share(u, acc.unit * g) if g else None for u, g in zip(units, seats, strict=True)
            ],
            "fair": round(1 / acc.players, 4),
        }
    return out


def summary(
    game: str,
    players: int,
    bot: str,
    seed: int,
    acc: Accumulator,
    colours: tuple[str, ...] = (),
    *,
    cooperative: bool = False,
    counters: tuple[str, ...] = (),
    ratios: dict[str, tuple[str, str]] | None = None,
    options: dict[str, Any] | None = None,
    abstraction: str = "",
    totals: dict[str, dict[str, str]] | None = None,
    unfinished: tuple[str, ...] = (),
    bots: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The run's JSON object: game, players, bot, games, seed, metrics, end_reasons; then
    the game's declared `totals` (labelled sums of its counters), `options` (game options
    that differ from their defaults) and `abstraction` when the game has them, so a plain
    run of a game without them keeps its exact shape."""
    out = {
        "game": game,
        "players": players,
        "bot": bot,
        "games": acc.games,
        "seed": seed,
        "metrics": metrics(acc, colours, cooperative, counters, ratios, unfinished),
        "end_reasons": {e: acc.ends[e] for e in sorted(acc.ends)},
        "end_reasons_ci": {e: share_ci(acc.ends[e], acc.games) for e in sorted(acc.ends)},
    }
    for key, parts in (totals or {}).items():  # e.g. "rolls": {"0": n, "1": n, ...}
        out[key] = {label: acc.counter_total(counter) for label, counter in parts.items()}
    if cooperative:
        out["cooperative"] = True
    elif len(set(bots)) > 1:  # mixed seats: the bots are measured, not the seats
        out["bot_shares"] = bot_shares(acc, bots)
    else:
        out["fairness"] = fairness(acc)
    if options:
        out["options"] = options
    if abstraction:
        out["abstraction"] = abstraction
    return out
