"""Small, dependency-free statistics for benchmark samples.

Every function takes plain sequences of numbers and returns plain numbers, so that the
report, the charts and the tests all agree on one definition of each figure.
"""

import math
from dataclasses import dataclass


def median(values):
    return quantile(values, 0.5)


def quantile(values, fraction):
    """The `fraction` quantile with linear interpolation between closest ranks."""
    if not values:
        raise ValueError("quantile of no values")
    if not 0.0 <= fraction <= 1.0:
        raise ValueError("fraction must lie in [0, 1], got %r" % fraction)
    ordered = sorted(values)
    position = (len(ordered) - 1) * fraction
    lower = math.floor(position)
    upper = min(lower + 1, len(ordered) - 1)
    weight = position - lower
    return ordered[lower] * (1.0 - weight) + ordered[upper] * weight


def mean(values):
    if not values:
        raise ValueError("mean of no values")
    return math.fsum(values) / len(values)


def stdev(values):
    """Sample standard deviation (n - 1 in the denominator); 0 for fewer than two values."""
    if len(values) < 2:
        return 0.0
    centre = mean(values)
    return math.sqrt(math.fsum((v - centre) ** 2 for v in values) / (len(values) - 1))


def relative_stdev(values):
    """Standard deviation as a fraction of the mean (0.01 means 1%)."""
    centre = mean(values)
    return stdev(values) / centre if centre else 0.0


def geometric_mean(values):
    if not values:
        raise ValueError("geometric mean of no values")
    if any(v <= 0 for v in values):
        raise ValueError("geometric mean needs positive values")
    return math.exp(math.fsum(math.log(v) for v in values) / len(values))


def speedup(baseline, candidate):
    """How many times faster (or cheaper) `candidate` is than `baseline`: >1 is better."""
    if baseline <= 0 or candidate <= 0:
        raise ValueError("speedup needs positive measurements")
    return baseline / candidate


@dataclass(frozen=True)
class Summary:
    """The figures reported for one interpreter on one benchmark."""

    count: int
    median: float
    minimum: float
    maximum: float
    q1: float
    q3: float
    mean: float
    relative_stdev: float

    @classmethod
    def of(cls, values):
        return cls(
            count=len(values),
            median=median(values),
            minimum=min(values),
            maximum=max(values),
            q1=quantile(values, 0.25),
            q3=quantile(values, 0.75),
            mean=mean(values),
            relative_stdev=relative_stdev(values),
        )


def speedup_range(baseline, candidate):
    """Median speedup with a conservative interval from the interquartile ranges.

    The low end pairs the fastest quarter of the baseline with the slowest quarter of the
    candidate, the high end the other way round.  Returns (low, median, high).
    """
    return (
        speedup(baseline.q1, candidate.q3),
        speedup(baseline.median, candidate.median),
        speedup(baseline.q3, candidate.q1),
    )
