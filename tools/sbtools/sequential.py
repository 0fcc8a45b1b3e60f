"""Sequential decisions for many comparisons at once: "same", "different" (the shift with its
interval) or "undecided", after every round, with error rates that hold however often one looks
and over the whole family of comparisons.

Who uses it: `tools/track ab` (a base build against a head build, round after round) and the
report's repetitions until decided. Samples arrive round by round: per comparison and round one
paired log ratio d = log(head / base), both sides measured in that round. After each round every
open comparison is decided or stays open; the caller stops measuring what is decided and stops
altogether at its budget (Family.open() says what is left; nothing here knows about time).

The test is a confidence sequence for the median mu of each comparison's d: intervals that
hold at every round at once, P(some round's interval misses mu) <= alpha_k, so deciding at the
first round the interval allows is as sound as deciding at a fixed round. It is the sign
process S_t = sum(1{d_i > mu} - 1/2), whose steps lie in an interval of length 1 (Hoeffding:
1/4-sub-Gaussian, V_t = t/4), bounded for all t at once by the two-sided normal-mixture
boundary (Robbins 1970; Howard, Ramdas, McAuliffe and Sekhon, "Time-uniform, nonparametric,
nonasymptotic confidence sequences", Annals of Statistics 49(2), 2021, eq. (14) and (15)):
|S_t| < sqrt(2 (V_t + rho) log(sqrt((V_t + rho) / rho) / alpha_k)). Inverted, the interval lies
between two order statistics of the d's (Howard and Ramdas, "Sequential estimation of quantiles
with applications to A/B-testing and best-arm identification", Bernoulli 28(3), 2022).
Distribution-free: one wild round moves it by one rank. (The self-normalized mean, de la
Pena's S = sum(d - mu), V = sum((d - mu)^2), is as valid for symmetric d and was tried: on this
machine's rounds, with their heavy tails, it needed more rounds for every shift measured.)

It is valid when each d_i lies above mu with probability 1/2 given the past. Why that holds for
an A/B: base and head of a round run in an order (or on CPUs) drawn by a fair coin. When head
is base (A/A), d = +/-(second - first) with the sign that coin's, so d is above 0 with
probability 1/2 given everything before, whatever the machine does (load, drift, heavy tails):
the false-alarm rate is exact by randomization. When head is base slowed by a factor 1 + s,
d - log(1 + s) is symmetric the same way and the interval covers log(1 + s). For two benchmarks
of one run (the report's comparisons) nothing is randomized: there it is an assumption (rounds
independent, each ratio's median its centre).

Decisions, with margin m (a fraction; the equivalence margin of "same"):
  same       the interval lies within +/-log(1 + m): any shift is smaller than the margin;
  different  otherwise, the interval excludes 0: the shift is exp(median of the d's) - 1, its
             interval the sequence's;
  undecided  neither yet.
A decision is final: the comparison stops at the round that decided it (a stopping time).

Multiplicity: the family's alpha is split over its comparisons (Bonferroni; weights give the
pre-declared headline comparisons a larger share). With probability at least 1 - alpha every
interval of every comparison covers its centre at every round, so every "same" and every
"different" the family states is right together, under any dependence between comparisons.
The price is logarithmic: the rounds a shift needs grow with log(1 / alpha_k), so 4,869
benchmarks x 2 metrics (alpha_k = 1e-6) need about 1.6 times the rounds of 30 x 2 (1.7e-4) and 3
times those of a lone comparison at 0.01. A fixed sample cannot pay it at all (9 + 9 runs:
smallest exact Mann-Whitney p 4.1e-5, above the 2.1e-6 Benjamini-Hochberg needs for one
regression among 4,869); a sequence samples until its p (Decision.p, always valid: 1 / the
largest mixture martingale seen at 0) is small enough.

The API (all a caller needs):

    fam = Family(keys, alpha=0.01, margin=0.02, weights=None)   # keys declared up front
    while fam.open() and budget_left():                          # what is still undecided
        for key in fam.open():
            fam.add(key, base_value, head_value)                 # or add_log_ratio(key, d)
    for d in fam.decisions():   # Decision: key, state, shift, low, high, rounds, p, alpha
        ...
    fam.fewest_rounds(key)      # rounds before any decision is possible (for a plan)
"""
import bisect
import math
from dataclasses import dataclass, field

ROUNDS_OPT = 40      # the boundary is tightest around this many rounds (any choice is valid)


def mixture_rho(v_opt, alpha):
    """The mixture's rho that makes the boundary tightest at intrinsic time v_opt (Howard et
    al. 2021, eq. (15))."""
    two_log = 2 * math.log(1 / alpha)
    return v_opt / (two_log + math.log(1 + two_log))


def log_mixture(s, v, rho):
    """Log of the two-sided normal-mixture martingale at (S, V): sqrt(rho / (V + rho)) *
    exp(S^2 / (2 (V + rho))). Above log(1 / alpha) the boundary is crossed."""
    return 0.5 * math.log(rho / (v + rho)) + s * s / (2 * (v + rho))


