"""Change points by E-divisive means with a permutation test (Matteson & James 2014, "A
nonparametric approach for multiple change point analysis of multivariate data", JASA 109).

For observations Z_1..Z_T the divergence of two samples X (size n) and Y (size m) is

  E(X, Y; a) = 2/(nm) sum |X_i - Y_j|^a - 1/C(n,2) sum_{i<k} |X_i - X_k|^a
               - 1/C(m,2) sum_{j<k} |Y_j - Y_k|^a,      0 < a < 2,

scaled to Q = nm/(n+m) E. A segment's change point is tau maximising Q(Z[0:tau], Z[tau:kappa])
over tau and kappa (kappa lets the right sample stop before a later change). Divisively: the
best split over all current segments becomes a change point if it is significant, judged by a
permutation test: the observations are permuted within each segment, the best statistic over
all segments is computed again R times, and p = (1 + #{Q_r >= Q}) / (R + 1). Splitting stops at
the first split with p > the significance level.

Sums of distances over index ranges come from a 2-D prefix sum of the distance matrix, so a
segment's every (tau, kappa) costs O(L^2) together, permutations included. The test stops early
once it cannot reject any more (enough permuted statistics already reach the observed one); the
decision is the full test's. Permutations are drawn from a generator seeded by the caller, so a
history gives the same change points every time.
"""
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

SIGNIFICANCE = 0.005  # p a split needs (with R = 199: no permuted Q may reach the observed one)
PERMUTATIONS = 199    # R
MIN_SIZE = 3          # runs on each side of a change point, at least
EXPONENT = 1.0        # a: the distance exponent (1: E-statistics of absolute differences)
# Permutations drawn at a time (sum: the most R used). Under no change the first permuted Q to
# reach the observed one comes after about H(R) = 6 draws on average; small blocks first stop
# there without drawing more.
_BLOCKS = (1, 1, 1, 1, 2, 2, 4, 4, 8, 16, 32, 64, 63)


@dataclass
class ChangePoint:
    index: int      # first run of the new segment (0-based position in the series)
    p: float        # permutation p-value
    q: float        # the E-statistic Q of the split


@lru_cache(maxsize=64)
def _coefficients(length, min_size):
    """Q over the (tau, kappa) grid is c*A1 - a*A2 - b*A3 with c = P[tau, kappa],
    a = P[tau, tau], b = P[kappa, kappa] (P: prefix sums of the distances); this returns the
    grids A1, A2, A3 (divided by kappa), the taus, the kappas and -inf where kappa - tau < m."""
    taus = np.arange(min_size, length - min_size + 1)
    kappas = np.arange(2 * min_size, length + 1)
    n1 = taus[:, None].astype(float)
    n2 = kappas[None, :] - n1
    valid = n2 >= min_size
    n2 = np.where(valid, n2, 2.0)  # keeps the arithmetic finite where the mask applies
    k = n1 + n2
    a1 = (2.0 + 2.0 * n1 / (n2 - 1.0)) / k
    a2 = (2.0 + n2 / (n1 - 1.0) + n1 / (n2 - 1.0)) / k
    a3 = (n1 / (n2 - 1.0)) / k
    mask = np.where(valid, 0.0, -np.inf)
    return a1, a2, a3, taus, kappas, mask


class _Workspace:
    """Buffers of one series length, reused by every evaluation (one row at a time keeps them
    in the CPU's cache: about 2.5 times faster than whole batches here)."""

    def __init__(self, length, min_size):
        self.coef = _coefficients(length, min_size)
        a1 = self.coef[0]
        self.dist = np.empty((length, length))          # distances, then their column sums
        self.prefix = np.zeros((length + 1, length + 1))  # P: 2-D prefix sums, zero-padded
        self.q = np.empty(a1.shape)                     # Q over the (tau, kappa) grid
        self.tmp = np.empty(a1.shape)


@lru_cache(maxsize=16)
def _workspace(length, min_size):
    return _Workspace(length, min_size)


