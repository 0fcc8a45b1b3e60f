// Benchmark names from the one schema, bench/benchmark_names.json (tools/sbtools/names.py parses
// result files with the same file; measure/CMakeLists.txt turns its patterns into
// name_pattern::<kind>): a kind's pattern filled with fmt's named arguments, e.g.
//   bench_name(name_pattern::level, fmt::arg("level", "parse"), fmt::arg("adapter", ...), ...)
#pragma once

#include <fmt/core.h>

#include <string>
#include <string_view>

#include "measure/benchmark_name_patterns.h"

namespace sb::bench {

// A value as a name field: the schema's rule, '/' written '-' (pugixml/dom -> pugixml-dom).
inline std::string name_field(std::string_view value) {
  std::string s(value);
  for (char& c : s) {
    if (c == '/') c = '-';
  }
  return s;
}

// The name of one benchmark: pattern (a name_pattern::<kind>) with its fields, fmt::arg each.
template <typename... Fields>
std::string bench_name(const char* pattern, const Fields&... fields) {
  return fmt::format(fmt::runtime(pattern), fields...);
}

// The name of a benchmark at one level (parse, walk, decode, classic) of one corpus file
// (name_pattern::level).
inline std::string level_bench(std::string_view level, std::string_view adapter,
                               std::string_view family, std::string_view file) {
  return bench_name(name_pattern::level, fmt::arg("level", level),
                    fmt::arg("adapter", name_field(adapter)), fmt::arg("family", family),
                    fmt::arg("file", file));
}

}  // namespace sb::bench
