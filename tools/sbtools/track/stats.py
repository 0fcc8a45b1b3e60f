"""The statistics the tracker states: the Hodges-Lehmann shift with its distribution-free
interval, the Mann-Whitney p (sbtools.stats'), Benjamini-Hochberg over many benchmarks, the noise floor a series
learns from its own history, and the noise band drawn around it.

Shifts are relative (head / base - 1) and estimated on logarithms: a timing moves by a factor,
and the Hodges-Lehmann estimate of log ratios is symmetric in which side is the base."""
import math
from statistics import NormalDist, median  # noqa: F401  (the tracker's median is the stdlib's)

from sbtools.stats import mann_whitney_p  # noqa: F401  (the one Mann-Whitney test)

LEVEL = 0.95          # confidence of every interval stated
FLOOR_WINDOW = 100    # the noise floor looks at the last this many changes (as rustc-perf does)
FLOOR_IQRS = 3.0      # and puts it at Q3 + 3 IQR of their sizes


def quantile(values, q):
    """Linear interpolation between order statistics (numpy's default), for sorted input."""
    xs = sorted(values)
    if not xs:
        return None
    pos = (len(xs) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def hodges_lehmann(base, head, level=LEVEL):
    """(shift, low, high): the relative shift of head over base (0.05 = 5% higher), the median of
    all pairwise log ratios, with the interval of Moses (order statistics of those ratios at the
    Mann-Whitney critical count, normal approximation). None without positive values."""
    a = [math.log(v) for v in base if v > 0]
    b = [math.log(v) for v in head if v > 0]
    if not a or not b:
        return None
    diffs = sorted(y - x for x in a for y in b)
    n, m = len(a), len(b)
    est = median(diffs)
    z = NormalDist().inv_cdf(0.5 + level / 2)
    k = int(math.floor(n * m / 2 - z * math.sqrt(n * m * (n + m + 1) / 12)))
    k = max(k, 0)
    lo, hi = diffs[k], diffs[len(diffs) - 1 - k]
    return math.expm1(est), math.expm1(lo), math.expm1(hi)


def benjamini_hochberg(pvalues, q):
    """Which hypotheses Benjamini-Hochberg rejects at false discovery rate q, and the adjusted p
    of each (same order as given)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, pvalues[i] * m / rank)
        adjusted[i] = running
    return [a <= q for a in adjusted], adjusted


def noise_floor(values):
    """A series' own noise: Q3 + 3 IQR of the relative changes between consecutive values over
    its last FLOOR_WINDOW changes (rustc-perf's significance threshold); 0.0 with fewer than 4
    changes to learn from."""
    changes = [abs(b / a - 1) for a, b in zip(values, values[1:]) if a > 0]
    changes = changes[-FLOOR_WINDOW:]
    if len(changes) < 4:
        return 0.0
    q1, q3 = quantile(changes, 0.25), quantile(changes, 0.75)
    return q3 + FLOOR_IQRS * (q3 - q1)


def band(values):
    """The noise band of a stretch of a series: Tukey's fences (Q1 - 1.5 IQR, Q3 + 1.5 IQR)
    clipped to the values seen, so one outlier does not widen it."""
    q1, q3 = quantile(values, 0.25), quantile(values, 0.75)
    iqr = q3 - q1
    return max(min(values), q1 - 1.5 * iqr), min(max(values), q3 + 1.5 * iqr)
