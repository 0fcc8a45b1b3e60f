// LatencyHistogram: latencies in nanoseconds, log-bucketed as HdrHistogram does (each power of
// two split into kSubBuckets linear sub-buckets), so any percentile is within
// kMaxRelativeError of the exact one, from 1 ns to hours, in a fixed 60 KB of counters.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace sb {

class LatencyHistogram {
 public:
  // Linear sub-buckets per power of two; values below 2 * kSubBuckets are counted exactly.
  static constexpr std::uint64_t kSubBuckets = 128;
  // Bound on |percentile(q) - exact| / exact: half a sub-bucket (a bucket reports its midpoint).
  static constexpr double kMaxRelativeError = 1.0 / (2 * kSubBuckets);

  // Counts one latency (negative values count as 0).
  void record(std::int64_t ns);
  // Adds every count of `other`.
  void merge(const LatencyHistogram& other);
  // The value of rank ceil(q * count()) (nearest rank; q in [0, 1], 0 → the minimum), within
  // kMaxRelativeError of the exact one; 0 when empty.
  std::uint64_t percentile(double q) const;
  // The largest value recorded (exact); 0 when empty.
  std::uint64_t max() const { return max_; }
  // The smallest value recorded (exact); 0 when empty.
  std::uint64_t min() const { return count_ == 0 ? 0 : min_; }
  // Values recorded.
  std::uint64_t count() const { return count_; }

 private:
  // Exact buckets for 0 .. 2*kSubBuckets-1, then kSubBuckets per power of two up to 2^63.
  static constexpr std::size_t kBuckets = 2 * kSubBuckets + (63 - 8 + 1) * kSubBuckets;
  static std::size_t bucket_of(std::uint64_t v);
  // The midpoint of a bucket's range of values.
  static std::uint64_t bucket_value(std::size_t b);

  std::array<std::uint64_t, kBuckets> counts_{};  // values per bucket
  std::uint64_t count_ = 0;                       // values recorded
  std::uint64_t min_ = UINT64_MAX;                // smallest value recorded
  std::uint64_t max_ = 0;                         // largest value recorded
};

}  // namespace sb
