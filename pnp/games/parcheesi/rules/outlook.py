"""How likely each seat is to win from a position: the tree search's cut-off evaluation.

A playout the search cuts off is scored by `win_chances`: a multinomial logit over the
seats of a few features of each seat's pawns (its progress, its pawns still in the nest,
its pawns a capture could send back), scaled by the square root of the race still to run
(the same lead counts for more near the end), plus a term for each seat's place in the
turn order after the seat to move. Every seat's chance moves with every other seat's
pawns, so a search is never indifferent between its plays because it stays first or
stays last whatever it plays, as it was when a cut-off scored each seat by its place
between the last and the first alone. The weights, one set per player count, were
fitted to the winners of greedy games (`outlook_fit.py` gives the command, the data and
the fit's quality).

The arithmetic is written out term by term, in a fixed order, because the compiled
search (`_tree.h`) computes the very same floats.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pnp.games.parcheesi.rules import NEST, PAWNS
from pnp.games.parcheesi.rules.model import PlayModel

FEATURES = ("progress", "nest", "exposed")
WEIGHTS: dict[int, tuple[float, float, float]] = {
    2: (0.205, 0.193, -0.429),
    3: (0.188, -0.611, -1.337),
    4: (0.182, -0.433, -1.692),
}
"""Log-odds per unit of each feature, over the square root of the race left, by players.
With four players an exposed pawn costs about nine spaces of progress, with two about two
(two players sit opposite and meet late)."""
TEMPO: dict[int, tuple[float, ...]] = {
    2: (-0.078,),
    3: (-0.037, -0.097),
    4: (-0.045, -0.078, -0.133),
}
"""Log-odds of the seats 1, 2, 3 places after the seat to move, by players."""


def features(model: PlayModel, colour: int, own: Sequence[int]) -> tuple[int, int, int]:
    """`FEATURES` of one colour's pawns: total progress (`rules.progress`), pawns in the
    nest, and pawns on the shared track that are neither on a safe space nor one of a
    blockade (in the home strip or home no pawn can be captured)."""
    path, strip = model.paths[colour], model.strip(colour)
    progress = nest = exposed = 0
    for p in own:
        progress += p + 1
        if p == NEST:
            nest += 1
        elif p < strip and not model.safe[path[p]] and own.count(p) < 2:
            exposed += 1
    return progress, nest, exposed


def win_chances(
    model: PlayModel, seats: Sequence[int], pawns: Sequence[Sequence[int]], seat: int
) -> list[float]:
    """Each seat's chance to win from here (they sum to 1), `seat` to move next."""
    players = len(seats)
    wp, wn, we = WEIGHTS[players]
    tempo = (0.0, *TEMPO[players])
    found = [features(model, c, pawns[c]) for c in seats]
    total = 0
    for progress, _, _ in found:
        total += progress
    left = PAWNS * (model.home + 1) - total / players
    scale = math.sqrt(left if left > 1.0 else 1.0)
    z = []
    for s, (progress, nest, exposed) in enumerate(found):
        z.append((wp * progress + wn * nest + we * exposed) / scale + tempo[(s - seat) % players])
    top = max(z)
    e = [math.exp(v - top) for v in z]
    norm = 0.0
    for v in e:
        norm += v
    return [v / norm for v in e]
