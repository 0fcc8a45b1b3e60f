"""Statistics: what a ranking word in a report must pass, and the words it then allows.

A ranking word ("fastest", "ahead of") needs repetitions on both sides, a two-sided Mann-Whitney
U p <= RANK_ALPHA and apart intervals of the medians (distribution-free, from order statistics).
"""
import math

from sbtools.fmt import us

CI_LEVEL = 0.95     # confidence of the interval of a median
RANK_ALPHA = 0.01   # two-sided Mann-Whitney U p a ranking word needs (tools/compare's alpha too)


def geomean(values):
    vals = [v for v in values if v and v > 0]
    if not vals:
        return None
    return math.exp(sum(math.log(v) for v in vals) / len(vals))


def median_ci(samples, level=CI_LEVEL):
    """Distribution-free interval of the median from order statistics: (lo, hi, coverage).

    [x_(k), x_(n+1-k)] covers the median with probability 1 - 2 P(B <= k-1), B ~ binomial(n, 1/2);
    the narrowest one reaching `level` is returned. When even [min, max] covers less (n <= 5 for
    95%) it is returned with its lower coverage (the caller says so); None for n < 2."""
    xs = sorted(samples)
    n = len(xs)
    if n < 2:
        return None
    best = (xs[0], xs[-1], 1 - 2 * 0.5 ** n)
    tail = 0.0
    for k in range(1, n // 2 + 1):
        tail += math.comb(n, k - 1) * 0.5 ** n   # P(B <= k-1)
        coverage = 1 - 2 * tail
        if coverage < level:
            break
        best = (xs[k - 1], xs[n - k], coverage)
    return best


def min_ci_n(level=CI_LEVEL):
    """The fewest samples whose [min, max] reaches `level` as an interval of the median."""
    n = 2
    while 1 - 2 * 0.5 ** n < level:
        n += 1
    return n


def mann_whitney_p(a, b):
    """Two-sided Mann-Whitney U p of two samples (scipy): exact without ties up to 50 values (9
    against 9 reach 4e-5, the normal approximation only 3e-4, too little for Benjamini-Hochberg
    over hundreds of benchmarks), the normal approximation otherwise; 1.0 when every value is
    the same."""
    from scipy.stats import mannwhitneyu  # only the statistics need scipy
    values = list(a) + list(b)
    if len(set(values)) <= 1:
        return 1.0
    exact = len(set(values)) == len(values) and len(values) <= 50
    return float(mannwhitneyu(a, b, alternative="two-sided",
                              method="exact" if exact else "asymptotic").pvalue)


def separated(a, b, alpha=RANK_ALPHA):
    """(apart, p) for two Results: apart when both have repetitions, Mann-Whitney p <= alpha
    and their median intervals (median_ci) do not overlap."""
    ca, cb = median_ci(a.times), median_ci(b.times)
    if ca is None or cb is None:
        return False, None
    p = mann_whitney_p(a.times, b.times)
    return p <= alpha and (ca[1] < cb[0] or cb[1] < ca[0]), p


class Ranking:
    """Candidates ordered by median time, and what the statistics allow a report to say.
    decided(leader, label) -> (apart, p) or None: a sequential test's decision where one was
    made (the rounds until decided, sbtools.rounds), which then replaces separated()."""

    def __init__(self, candidates, decided=None):
        self.decided = decided   # kept for a Ranking of a subset (report.answer: right answers)
        self.order = sorted(candidates.items(), key=lambda kv: kv[1].time)  # [(label, Result)]
        self.leader = self.order[0][0] if self.order else None              # lowest median
        lead = self.order[0][1] if self.order else None
        self.repeated = bool(self.order) and all(r.reps >= 2 for _l, r in self.order)
        self.apart = {}   # label -> (apart from the leader, p)
        for label, r in self.order[1:]:
            verdict = decided(self.leader, label) if decided else None
            self.apart[label] = verdict if verdict is not None else separated(lead, r)
        # The leader and every candidate the statistics cannot tell from it.
        self.tied = [self.leader] + [l for l, _r in self.order[1:] if not self.apart[l][0]] \
            if self.order else []

    @property
    def clear(self):
        """True when the leader is ahead of every other candidate (a ranking word is allowed)."""
        return self.repeated and len(self.order) >= 2 and len(self.tied) == 1

    def result(self, label):
        return dict(self.order)[label]


# --- the words ------------------------------------------------------------------------------

def ci_text(r):
    """'median [lo, hi]' in µs for a repeated Result, the median alone otherwise."""
    ci = median_ci(r.times) if r is not None else None
    if ci is None:
        return us(r.time) if r is not None else "–"
    return f"{us(r.time)} [{us(ci[0])}, {us(ci[1])}]"


def claim(rk, label=lambda l: f"`{l}`"):
    """What a Ranking allows the prose to say: a ranking word only when clear."""
    if not rk.order:
        return "no results"
    if len(rk.order) == 1:
        return f"{label(rk.leader)} (the only one measured)"
    if not rk.repeated:
        once = [l for l, r in rk.order if r.reps < 2]
        return (f"not ranked ({len(once)} of {len(rk.order)} ran once: noise unknown; lowest "
                f"median {label(rk.leader)})")
    if rk.clear:
        second, r2 = rk.order[1]
        p = rk.apart[second][1]
        return (f"{label(rk.leader)} fastest, {r2.time / rk.result(rk.leader).time:.2f}× ahead "
                f"of {label(second)} (p = {p:.3g})")
    return "tied within noise: " + ", ".join(label(l) for l in rk.tied)


RULE = ("a ranking word only where a two-sided Mann-Whitney U test gives p ≤ "
        f"{RANK_ALPHA:g} and the intervals of the medians are apart; see "
        "[Statistics](#statistics)")
