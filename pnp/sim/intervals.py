"""Interval statistics for simulation figures: pure functions (no scipy; numpy only for
the bootstrap's resampling).

- `wilson`: the 95 % Wilson score interval of a share (stays inside [0, 1] and behaves at
  0 and 1 successes, unlike the normal approximation).
- `mean_interval`: a 95 % interval of a mean from a histogram of whole numbers, by the
  normal approximation (``"normal"``), or by a percentile bootstrap (``"bootstrap"``, its
  resampling seeded from the histogram itself, so deterministic) when the sample is small
  or strongly skewed, where the normal interval would be misplaced.
- `share_test` / `chi_square_test`: is seat 1's share the fair 1/players (two-sided z
  test), are all seats equal together (chi-square goodness of fit, with its survival
  function computed in closed form)?
- `games_to_detect`: games needed to detect a difference of a share from the fair share,
  two-sided at 5 %, with 80 % power.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence

Z95 = 1.959963984540054  # the standard normal's 97.5th percentile
Z80 = 0.8416212335729143  # its 80th percentile (80 % power)
ALPHA = 0.05
SKEW_LIMIT = 1.0  # |sample skewness| above this: the bootstrap, not the normal interval
SMALL_SAMPLE = 30  # fewer values than this: the bootstrap too
RESAMPLES = 2000


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of successes / n (successes may be fractional: a shared
    win counts as a part); (0, 0) for an empty sample."""
    if n <= 0:
        return (0.0, 0.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n)))
    return (max(0.0, centre - half), min(1.0, centre + half))


def _moments(hist: Mapping[int, int]) -> tuple[int, float, float, float]:
    """n, mean, sample variance (n - 1) and sample skewness of a histogram."""
    n = sum(hist.values())
    mean = sum(v * k for v, k in hist.items()) / n
    m2 = sum(k * (v - mean) ** 2 for v, k in hist.items()) / n
    m3 = sum(k * (v - mean) ** 3 for v, k in hist.items()) / n
    var = m2 * n / (n - 1) if n > 1 else 0.0
    skew = m3 / m2**1.5 if m2 > 0 else 0.0
    return n, mean, var, skew


def mean_method(hist: Mapping[int, int]) -> str:
    """ "normal" for a large, roughly symmetric sample; "bootstrap" otherwise."""
    n = sum(hist.values())
    if n < 2:
        return "normal"
    _, _, var, skew = _moments(hist)
    if var == 0:
        return "normal"
    return "bootstrap" if n < SMALL_SAMPLE or abs(skew) > SKEW_LIMIT else "normal"


def mean_interval(hist: Mapping[int, int]) -> tuple[tuple[float, float], str]:
    """The 95 % interval of the mean of the sample the histogram holds, and its method."""
    n = sum(hist.values())
    if n == 0:
        return (0.0, 0.0), "normal"
    n, mean, var, _ = _moments(hist)
    method = mean_method(hist)
    if method == "normal":
        half = Z95 * math.sqrt(var / n)
        return (mean - half, mean + half), method
    return bootstrap_mean(hist), method


def bootstrap_mean(hist: Mapping[int, int], resamples: int = RESAMPLES) -> tuple[float, float]:
    """Percentile bootstrap of the mean (resampled as multinomial counts over the distinct
    values); the generator is seeded from the histogram, so the same sample always gives
    the same interval, whatever process merged it."""
    import numpy as np  # here, not above: a run with no bootstrap starts without numpy

    values = sorted(hist)
    counts = np.array([hist[v] for v in values], dtype=np.int64)
    n = int(counts.sum())
    digest = hashlib.sha256(repr([(v, hist[v]) for v in values]).encode()).digest()
    rng = np.random.Generator(np.random.PCG64(int.from_bytes(digest[:8], "little")))
    draws = rng.multinomial(n, counts / n, size=resamples)
    means = np.sort(draws @ np.array(values, dtype=np.float64) / n)
    lo = means[int(ALPHA / 2 * resamples)]
    hi = means[int((1 - ALPHA / 2) * resamples) - 1]
    return (float(lo), float(hi))


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def share_test(share: float, n: int, fair: float) -> float:
    """Two-sided p-value of a share against the fair share (z test, fair-share variance)."""
    if n <= 0 or fair <= 0 or fair >= 1:
        return 1.0
    z = (share - fair) / math.sqrt(fair * (1 - fair) / n)
    return 2 * normal_sf(abs(z))


def chi_square_sf(x: float, k: int) -> float:
    """P(X > x) for X chi-square with k degrees of freedom, in closed form: a finite sum
    for even k, the normal tail plus a finite sum for odd k."""
    if k < 1:
        raise ValueError("degrees of freedom must be at least 1")
    if x <= 0:
        return 1.0
    if k % 2 == 0:
        term = total = math.exp(-x / 2)
        for i in range(1, k // 2):
            term *= x / (2 * i)
            total += term
        return min(1.0, total)
    root = math.sqrt(x)
    total = 2 * normal_sf(root)
    term = math.sqrt(2 * x / math.pi) * math.exp(-x / 2)  # the i = 1 term
    for i in range(1, (k - 1) // 2 + 1):
        total += term
        term *= x / (2 * i + 1)
    return min(1.0, total)


def chi_square_test(counts: Sequence[float]) -> tuple[float, float]:
    """(statistic, p-value) of counts against equal expected counts (goodness of fit,
    len(counts) - 1 degrees of freedom)."""
    k = len(counts)
    total = sum(counts)
    if k < 2 or total <= 0:
        return 0.0, 1.0
    expected = total / k
    stat = sum((c - expected) ** 2 / expected for c in counts)
    return stat, chi_square_sf(stat, k - 1)


def games_to_detect(diff: float, fair: float) -> int:
    """Games needed to tell a share of fair + diff from the fair share: two-sided test at
    5 %, 80 % power (normal approximation)."""
    p1 = fair + diff
    if diff == 0 or not 0 < p1 < 1:
        raise ValueError("the difference must leave the share inside (0, 1)")
    top = Z95 * math.sqrt(fair * (1 - fair)) + Z80 * math.sqrt(p1 * (1 - p1))
    return math.ceil((top / diff) ** 2)
