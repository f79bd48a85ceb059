"""Can the figure supply ever fill both refuges? A check the kit and the simulation share.

Both players race for the same figures, so a supply that fills one refuge may still lock
the other player out. The verdict splits every colour's figures and tents between the two
refuges in every way (tents cannot be split) and asks whether some split gives each refuge
`goal` of every colour, blue beyond its own goal standing in for the rest, as the win rule
counts. The numbers are small, so the search is exact.
"""

from __future__ import annotations

from pnp.games.desert_home.rules.model import PlayModel

Pair = tuple[int, int]


def _front(pairs: set[Pair]) -> set[Pair]:
    """The pairs no other pair beats in both places (smaller is better)."""
    return {p for p in pairs if not any(q != p and q[0] <= p[0] and q[1] <= p[1] for q in pairs)}


def _worths(figures: int, tents: int, tent_value: int) -> list[Pair]:
    """(first refuge's worth, second's) for every split of one colour's pieces."""
    total = figures + tent_value * tents
    return [
        (fa + tent_value * ta, total - fa - tent_value * ta)
        for fa in range(figures + 1)
        for ta in range(tents + 1)
    ]


def shortfalls(model: PlayModel) -> set[Pair]:
    """The best (first's, second's) total shortfalls over the non-blue colours."""
    goal = model.goal
    front: set[Pair] = {(0, 0)}
    for c in range(len(model.colours)):
        if c == model.blue:
            continue
        split = {
            (max(0, goal - a), max(0, goal - b))
            for a, b in _worths(model.figures[c], model.tents[c], model.tent_value)
        }
        front = _front({(x + a, y + b) for x, y in front for a, b in split})
    return front


def one_can_win(model: PlayModel) -> bool:
    """Whether a single refuge holding the whole supply meets the goal."""
    goal, tv = model.goal, model.tent_value
    worth = [f + tv * t for f, t in zip(model.figures, model.tents, strict=True)]
    short = sum(max(0, goal - w) for c, w in enumerate(worth) if c != model.blue)
    return worth[model.blue] >= goal + short


def supply_verdict(model: PlayModel) -> tuple[bool, str]:
    """(True, why) if some split of the supply meets both players' goal, else (False, why)."""
    goal = model.goal
    blue = model.blue
    blues = _worths(model.figures[blue], model.tents[blue], model.tent_value)
    for short_a, short_b in sorted(shortfalls(model)):
        if any(a >= goal + short_a and b >= goal + short_b for a, b in blues):
            tv = model.tent_value
            worth = [f + tv * t for f, t in zip(model.figures, model.tents, strict=True)]
            if min(worth) <= 2 * goal:
                return True, (
                    f"both refuges can hold {goal} of every colour at once, but with nothing "
                    "to spare: figures parked in the wrong refuge can lock a player out"
                )
            return True, (
                f"both refuges can hold {goal} of every colour at once "
                f"(a tent counts {model.tent_value}, blue standing in where short)"
            )
    if one_can_win(model):
        return False, (
            f"only one refuge can ever hold {goal} of every colour: the other player can be "
            "locked out; add figures or tents"
        )
    return False, (
        f"no refuge can ever hold {goal} of every colour, even with blue standing in: "
        "nobody can win; add figures or tents"
    )
