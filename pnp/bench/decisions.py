"""The CPU time of every mcts decision over whole games, per game, player count and
lineup: the quick check of the decision target (`skill.DECISION_TARGET_MS`) without the
skill table's hundreds of games (`python -m pnp.bench --decisions-only`).

For each player count (the game's fewest, its default, and four where it takes four) two
lineups: every seat mcts ("mcts vs mcts"), and one mcts seat among greedy ones, taking
each seat in turn game by game ("mcts vs greedy"). Each mcts seat plays at the game's
default budget, horizon and exploration (`skill.seat_bots`), and each decision with a
choice is timed in CPU milliseconds (`skill.Timed`: one process per game). A benchmark,
not a test: the times depend on the machine and its load, so compare variants in one run.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from pnp.bench.skill import DECISION_TARGET_MS, Game, play_game
from pnp.games import get_game, registry
from pnp.sim.seats import engine_for

GAMES = 4
"""Games per lineup and player count by default: a few thousand decisions in all, enough
for a slowest decision and a 99th percentile that repeat within the machine's noise."""


@dataclass(frozen=True)
class Lineup:
    """One row's games: a game, its seats' bots, and a label for the table."""

    slug: str
    label: str
    games: tuple[Game, ...]


def player_counts(slug: str) -> list[int]:
    """The fewest players, the default, and four where the game takes four."""
    engine = engine_for(get_game(slug))
    lo, hi = engine.MIN_PLAYERS, engine.MAX_PLAYERS
    wanted = {lo, engine.DEFAULT_PLAYERS, min(hi, 4)}
    return sorted(p for p in wanted if lo <= p <= hi)


def lineups(slug: str, games: int, seed: int) -> list[Lineup]:
    """Every seat mcts, then one mcts seat among greedy ones, at each player count."""
    rows = []
    for players in player_counts(slug):
        duel = [("mcts",) * players] * games
        mixed = [
            tuple("mcts" if s == g % players else "greedy" for s in range(players))
            for g in range(games)
        ]
        for label, bots in (("mcts vs mcts", duel), ("mcts vs greedy", mixed)):
            todo = tuple(
                Game(slug, b, f"{seed}:decisions:{','.join(b)}:{g}") for g, b in enumerate(bots)
            )
            rows.append(Lineup(slug, f"{players}p {label}", todo))
    return rows


def _times(game: Game) -> list[float]:
    return play_game(game)[2]


def percentile(sorted_ms: Sequence[float], q: float) -> float:
    """The nearest-rank `q`-th percentile of sorted numbers."""
    k = max(0, min(len(sorted_ms) - 1, -(-len(sorted_ms) * q // 100) - 1))
    return sorted_ms[int(k)]


def summary(times: Sequence[float]) -> str:
    """'n decisions: median / p99 / max ms', with the count over the target."""
    if not times:
        return "no decisions with a choice"
    ms = sorted(times)
    over = sum(t > DECISION_TARGET_MS for t in ms)
    return (
        f"{len(ms):5d} decisions, median {statistics.median(ms):6.1f}, p99 "
        f"{percentile(ms, 99):6.1f}, max {ms[-1]:6.1f} ms"
        + (f"  ({over} over {DECISION_TARGET_MS} ms)" if over else "")
    )


def main(slugs: Sequence[str] = (), games: int = GAMES, seed: int = 1, jobs: int = 1) -> None:
    """Print each game's rows: player count, lineup, the decisions' CPU ms."""
    names = list(slugs) or [s for s, g in registry().items() if g.engine is not None]
    print(
        f"mcts decisions' CPU ms (seed {seed}, {games} games a row, CPU of the playing process; "
        f"target {DECISION_TARGET_MS} ms at the slowest)"
    )
    for slug in names:
        for row in lineups(slug, games, seed):
            if jobs > 1:
                with ProcessPoolExecutor(jobs) as pool:
                    found = list(pool.map(_times, row.games, chunksize=1))
            else:
                found = [_times(g) for g in row.games]
            print(f"  {slug:20} {row.label:17} {summary([t for ts in found for t in ts])}")
