// Google Benchmark 1.7.1 reserves its list of benchmark instances one family at a time when the
// filter is "." (what an empty --benchmark_filter becomes): every family reallocates and copies
// the whole list, quadratic in the number of benchmarks (parse_bench --set=full, 28,000 of them,
// spent over two minutes there before listing or running anything). ".*" matches the same names
// and skips that reserve.
#pragma once

#include <benchmark/benchmark.h>

namespace sb::bench {

// Call after benchmark::Initialize: replaces a match-everything filter by ".*".
inline void use_linear_filter() {
  const std::string f = benchmark::GetBenchmarkFilter();
  if (f.empty() || f == "." || f == "all") benchmark::SetBenchmarkFilter(".*");
}

}  // namespace sb::bench
