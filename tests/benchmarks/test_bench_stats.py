"""Statistics used by every report: known values computed by hand."""

import math

import pytest

from benchmarks import stats


def test_median_of_odd_and_even_counts():
    assert stats.median([5, 1, 3]) == 3
    assert stats.median([4, 1, 3, 2]) == 2.5
    assert stats.median([7]) == 7


def test_quantiles_interpolate_between_ranks():
    values = [10, 20, 30, 40, 50]
    assert stats.quantile(values, 0.0) == 10
    assert stats.quantile(values, 1.0) == 50
    assert stats.quantile(values, 0.25) == 20
    assert stats.quantile([1, 2], 0.25) == pytest.approx(1.25)


def test_quantile_rejects_bad_input():
    with pytest.raises(ValueError):
        stats.quantile([], 0.5)
    with pytest.raises(ValueError):
        stats.quantile([1, 2], 1.5)


def test_standard_deviation_uses_n_minus_one():
    # mean 5; squared deviations 9 + 1 + 1 + 9 = 20; 20 / 3
    assert stats.stdev([2, 4, 6, 8]) == pytest.approx(math.sqrt(20 / 3))
    assert stats.stdev([3]) == 0.0
    assert stats.relative_stdev([2, 4, 6, 8]) == pytest.approx(math.sqrt(20 / 3) / 5)
    assert stats.relative_stdev([9, 9, 9]) == 0.0


def test_geometric_mean():
    assert stats.geometric_mean([1, 4]) == pytest.approx(2)
    assert stats.geometric_mean([2, 0.5, 3, 1 / 3]) == pytest.approx(1)
    assert stats.geometric_mean([1.1] * 5) == pytest.approx(1.1)
    with pytest.raises(ValueError):
        stats.geometric_mean([1, 0])
    with pytest.raises(ValueError):
        stats.geometric_mean([])


def test_speedup_is_baseline_over_candidate():
    assert stats.speedup(200, 100) == 2.0      # candidate takes half the time
    assert stats.speedup(100, 125) == 0.8      # candidate is slower
    with pytest.raises(ValueError):
        stats.speedup(0, 1)


def test_summary_and_speedup_range():
    baseline = stats.Summary.of([100, 102, 98, 101, 99])
    assert (baseline.count, baseline.median, baseline.minimum, baseline.maximum) == (5, 100, 98, 102)
    assert (baseline.q1, baseline.q3) == (99, 101)
    candidate = stats.Summary.of([50, 51, 49, 50, 50])
    low, middle, high = stats.speedup_range(baseline, candidate)
    assert middle == 2.0
    assert low == pytest.approx(99 / 50) and high == pytest.approx(101 / 50)
    assert low <= middle <= high
