"""The blob dice: what a roll allows, exactly (fractions) and as a draw from a generator.

Each die shows a blob (1) or a blank (0) on each of its six faces; the number of blobs
showing is how many blobs the player may touch. The distribution is worked out from the
faces, so a designer's own dice are checked and simulated the same way as the printed ones.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction


def distribution(dice: Sequence[Sequence[int]]) -> dict[int, Fraction]:
    """P(blobs showing = n) for every n from 0 to the number of dice."""
    dist = {0: Fraction(1)}
    for faces in dice:
        p = Fraction(sum(faces), len(faces))
        step: dict[int, Fraction] = {}
        for n, q in dist.items():
            step[n] = step.get(n, Fraction(0)) + q * (1 - p)
            step[n + 1] = step.get(n + 1, Fraction(0)) + q * p
        dist = step
    return {n: dist.get(n, Fraction(0)) for n in range(len(dice) + 1)}


def mean(dice: Sequence[Sequence[int]]) -> Fraction:
    """Expected blobs showing: the sum of each die's share of blob faces."""
    return sum((Fraction(sum(f), len(f)) for f in dice), Fraction(0))


def roll(dice: Sequence[Sequence[int]], rng: random.Random) -> int:
    """Roll every die once (a uniform face each, in die order) and count the blobs."""
    return sum(faces[rng.randrange(len(faces))] for faces in dice)