def best_splits(samples, min_size=MIN_SIZE, exponent=EXPONENT):
    """For each row of samples (B x L): (Q, tau) of its best split; Q = -inf when L < 2 m."""
    samples = np.atleast_2d(np.asarray(samples, dtype=float))
    batch, length = samples.shape
    if length < 2 * min_size:
        return np.full(batch, -np.inf), np.zeros(batch, dtype=int)
    ws = _workspace(length, min_size)
    a1, a2, a3, taus, kappas, mask = ws.coef
    t0, t1, k0 = taus[0], taus[-1] + 1, kappas[0]
    d, p, q, tmp = ws.dist, ws.prefix, ws.q, ws.tmp
    best, where = np.empty(batch), np.empty(batch, dtype=int)
    for i, y in enumerate(samples):
        np.subtract.outer(y, y, out=d)
        np.abs(d, out=d)
        if exponent != 1.0:
            d **= exponent
        np.cumsum(d, axis=0, out=d)
        np.cumsum(d, axis=1, out=p[1:, 1:])
        diag = p.diagonal()
        np.multiply(p[t0:t1, k0:], a1, out=q)
        np.multiply(diag[t0:t1, None], a2, out=tmp)
        q -= tmp
        np.multiply(diag[None, k0:], a3, out=tmp)
        q -= tmp
        q += mask
        flat = int(q.argmax())
        best[i], where[i] = q.flat[flat], taus[flat // len(kappas)]
    return best, where


class _Segment:
    """A stretch [start, end) of the series between change points, its best split and the
    best split of each of its permutations drawn so far."""

    def __init__(self, values, start, end, rng, min_size, exponent):
        self.start, self.end = start, end       # the stretch of the series
        self.values = values[start:end]         # its observations
        self.rng = rng                          # the series' permutation generator
        self.min_size, self.exponent = min_size, exponent
        q, tau = best_splits(self.values, min_size, exponent)
        self.q, self.tau = float(q[0]), int(tau[0])  # the observed best split (Q -inf: none)
        self.permuted = np.empty(0)             # best Q of each permutation drawn so far

    def draw(self, upto):
        """Makes sure the first `upto` permutations' best statistics exist."""
        need = upto - len(self.permuted)
        if need <= 0:
            return
        if not np.isfinite(self.q):
            self.permuted = np.full(upto, -np.inf)
            return
        rows = self.rng.permuted(np.tile(self.values, (need, 1)), axis=1)
        q, _tau = best_splits(rows, self.min_size, self.exponent)
        self.permuted = np.concatenate([self.permuted, q])


def e_divisive(values, seed=0, significance=SIGNIFICANCE, permutations=PERMUTATIONS,
               min_size=MIN_SIZE, exponent=EXPONENT):
    """The change points of a series (a sequence of numbers), in index order."""
    x = np.asarray(values, dtype=float)
    if len(x) < 2 * min_size or np.all(x == x[0]):
        return []
    # Scale-free: the test is invariant to scale, the arithmetic is better conditioned near 1.
    scale = np.median(np.abs(x)) or 1.0
    x = x / scale
    rng = np.random.default_rng(seed)
    segments = [_Segment(x, 0, len(x), rng, min_size, exponent)]
    found = []
    # Stop as soon as this many permuted statistics reach the observed one: p > significance.
    give_up = int(np.floor(significance * (permutations + 1)))
    while True:
        best = max(segments, key=lambda s: s.q)
        if not np.isfinite(best.q):
            break
        drawn, reached = 0, 0
        for block in _BLOCKS:
            upto = min(drawn + block, permutations)
            for s in segments:
                s.draw(upto)
            replicate = np.max([s.permuted[drawn:upto] for s in segments], axis=0)
            reached += int(np.sum(replicate >= best.q))
            drawn = upto
            if reached >= give_up or drawn >= permutations:
                break
        p = (1 + reached) / (drawn + 1) if drawn < permutations else \
            (1 + reached) / (permutations + 1)
        if reached >= give_up or p > significance:
            break
        cut = best.start + best.tau
        found.append(ChangePoint(cut, p, best.q))
        segments.remove(best)
        segments += [_Segment(x, best.start, cut, rng, min_size, exponent),
                     _Segment(x, cut, best.end, rng, min_size, exponent)]
    return sorted(found, key=lambda c: c.index)
