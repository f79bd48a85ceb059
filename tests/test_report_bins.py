"""Report histograms: one bar per value for short spans, equal bins for wide ones."""

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from pnp.sim.report import MAX_BARS, bins


def test_short_span_is_one_bar_per_value():
    starts, heights, width = bins({3: 2, 5: 1, 4: 7})
    assert (starts, heights, width) == ([3, 4, 5], [2, 7, 1], 1)


def test_wide_span_is_binned():
    # Desert Home-like: rounds from 20 to 1,000, one game each
    hist = Counter(range(20, 1001))
    starts, heights, width = bins(hist)
    assert len(starts) <= MAX_BARS
    assert width == 25  # 981 values / 40 bars, rounded up
    assert starts[0] == 20 and starts[1] == 45
    assert heights[0] == 25


@given(st.dictionaries(st.integers(0, 5000), st.integers(1, 1000), min_size=1, max_size=200))
def test_bins_keep_every_game_and_stay_few(hist):
    starts, heights, width = bins(hist)
    assert sum(heights) == sum(hist.values())
    assert len(starts) <= MAX_BARS
    for value in hist:  # each value falls in the bin that starts at or below it
        start = max(s for s in starts if s <= value)
        assert value < start + width
