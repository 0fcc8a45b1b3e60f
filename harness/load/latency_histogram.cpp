#include "harness/load/latency_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace sb {

namespace {

// log2(kSubBuckets): the bits a sub-bucket index takes.
constexpr int kSubBits = std::countr_zero(LatencyHistogram::kSubBuckets);

}  // namespace

std::size_t LatencyHistogram::bucket_of(std::uint64_t v) {
  if (v < 2 * kSubBuckets) return static_cast<std::size_t>(v);
  const int exponent = std::bit_width(v) - 1;  // >= kSubBits + 1
  const int shift = exponent - kSubBits;
  const std::uint64_t sub = (v >> shift) - kSubBuckets;  // 0 .. kSubBuckets-1
  return static_cast<std::size_t>(2 * kSubBuckets + (shift - 1) * kSubBuckets + sub);
}

std::uint64_t LatencyHistogram::bucket_value(std::size_t b) {
  if (b < 2 * kSubBuckets) return b;
  const std::size_t i = b - 2 * kSubBuckets;
  const int shift = static_cast<int>(i / kSubBuckets) + 1;
  const std::uint64_t low = (kSubBuckets + i % kSubBuckets) << shift;
  return low + (std::uint64_t{1} << (shift - 1));  // the middle of [low, low + 2^shift)
}

void LatencyHistogram::record(std::int64_t ns) {
  const std::uint64_t v = ns < 0 ? 0 : static_cast<std::uint64_t>(ns);
  ++counts_[bucket_of(v)];
  ++count_;
  min_ = std::min(min_, v);
  max_ = std::max(max_, v);
}

void LatencyHistogram::merge(const LatencyHistogram& other) {
  for (std::size_t b = 0; b < kBuckets; ++b) counts_[b] += other.counts_[b];
  count_ += other.count_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
}

std::uint64_t LatencyHistogram::percentile(double q) const {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  const auto rank = std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_))));
  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < kBuckets; ++b) {
    seen += counts_[b];
    // Clamped to what was recorded: the exact value lies there too, so the error only shrinks.
    if (seen >= rank) return std::clamp(bucket_value(b), min_, max_);
  }
  return max_;
}

}  // namespace sb
