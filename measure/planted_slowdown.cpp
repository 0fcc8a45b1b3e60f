#include "measure/planted_slowdown.h"

#include <cstdio>
#include <cstdlib>
#include <regex>

namespace sb::bench {

namespace {

constexpr const char* kVariable = "SOAPBENCH_PLANTED_SLOWDOWN";

struct Planted {
  double fraction = 0.0;  // 0: nothing planted
  std::regex which;       // the benchmarks it applies to
};

[[noreturn]] void refuse(const std::string& value, const char* why) {
  std::fprintf(stderr, "%s=%s: %s (expected PERCENT:REGEX, e.g. 5:^decode/pugixml-dom/)\n",
               kVariable, value.c_str(), why);
  std::exit(2);
}

std::string raw_setting() {
  const char* v = std::getenv(kVariable);
  return v == nullptr ? std::string() : std::string(v);
}

Planted read_setting() {
  Planted p;
  const std::string value = raw_setting();
  if (value.empty()) return p;
  const std::size_t colon = value.find(':');
  if (colon == std::string::npos || colon == 0) refuse(value, "no PERCENT: before the regex");
  char* end = nullptr;
  const std::string percent = value.substr(0, colon);
  const double pct = std::strtod(percent.c_str(), &end);
  if (end == percent.c_str() || *end != '\0' || !(pct > 0.0) || pct > 1000.0) {
    refuse(value, "PERCENT must be a number above 0 and at most 1000");
  }
  try {
    p.which = std::regex(value.substr(colon + 1));
  } catch (const std::regex_error& e) {
    refuse(value, e.what());
  }
  p.fraction = pct / 100.0;
  return p;
}

// Read once, on first use; a malformed value stops the program there.
const Planted& planted() {
  static const Planted p = read_setting();
  return p;
}

}  // namespace

std::string planted_slowdown_setting() {
  (void)planted();  // validates it
  return raw_setting();
}

double planted_slowdown(const std::string& benchmark) {
  const Planted& p = planted();
  if (p.fraction == 0.0) return 0.0;
  return std::regex_search(benchmark, p.which) ? p.fraction : 0.0;
}

}  // namespace sb::bench
