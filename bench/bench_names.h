// Benchmark names from the one schema, bench/benchmark_names.json (tools/sbtools/names.py parses
// result files with the same file; bench/CMakeLists.txt turns its patterns into
// name_pattern::<kind>): a kind's pattern filled with fmt's named arguments, e.g.
//   bench_name(name_pattern::level, fmt::arg("level", "parse"), fmt::arg("adapter", ...), ...)
#pragma once

#include <fmt/core.h>

#include <string>
#include <string_view>

#include "bench/benchmark_name_patterns.h"

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

}  // namespace sb::bench
