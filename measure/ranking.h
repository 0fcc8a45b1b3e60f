// What a ranking word must pass, in C++ for `soapbench compare`'s table: the same statistics as
// the report (tools/sbtools/stats.py: median_ci, mann_whitney_p, separated, Ranking), so a word
// printed in the terminal is one the report would print for the same repetitions.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace sb::bench {

inline constexpr double kCiLevel = 0.95;    // confidence of the interval of a median
inline constexpr double kRankAlpha = 0.01;  // two-sided Mann-Whitney U p a ranking word needs

// The median of `samples` (not empty).
double median(std::vector<double> samples);

// Distribution-free interval of the median from order statistics: [x_(k), x_(n+1-k)], the
// narrowest reaching `level`, or [min, max] with its lower coverage when none does. nullopt for
// fewer than 2 samples.
struct Interval {
  double lo, hi;    // bounds, in the samples' unit
  double coverage;  // probability that it covers the median
};
std::optional<Interval> median_ci(std::span<const double> samples, double level = kCiLevel);

// Two-sided Mann-Whitney U p as scipy.stats.mannwhitneyu computes it by default: exact when one
// sample has at most 8 values and there are no ties, else the normal approximation with tie
// correction and continuity correction; 1.0 when every value is the same.
double mann_whitney_p(std::span<const double> a, std::span<const double> b);

// Whether a and b (repetitions of two results) are apart: both have repetitions, p <= alpha and
// their median intervals do not overlap.
bool separated(std::span<const double> a, std::span<const double> b, double* p = nullptr);

// The word a candidate gets among `candidates` (each its repetitions' times): "fastest" (the
// lowest median, apart from every other), "tied" (the lowest median or not apart from it, when
// no candidate is clearly ahead), "behind" (apart from the lowest median), "not ranked" (a
// candidate ran once: noise unknown), "only one" (nothing to rank against).
std::vector<std::string> ranking_words(const std::vector<std::vector<double>>& candidates);

}  // namespace sb::bench
