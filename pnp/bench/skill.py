"""`make bench`'s skill table: does the search beat greedy, does greedy beat random, and
what does a decision of the search cost, in every game with an engine.

One row per game, at the game's default player count and mcts budget (its engine's
`MCTS_BUDGET`, or its `MCTS_BUDGETS` at that count, horizon and team scoring, as
`pnp simulate --bot mcts` plays it):

- **mcts vs greedy**: one mcts seat against greedy seats, the mcts seat taking each
  position in turn (each seat order its own games); its win share (a shared win split)
  with its 95 % Wilson interval, per seat order and pooled. The target: every seat
  order's interval lies above the fair share 1/players. In a cooperative game every
  seat of one team plays the same bot: the all-mcts team's win rate against the
  all-greedy team's, the target being two intervals apart.
- **greedy vs random**: the same with greedy against random seats (a cooperative game:
  the all-greedy team against the all-random team), the yardstick the search is held to.
- **decision time**: CPU milliseconds of each mcts decision with a choice in those games
  (one process each), median and slowest, against `DECISION_TARGET_MS`.

A benchmark, not a test: the games are seeded (``"<seed>:<bots>:<seat>:<game>"``), so the
shares repeat exactly; the times depend on the machine and what else runs on it.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from pnp.contract.gamedef import mcts_budget
from pnp.games import get_game, registry
from pnp.play.forward import play
from pnp.play.mcts import DEFAULT_BUDGET
from pnp.play.state import Bot
from pnp.sim.intervals import wilson
from pnp.sim.seats import engine_for, mcts_bot, seat_count

DECISION_TARGET_MS = 50
"""Issue 33: an mcts decision at the game's default budget within 50 ms of CPU."""
GAMES = 100
"""Games per seat order (per team in a cooperative game) by default: at 40 a four-player
seat order winning 0.4 has an interval reaching down to about 0.26, too wide to tell the
target met from missed (Parcheesi's seat 1, seed 1: 0.35 [0.22, 0.50] at 40 games)."""


@dataclass(frozen=True)
class Game:
    """One game to play: its seats' bots, its seed, and where its mcts decisions are timed."""

    slug: str
    bots: tuple[str, ...]
    seed: str


@dataclass
class Tally:
    """What a set of games gave one seat (or a team): wins (shared wins split), games,
    and the CPU ms of every mcts decision with a choice made in them."""

    wins: float = 0.0
    games: int = 0
    decision_ms: list[float] = field(default_factory=list)

    def share(self) -> tuple[float, float, float]:
        """(share, low, high): the win share and its 95 % Wilson interval."""
        lo, hi = wilson(self.wins, self.games)
        return (self.wins / self.games if self.games else 0.0, lo, hi)

    def add(self, other: Tally) -> None:
        self.wins += other.wins
        self.games += other.games
        self.decision_ms += other.decision_ms


class Timed:
    """A bot whose decisions with a choice are timed in CPU ms (one process)."""

    def __init__(self, bot: Bot[Any], times: list[float]) -> None:
        self.bot, self.times, self.name = bot, times, bot.name

    def choose(self, state: Any, rng: random.Random) -> Any:
        if len(state.legal_actions()) < 2:
            return self.bot.choose(state, rng)
        cpu = time.process_time()
        action = self.bot.choose(state, rng)
        self.times.append(1000 * (time.process_time() - cpu))
        return action


def seat_bots(slug: str, names: Sequence[str], model: object) -> list[Bot[Any]]:
    """The bots of a game's seats, mcts as the engine declares it (budget, horizon, team)."""
    engine = engine_for(get_game(slug))
    return [
        mcts_bot(engine, mcts_budget(engine, len(names), DEFAULT_BUDGET))
        if name == "mcts"
        else engine.make_bot(name, model)
        for name in names
    ]


def play_game(
    game: Game, make: Callable[[str, Sequence[str], object], list[Bot[Any]]] = seat_bots
) -> tuple[tuple[float, ...], bool, list[float]]:
    """(each seat's share of the win, whether the team won, mcts decisions' CPU ms) of one
    game on the readable rules (`pnp.play.forward.play`), the seats' bots made by `make`."""
    gdef = get_game(game.slug)
    engine = engine_for(gdef)
    players = len(game.bots)
    model = engine.prepare(gdef.default_params(), players)
    rng = random.Random(game.seed)
    state = engine.new_state(model, players, rng)
    times: list[float] = []
    bots = [
        Timed(b, times) if name == "mcts" else b
        for name, b in zip(game.bots, make(game.slug, game.bots, model), strict=True)
    ]
    played = play(state, bots, rng).state
    outcome = played.outcome()
    winners = outcome.winners if outcome is not None and outcome.finished else ()
    shares = tuple((1 / len(winners) if s in winners else 0.0) for s in range(players))
    return shares, bool(winners), times


def seat_orders(thinker: str, field_bot: str, players: int) -> list[tuple[str, ...]]:
    """One lineup per seat the `thinker` may take, the others `field_bot`."""
    return [tuple(thinker if s == k else field_bot for s in range(players)) for k in range(players)]


def match(
    slug: str,
    lineups: Sequence[tuple[str, ...]],
    watch: Sequence[int | None],
    games: int,
    seed: int,
    jobs: int,
    play_one: Callable[[Game], tuple[tuple[float, ...], bool, list[float]]] = play_game,
) -> list[Tally]:
    """`games` games of each lineup; the tally of seat `watch[i]` in lineup i (None: the
    team's wins), with the lineup's mcts decisions' times."""
    todo = [
        Game(slug, bots, f"{seed}:{','.join(bots)}:{i}:{g}")
        for i, bots in enumerate(lineups)
        for g in range(games)
    ]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(play_one, todo, chunksize=1))
    else:
        results = [play_one(g) for g in todo]
    tallies = [Tally() for _ in lineups]
    for k, (shares, team_won, times) in enumerate(results):
        i = k // games
        seat = watch[i]
        tallies[i].add(Tally(float(team_won) if seat is None else shares[seat], 1, list(times)))
    return tallies


