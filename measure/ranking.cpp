#include "measure/ranking.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

namespace sb::bench {

namespace {

// Average ranks (1-based) of `values`, ties sharing their mean rank; `tie_term` gets
// sum(t^3 - t) over the groups of t tied values.
std::vector<double> ranks(const std::vector<double>& values, double* tie_term) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](auto x, auto y) { return values[x] < values[y]; });
  std::vector<double> r(values.size());
  *tie_term = 0;
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]]) ++j;
    const double t = static_cast<double>(j - i + 1);
    for (std::size_t k = i; k <= j; ++k) r[order[k]] = (static_cast<double>(i + j) + 2) / 2;
    *tie_term += t * t * t - t;
    i = j + 1;
  }
  return r;
}

// P(U >= u) for U of samples of n1 and n2 values without ties: the exact distribution, counted
// (the number of arrangements with each U, by the usual recursion on the largest value).
double exact_sf(std::int64_t u, int n1, int n2) {
  const int max_u = n1 * n2;
  // ways[i][j][s]: arrangements of i and j values with statistic s; built up row by row.
  std::vector<std::vector<std::vector<double>>> ways(
      n1 + 1, std::vector<std::vector<double>>(n2 + 1, std::vector<double>(max_u + 1, 0.0)));
  for (int i = 0; i <= n1; ++i) {
    for (int j = 0; j <= n2; ++j) {
      if (i == 0 || j == 0) {
        ways[i][j][0] = 1;
        continue;
      }
      for (int s = 0; s <= i * j; ++s) {
        // The largest value is from the first sample (it beats all j others) or the second.
        ways[i][j][s] = (s >= j ? ways[i - 1][j][s - j] : 0.0) + ways[i][j - 1][s];
      }
    }
  }
  double total = 0, tail = 0;
  for (int s = 0; s <= max_u; ++s) {
    total += ways[n1][n2][s];
    if (s >= u) tail += ways[n1][n2][s];
  }
  return tail / total;
}

}  // namespace

double median(std::vector<double> s) {
  std::sort(s.begin(), s.end());
  const std::size_t n = s.size();
  return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

std::optional<Interval> median_ci(std::span<const double> samples, double level) {
  std::vector<double> xs(samples.begin(), samples.end());
  std::sort(xs.begin(), xs.end());
  const std::size_t n = xs.size();
  if (n < 2) return std::nullopt;
  const double half_n = std::pow(0.5, static_cast<double>(n));
  Interval best{xs.front(), xs.back(), 1 - 2 * half_n};
  double tail = 0;
  double comb = 1;  // C(n, k-1), starting at C(n, 0)
  for (std::size_t k = 1; k <= n / 2; ++k) {
    tail += comb * half_n;  // P(B <= k-1)
    comb = comb * static_cast<double>(n - (k - 1)) / static_cast<double>(k);
    const double coverage = 1 - 2 * tail;
    if (coverage < level) break;
    best = {xs[k - 1], xs[n - k], coverage};
  }
  return best;
}

double mann_whitney_p(std::span<const double> a, std::span<const double> b) {
  const int n1 = static_cast<int>(a.size()), n2 = static_cast<int>(b.size());
  std::vector<double> all(a.begin(), a.end());
  all.insert(all.end(), b.begin(), b.end());
  if (std::all_of(all.begin(), all.end(), [&](double v) { return v == all.front(); })) return 1.0;
  double tie_term = 0;
  const std::vector<double> r = ranks(all, &tie_term);
  const double r1 = std::accumulate(r.begin(), r.begin() + n1, 0.0);
  const double u1 = r1 - n1 * (n1 + 1) / 2.0;
  const double u = std::max(u1, static_cast<double>(n1) * n2 - u1);
  double p = 0;
  if ((n1 <= 8 || n2 <= 8) && tie_term == 0) {
    p = exact_sf(static_cast<std::int64_t>(u), n1, n2);
  } else {
    const double n = n1 + n2;
    const double s = std::sqrt(n1 * n2 / 12.0 * ((n + 1) - tie_term / (n * (n - 1))));
    const double z = (u - n1 * n2 / 2.0 - 0.5) / s;
    p = 0.5 * std::erfc(z / std::sqrt(2.0));
  }
  return std::clamp(2 * p, 0.0, 1.0);
}

bool separated(std::span<const double> a, std::span<const double> b, double* p_out) {
  const auto ca = median_ci(a), cb = median_ci(b);
  if (!ca || !cb) return false;
  const double p = mann_whitney_p(a, b);
  if (p_out != nullptr) *p_out = p;
  return p <= kRankAlpha && (ca->hi < cb->lo || cb->hi < ca->lo);
}

std::vector<std::string> ranking_words(const std::vector<std::vector<double>>& candidates) {
  std::vector<std::string> words(candidates.size());
  if (candidates.size() < 2) {
    std::fill(words.begin(), words.end(), "only one");
    return words;
  }
  const bool repeated = std::all_of(candidates.begin(), candidates.end(),
                                    [](const auto& c) { return c.size() >= 2; });
  if (!repeated) {
    std::fill(words.begin(), words.end(), "not ranked");
    return words;
  }
  std::size_t leader = 0;
  for (std::size_t i = 1; i < candidates.size(); ++i) {
    if (median(candidates[i]) < median(candidates[leader])) leader = i;
  }
  bool clear = true;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (i == leader) continue;
    words[i] = separated(candidates[leader], candidates[i]) ? "behind" : "tied";
    clear = clear && words[i] == "behind";
  }
  words[leader] = clear ? "fastest" : "tied";
  return words;
}

}  // namespace sb::bench