def boundary(v, rho, alpha):
    """The two-sided normal-mixture boundary at intrinsic time v."""
    return math.sqrt(2 * (v + rho) * math.log(math.sqrt((v + rho) / rho) / alpha))


def sign_interval(xs, alpha, rho):
    """(low, high) of the median of the sorted values xs from the sign process, by order
    statistics; -inf/inf where no order statistic bounds it yet."""
    t = len(xs)
    u = boundary(t / 4, rho, alpha)
    k = math.ceil(t / 2 - u)        # the median is at least the k-th smallest
    j = math.floor(t / 2 + u)       # and below the (j+1)-th
    low = xs[k - 1] if k >= 1 else -math.inf
    high = xs[j] if j < t else math.inf
    return low, high


@dataclass
class Decision:
    key: object
    state: str = "undecided"   # same, different, undecided
    shift: float = None        # exp(centre) - 1: 0.05 = head 5% above base
    low: float = None          # the interval of the shift at alpha_k (None: unbounded)
    high: float = None
    rounds: int = 0            # rounds seen (at the decision, when decided)
    p: float = 1.0             # always-valid p against "no shift"
    alpha: float = None        # this comparison's share of the family's alpha

    def as_dict(self):
        return {"key": self.key if isinstance(self.key, (str, int)) else list(self.key),
                "state": self.state, "shift": self.shift, "low": self.low, "high": self.high,
                "rounds": self.rounds, "p": self.p, "alpha": self.alpha}


@dataclass
class Comparison:
    decision: Decision
    rho: float
    sorted_ds: list = field(default_factory=list)   # the log ratios so far, sorted
    signs: float = 0.0         # sum of sign(d) / 2: S at mu = 0
    best: float = 0.0          # the largest log mixture at 0 so far (for p)


class Family:
    """Comparisons decided together. keys: the comparisons, declared before the first round
    (their number splits alpha); weights: {key: weight} for a larger share (default 1 each)."""

    def __init__(self, keys, alpha=0.01, margin=0.02, weights=None, rounds_opt=ROUNDS_OPT):
        if not 0 < alpha < 1 or not 0 < margin < 1:
            raise ValueError("alpha and margin must lie between 0 and 1")
        keys = list(keys)
        if len(set(keys)) != len(keys):
            raise ValueError("comparison keys must be distinct")
        weights = weights or {}
        total = sum(weights.get(k, 1.0) for k in keys)
        self.alpha, self.margin = alpha, margin
        self.comparisons = {}
        for k in keys:
            a = alpha * weights.get(k, 1.0) / total
            self.comparisons[k] = Comparison(Decision(k, alpha=a), mixture_rho(rounds_opt / 4, a))

    def add(self, key, base, head):
        """One round's pair of values (both positive) for a comparison."""
        if not (base > 0 and head > 0):
            raise ValueError(f"{key}: values must be positive ({base}, {head})")
        self.add_log_ratio(key, math.log(head / base))

    def add_log_ratio(self, key, d):
        """One round's log ratio for a comparison; ignored once it is decided."""
        c = self.comparisons[key]
        if c.decision.state != "undecided":
            return
        if not math.isfinite(d):
            raise ValueError(f"{key}: log ratio {d} is not finite")
        bisect.insort(c.sorted_ds, d)
        c.signs += 0.5 if d > 0 else -0.5 if d < 0 else 0.0
        self._update(c)

    def add_round(self, pairs):
        """{key: (base, head)} of one round."""
        for key, (base, head) in pairs.items():
            self.add(key, base, head)

    def _update(self, c):
        dec, xs, n = c.decision, c.sorted_ds, len(c.sorted_ds)
        dec.rounds = n
        low, high = sign_interval(xs, dec.alpha, c.rho)
        centre = xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2
        c.best = max(c.best, log_mixture(c.signs, n / 4, c.rho))
        dec.p = min(1.0, math.exp(-c.best))
        centre = min(max(centre, low), high)
        dec.shift = math.expm1(centre)
        dec.low = math.expm1(low) if low > -math.inf else None
        dec.high = math.expm1(high) if high < math.inf else None
        edge = math.log1p(self.margin)
        if -edge < low and high < edge:
            dec.state = "same"
        elif low > 0 or high < 0:
            dec.state = "different"

    def decision(self, key):
        return self.comparisons[key].decision

    def decisions(self):
        return [c.decision for c in self.comparisons.values()]

    def open(self):
        """The comparisons still undecided, in declaration order."""
        return [k for k, c in self.comparisons.items() if c.decision.state == "undecided"]

    def fewest_rounds(self, key):
        """The fewest rounds after which this comparison can be decided at all (every d on one
        side): what its share of alpha costs before any evidence counts."""
        c = self.comparisons[key]
        t = 1
        while log_mixture(t / 2, t / 4, c.rho) < math.log(1 / c.decision.alpha):
            t += 1
        return t