@dataclass
class SkillRow:
    """One game's row of the table."""

    slug: str
    players: int
    budget: int
    cooperative: bool
    search: list[Tally]  # mcts vs greedy: per seat order, or [all-mcts team, all-greedy team]
    greedy: list[Tally]  # greedy vs random: the same

    @property
    def fair(self) -> float:
        return 1 / self.players

    def met(self) -> bool:
        """Every seat order's interval above the fair share (a team: the intervals apart)."""
        if self.cooperative:
            return self.search[0].share()[1] > self.search[1].share()[2]
        return all(t.share()[1] > self.fair for t in self.search)

    def decision_ms(self) -> list[float]:
        return sorted(ms for t in self.search for ms in t.decision_ms)


def skill_row(
    slug: str, games: int = GAMES, seed: int = 1, jobs: int = 1, players: int | None = None
) -> SkillRow:
    """Play the row's games: `games` per seat order (per team when cooperative), with
    `players` seats (the game's default when None)."""
    gdef = get_game(slug)
    engine = engine_for(gdef)
    players = seat_count(gdef, players)
    budget = mcts_budget(engine, players, DEFAULT_BUDGET)
    if engine.COOPERATIVE:
        teams = [(b,) * players for b in ("mcts", "greedy", "random")]
        tallies = match(slug, teams, [None] * 3, games, seed, jobs)
        return SkillRow(slug, players, budget, True, tallies[:2], tallies[1:])
    search = match(slug, seat_orders("mcts", "greedy", players), range(players), games, seed, jobs)
    greedy = match(
        slug, seat_orders("greedy", "random", players), range(players), games, seed, jobs
    )
    return SkillRow(slug, players, budget, False, search, greedy)


def player_counts(slug: str, wanted: Sequence[int]) -> list[int | None]:
    """The counts of `wanted` the game takes, or [None] (its default) when it takes none."""
    engine = engine_for(get_game(slug))
    taken = [p for p in wanted if engine.MIN_PLAYERS <= p <= engine.MAX_PLAYERS]
    return list(taken) or [None]


def _share(t: Tally) -> str:
    p, lo, hi = t.share()
    return f"{p:.2f} [{lo:.2f}, {hi:.2f}]"


def _pooled(tallies: Sequence[Tally]) -> Tally:
    total = Tally()
    for t in tallies:
        total.add(t)
    return total


COLUMNS = (
    "game",
    "mcts vs greedy",
    "weakest seat order",
    "target",
    "greedy vs random",
    "decision ms, median / slowest",
)


def row_cells(row: SkillRow) -> tuple[str, ...]:
    """The row's cells: the search's share (a team: its win rate beside greedy's), its
    weakest seat order, the verdict, greedy's share against random, the decision times."""
    times = row.decision_ms()
    timing = "n/a"
    if times:
        timing = f"{statistics.median(times):.1f} / {times[-1]:.1f}"
        timing += " (over)" if times[-1] > DECISION_TARGET_MS else ""
    if row.cooperative:
        search = f"team {_share(row.search[0])} vs {_share(row.search[1])}"
        weakest = "(one team)"
        goal = "intervals apart"
        naive = f"team {_share(row.greedy[0])} vs {_share(row.greedy[1])}"
    else:
        search = _share(_pooled(row.search))
        worst = min(range(row.players), key=lambda k: row.search[k].share()[1])
        weakest = f"seat {worst + 1}: {_share(row.search[worst])}"
        goal = f"every seat order > {row.fair:.2f}"
        naive = _share(_pooled(row.greedy))
    name = f"{row.slug} ({row.players}p, {row.budget:,} playouts, {row.search[0].games} games)"
    verdict = f"{goal}: {'met' if row.met() else 'NOT met'}"
    return (name, search, weakest, verdict, naive, timing)


def table(rows: Sequence[SkillRow]) -> list[str]:
    """The rows as an aligned text table, then each game's shares seat order by seat order
    (the mcts or greedy seat's place in turn order)."""
    cells = [COLUMNS, *(row_cells(r) for r in rows)]
    widths = [max(len(c[i]) for c in cells) for i in range(len(COLUMNS))]
    lines = ["  ".join(c[i].ljust(widths[i]) for i in range(len(COLUMNS))).rstrip() for c in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    for row in rows:
        if not row.cooperative:
            for label, tallies in (
                ("mcts vs greedy", row.search),
                ("greedy vs random", row.greedy),
            ):
                seats = " / ".join(_share(t) for t in tallies)
                lines.append(f"  {row.slug} ({row.players}p), {label}, by seat: {seats}")
    return lines


def main(
    games: int = GAMES,
    seed: int = 1,
    jobs: int = 1,
    slugs: Sequence[str] = (),
    players: Sequence[int] = (),
) -> None:
    """Print the table for every game with an engine (or `slugs`): a row at each of
    `players` the game takes (its default player count when none is given or taken)."""
    names = list(slugs) or [s for s, g in registry().items() if g.engine is not None]
    print(
        f"skill (seed {seed}; 95 % Wilson intervals; CPU ms of each mcts decision with a "
        f"choice, target {DECISION_TARGET_MS} ms): one mcts seat at the game's default budget "
        f"against greedy seats, one greedy seat against random ones, each seat order in turn "
        f"(a cooperative game: whole teams)"
    )
    rows = [
        skill_row(slug, games, seed, jobs, count)
        for slug in names
        for count in player_counts(slug, players)
    ]
    print("\n".join(table(rows)))
