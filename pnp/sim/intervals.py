"""Interval statistics for simulation figures: pure functions (no scipy; numpy only for
the bootstrap's resampling).

- `wilson`: the 95 % Wilson score interval of a share (stays inside [0, 1] and behaves at
  0 and 1 successes, unlike the normal approximation).
- `mean_interval`: a 95 % interval of a mean from a histogram of whole numbers: Student's
  t (``"t"``) below 30 values, where a percentile bootstrap covers only 81-90 % of the
  time; from 30 values the normal approximation (``"normal"``), or a percentile bootstrap
  (``"bootstrap"``, its resampling seeded from the histogram itself, so deterministic) when
  the sample is strongly skewed, where the normal interval would be misplaced. One value
  gives no interval (``"n/a"``). `tests/test_interval_coverage.py` measures each method's
  coverage on samples drawn from known laws.
- `share_test` / `chi_square_test`: is seat 1's share the fair 1/players (two-sided z
  test), are all seats equal together (chi-square goodness of fit, with its survival
  function computed in closed form)?
- `games_to_detect`: games needed to detect a difference of a share from the fair share,
  two-sided at 5 %, with 80 % power.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence

Z95 = 1.959963984540054  # the standard normal's 97.5th percentile
Z80 = 0.8416212335729143  # its 80th percentile (80 % power)
ALPHA = 0.05
SKEW_LIMIT = 1.0  # |sample skewness| above this: the bootstrap, not the normal interval
SMALL_SAMPLE = 30  # fewer values than this: Student's t
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
    """How `mean_interval` makes the interval of this sample: "n/a" for fewer than two
    values, "t" for a small sample, "normal" for a large, roughly symmetric one, else
    "bootstrap"."""
    n = sum(hist.values())
    if n < 2:
        return "n/a"
    if n < SMALL_SAMPLE:
        return "t"
    _, _, var, skew = _moments(hist)
    if var == 0:
        return "normal"
    return "bootstrap" if abs(skew) > SKEW_LIMIT else "normal"


def mean_interval(hist: Mapping[int, int]) -> tuple[tuple[float, float] | None, str]:
    """The 95 % interval of the mean of the sample the histogram holds, and its method;
    None (method "n/a") when the sample cannot give one (fewer than two values)."""
    method = mean_method(hist)
    if method == "n/a":
        return None, method
    n, mean, var, _ = _moments(hist)
    if method == "bootstrap":
        return bootstrap_mean(hist), method
    z = t_quantile(n - 1) if method == "t" else Z95
    half = z * math.sqrt(var / n)
    return (mean - half, mean + half), method


@functools.cache
def t_quantile(df: int, tail: float = ALPHA / 2) -> float:
    """The value Student's t with `df` degrees of freedom exceeds with probability `tail`
    (12.706 for df 1, 2.045 for df 29 at the default 2.5 %), by bisection on `t_sf`."""
    lo, hi = 0.0, 1e4
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_sf(mid, df) > tail:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def t_sf(t: float, df: int) -> float:
    """P(T > t) for t >= 0, T Student's t with `df` degrees of freedom: half the
    regularized incomplete beta function I(df / (df + t^2); df / 2, 1 / 2)."""
    return 0.5 * _incomplete_beta(df / 2, 0.5, df / (df + t * t))


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction
    (Lentz's method), on the side of x where it converges fast."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    tiny = 1e-300

    def nz(v: float) -> float:
        return v if abs(v) > tiny else tiny

    c, d = 1.0, 1 / nz(1 - (a + b) * x / (a + 1))
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        even = m * (b - m) * x / ((a - 1 + m2) * (a + m2))
        d = 1 / nz(1 + even * d)
        c = nz(1 + even / c)
        h *= d * c
        odd = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2))
        d = 1 / nz(1 + odd * d)
        c = nz(1 + odd / c)
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def bootstrap_mean(hist: Mapping[int, int], resamples: int = RESAMPLES) -> tuple[float, float]:
    """Percentile bootstrap of the mean (resampled as multinomial counts over the distinct
    values); the generator is seeded from the histogram, so the same sample always gives
    the same interval, whatever process merged it."""
    import hashlib  # here, not above: a run with no bootstrap starts without OpenSSL's

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
