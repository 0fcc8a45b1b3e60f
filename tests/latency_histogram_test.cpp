// LatencyHistogram (harness/load/latency_histogram.h): every percentile within 1% (the class's own
// bound, 1/256) of the exact nearest-rank percentile of the sorted values, from 1 ns to 100 s.
#include "harness/load/latency_histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace sb {
namespace {

constexpr double kQuantiles[] = {0.0, 0.001, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 0.9999, 1.0};

// The exact nearest-rank percentile: the value of rank ceil(q * n) (at least 1).
std::uint64_t exact(const std::vector<std::uint64_t>& sorted, double q) {
  const auto n = static_cast<double>(sorted.size());
  const auto rank = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(q * n)));
  return sorted[rank - 1];
}

// Records `values`, then checks count, max and every quantile against the sorted values.
void expect_within_bound(std::vector<std::uint64_t> values) {
  LatencyHistogram h;
  for (std::uint64_t v : values) h.record(static_cast<std::int64_t>(v));
  std::sort(values.begin(), values.end());
  ASSERT_EQ(h.count(), values.size());
  EXPECT_EQ(h.max(), values.back());
  EXPECT_EQ(h.min(), values.front());
  for (double q : kQuantiles) {
    const double want = static_cast<double>(exact(values, q));
    const double got = static_cast<double>(h.percentile(q));
    const double error = want == 0 ? got : std::abs(got - want) / want;
    EXPECT_LE(error, LatencyHistogram::kMaxRelativeError)
        << "q=" << q << " exact " << want << " histogram " << got;
    EXPECT_LE(error, 0.01) << "q=" << q;
  }
}

TEST(LatencyHistogram, LogUniformFromOneNanosecondToHundredSeconds) {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> exponent(0.0, 11.0);  // 10^0 .. 10^11 ns
  std::vector<std::uint64_t> values(200'000);
  for (auto& v : values) v = static_cast<std::uint64_t>(std::pow(10.0, exponent(rng)));
  expect_within_bound(values);
}

TEST(LatencyHistogram, ExponentialLatencies) {
  std::mt19937_64 rng(2);
  std::exponential_distribution<double> latency(1.0 / 50'000.0);  // mean 50 µs
  std::vector<std::uint64_t> values(100'000);
  for (auto& v : values) v = 1 + static_cast<std::uint64_t>(latency(rng));
  expect_within_bound(values);
}

TEST(LatencyHistogram, BimodalWithRareStalls) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> fast(30'000.0, 2'000.0);
  std::uniform_int_distribution<std::uint64_t> stall(40'000'000, 100'000'000'000);  // 40 ms..100 s
  std::vector<std::uint64_t> values;
  for (int i = 0; i < 100'000; ++i) {
    values.push_back(i % 997 == 0 ? stall(rng) : static_cast<std::uint64_t>(fast(rng)));
  }
  expect_within_bound(values);
}

TEST(LatencyHistogram, SmallValuesAreExact) {
  LatencyHistogram h;
  for (int v = 0; v < 256; ++v) h.record(v);
  for (int v = 1; v <= 256; ++v) EXPECT_EQ(h.percentile(v / 256.0), static_cast<unsigned>(v - 1));
}

TEST(LatencyHistogram, EveryPowerOfTwoEdge) {
  std::vector<std::uint64_t> values;
  for (int e = 0; e < 37; ++e) {  // up to 2^37 ns, about 137 s
    const std::uint64_t p = std::uint64_t{1} << e;
    values.insert(values.end(), {p - 1, p, p + 1});
  }
  expect_within_bound(values);
}

TEST(LatencyHistogram, MergeEqualsRecordingIntoOne) {
  std::mt19937_64 rng(4);
  std::uniform_int_distribution<std::uint64_t> any(1, 100'000'000'000);
  LatencyHistogram a, b, all;
  for (int i = 0; i < 20'000; ++i) {
    const auto v = static_cast<std::int64_t>(any(rng));
    (i % 3 == 0 ? a : b).record(v);
    all.record(v);
  }
  a.merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.max(), all.max());
  EXPECT_EQ(a.min(), all.min());
  for (double q : kQuantiles) EXPECT_EQ(a.percentile(q), all.percentile(q)) << q;
}

TEST(LatencyHistogram, EmptyAndNegative) {
  LatencyHistogram h;
  EXPECT_EQ(h.percentile(0.5), 0u);
  EXPECT_EQ(h.max(), 0u);
  EXPECT_EQ(h.count(), 0u);
  h.record(-5);  // a clock step backwards counts as 0, not as a huge unsigned value
  EXPECT_EQ(h.max(), 0u);
  EXPECT_EQ(h.count(), 1u);
}

}  // namespace
}  // namespace sb
