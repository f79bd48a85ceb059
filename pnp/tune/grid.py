"""A small space, played whole: every setting is measured, none is left to a guess.

Where the budget can give every setting of the space a fair number of games (about as many
as the search would try: `pnp.tune.search.reach`, or `GRID_TIME` settings for a time
budget), sampling it would only play fewer of them, on fewer games: a plain grid, as
`pnp simulate --sweep` plays, was faster and saw every setting. So each setting plays a
first round on the same seeds, and rounds of doubled games follow for the settings still
in the running. A setting leaves the race only when it is told apart: the least its total
score could be, over its targets' intervals (`Candidate.score_span`), is more than the most
the leader's could be. Those still in the running when the search's share is spent could
not be told apart at this budget, and the answer says so (`pnp.tune.verify.ties`).
"""

from __future__ import annotations

from pnp.runtime.errors import PnpError
from pnp.tune.budget import SEARCH_SHARE, Budget, Spend, TimeUp, hard_stop
from pnp.tune.search import Found, Progress, Trial, reach, status
from pnp.tune.space import Dimension, grid, space_size
from pnp.tune.trial import Candidate, Setup, derive_seed, play_round

GRID_TIME = 48  # settings a time budget plays as a whole grid
MIN_GAMES = 40  # a setting's first round at the least
MAX_FIRST = 2000  # and at the most


def plays_grid(dims: list[Dimension], budget: Budget) -> bool:
    """Is the space small enough for the budget to play it whole?"""
    size = space_size(dims)
    if size == float("inf"):
        return False
    most = reach(budget)
    return size <= (GRID_TIME if most is None else most)


def first_games(spend: Spend, settings: int) -> int:
    """A first round's games for each setting: a quarter of the search's share of a games
    budget over all of them (the rounds that follow double the games of those still in
    the running), 100 for a time budget."""
    if spend.budget.kind == "seconds":
        return 100
    share = SEARCH_SHARE * spend.budget.amount
    return max(MIN_GAMES, min(MAX_FIRST, int(share // (4 * max(1, settings)))))


def grid_search(
    setup: Setup, dims: list[Dimension], spend: Spend, progress: Progress | None = None
) -> Found:
    """Every setting of the space, raced as `pnp.tune.grid` says; Ctrl-C, the budget's
    time or a worker lost for good ends it with what was measured."""
    found = Found(optimizer={"method": "grid", "settings": int(space_size(dims))})
    found.stopped = "budget"
    alive: list[Candidate] = []
    try:
        for setting in grid(dims):
            if spend.over("search"):
                raise TimeUp
            try:
                with hard_stop(spend.cutoff("search")):
                    candidate = Candidate(setup, setting)
            except PnpError as exc:  # a setting the game refuses is never raced
                key = tuple(sorted((k, repr(v)) for k, v in setting.items()))
                said = ", ".join(f"{k} = {v}" for k, v in setting.items())
                found.refused[key] = f"{said}: {exc}"
                continue
            found.trials.append(Trial(len(found.trials), 0, setting, "raced", candidate))
            alive.append(candidate)
        base = first_games(spend, len(alive))
        rung = 0
        while alive:
            wanted = base * 2**rung
            more = [wanted - c.games for c in alive]
            if rung and not spend.searching(sum(more)):
                break

            def told(games: int) -> None:
                if progress:
                    progress(status(found, spend, "grid", games))

            seed = derive_seed(setup.seed, "grid", rung)
            stopped = play_round(alive, more, seed, spend, told)
            for c in alive:
                c.rung = rung
            if stopped == "time":
                break
            if stopped:
                found.stopped = "interrupted" if stopped == "interrupted" else "failure"
                found.failure = None if stopped == "interrupted" else stopped
                break
            running = in_the_running(alive)
            for t in found.trials:  # told apart: out of the ranking, its figures kept
                if t.candidate in alive and t.candidate not in running:
                    t.status = "behind"
            alive = running
            if len(alive) <= 1:
                found.stopped = "space"  # the best is told apart from every other
                break
            rung += 1
    except TimeUp:
        found.stopped = "budget"
    except KeyboardInterrupt:
        found.stopped = "interrupted"
    found.optimizer["in_the_running"] = len(alive)
    return found


def in_the_running(candidates: list[Candidate]) -> list[Candidate]:
    """The settings not told apart from the leader: no degenerate one, and none whose
    least total score is more than the leader's most."""
    live = [c for c in candidates if c.games and not c.degenerate()]
    if not live:
        return []
    spans = {id(c): c.score_span() for c in live}
    ceiling = min(spans[id(c)][2] for c in live)
    return [c for c in live if spans[id(c)][0] <= ceiling]
