"""Racing: successive halving over a batch of candidates.

Every candidate plays a first round of `base` games; the better half (by the sum of its
targets' scores, `Candidate.score`) is given as many games again, and so on, doubling,
until one is left: a weak candidate costs few games, a promising one is measured more
closely. A degenerate setting (no game lasted a turn) leaves the race at once. Ties are
broken by the order the optimiser proposed the candidates, so the race is the same on
every machine.
"""

from __future__ import annotations

from collections.abc import Sequence

from pnp.tune.budget import Spend
from pnp.tune.trial import Candidate, Told, derive_seed, play_round

KEEP = 2  # one candidate in KEEP goes on to the next round


def race(
    candidates: Sequence[Candidate],
    base: int,
    seed: int,
    batch: int,
    spend: Spend,
    told: Told | None = None,
) -> str | None:
    """Race the candidates (their games and `rung` are updated in place); what stopped it
    early (see `play_round`), else None. After the first round, a search out of budget
    stops racing: what was measured stands."""
    alive = list(candidates)
    rung = 0
    while alive:
        wanted = base * KEEP**rung
        more = [wanted - c.games for c in alive]
        stopped = play_round(alive, more, derive_seed(seed, "race", batch, rung), spend, told)
        for c in alive:
            c.rung = rung
        if stopped:
            return stopped
        alive = [c for c in alive if not c.degenerate()]
        if len(alive) <= 1 or not spend.searching():
            return None
        order = sorted(range(len(alive)), key=lambda i: (alive[i].score(), i))
        alive = [alive[i] for i in sorted(order[: -(-len(alive) // KEEP)])]
        rung += 1
    return None
