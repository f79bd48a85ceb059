"""Interval statistics for simulation figures: pure functions (no scipy, no numpy).

- `wilson`: the 95 % Wilson score interval of a share (stays inside [0, 1] and behaves at
  0 and 1 successes, unlike the normal approximation).
- `mean_interval`: a 95 % interval of the mean of whole numbers >= 0 (a game's length, a
  counter) from their histogram: a gamma interval (``"gamma"``) that stays in [0, inf)
  and follows a skewed or zero-inflated sample; none (``"n/a"``) below 5 games or when
  every value is the same. `tests/test_interval_coverage.py` measures its coverage on
  skewed and zero-inflated laws: at least 93 % from 5 games.
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
MIN_MEAN_GAMES = 5  # fewer games than this: no interval of a mean ("interval n/a")
VARIANCE_BOUND = 0.2  # the sample variance is raised to its upper 1 - this bound


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


def _moments(hist: Mapping[int, int]) -> tuple[int, float, float]:
    """n, mean and sample variance (n - 1) of a histogram."""
    n = sum(hist.values())
    mean = sum(v * k for v, k in hist.items()) / n
    m2 = sum(k * (v - mean) ** 2 for v, k in hist.items()) / n
    var = m2 * n / (n - 1) if n > 1 else 0.0
    return n, mean, var


def mean_method(hist: Mapping[int, int]) -> str:
    """How `mean_interval` makes the interval of this sample: "gamma", or "n/a" for fewer
    than `MIN_MEAN_GAMES` values, or values that are all the same (no spread to read)."""
    n = sum(hist.values())
    if n < MIN_MEAN_GAMES or sum(1 for k in hist.values() if k) < 2:
        return "n/a"
    return "gamma"


def mean_interval(hist: Mapping[int, int]) -> tuple[tuple[float, float] | None, str]:
    """The 95 % interval of the mean of a sample of whole numbers >= 0 (turns, counters),
    and its method; None (method "n/a") where `mean_method` says no interval can be read.

    The mean is taken to follow a gamma law with the sample's mean and the variance of a
    mean, the sample variance raised to its 80 % upper bound (chi-square, n - 1 degrees of
    freedom), at the tail Student's t puts at n - 1 degrees of freedom; the upper end takes
    one more unit of shape (as Garwood's Poisson interval does). The gamma's long right
    tail follows a skewed or zero-inflated count where a symmetric interval falls short,
    the interval never goes below 0, and for a large sample it is the normal one."""
    method = mean_method(hist)
    if method == "n/a":
        return None, method
    n, mean, var = _moments(hist)
    var *= (n - 1) / chi_square_quantile(VARIANCE_BOUND, n - 1)
    tail = 2 * normal_sf(t_quantile(n - 1))
    scale = var / (n * mean)  # the gamma of the mean: shape * scale = mean
    shape = mean / scale
    lo = gamma_quantile(tail / 2, shape) * scale
    hi = gamma_quantile(1 - tail / 2, shape + 1) * scale
    return (lo, hi), method


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


def gamma_cdf(x: float, shape: float) -> float:
    """P(X <= x) for X gamma with this shape and scale 1: the regularized lower incomplete
    gamma function, by its series below shape + 1 and its continued fraction above."""
    if x <= 0:
        return 0.0
    log_front = shape * math.log(x) - x - math.lgamma(shape)
    if x < shape + 1:
        term = total = 1 / shape
        a = shape
        for _ in range(100_000):
            a += 1
            term *= x / a
            total += term
            if term < total * 1e-15:
                break
        return min(1.0, total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - shape
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - shape)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return max(0.0, 1 - math.exp(log_front) * h)


@functools.lru_cache(maxsize=4096)
def gamma_quantile(p: float, shape: float) -> float:
    """The x with P(X <= x) = p for X gamma with this shape and scale 1, by bisection
    (on a log scale: a small shape puts the quantile near 0). A very large shape is all
    but normal: Wilson and Hilferty's cube-root approximation, exact to 1e-5."""
    if shape > LARGE_SHAPE:
        z = -_normal_quantile_upper(p)
        c = 1 / (9 * shape)
        return shape * (1 - c + z * math.sqrt(c)) ** 3
    lo, hi = math.log(1e-300), math.log(shape + 50 * math.sqrt(shape) + 100)
    for _ in range(200):
        mid = (lo + hi) / 2
        if gamma_cdf(math.exp(mid), shape) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return math.exp((lo + hi) / 2)


LARGE_SHAPE = 1e5


def chi_square_quantile(p: float, df: int) -> float:
    """The value chi-square with `df` degrees of freedom stays below with probability p."""
    return 2 * gamma_quantile(p, df / 2)


def _normal_quantile_upper(tail: float) -> float:
    """The z a standard normal exceeds with probability `tail`, by bisection on `normal_sf`."""
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if normal_sf(mid) > tail:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2
