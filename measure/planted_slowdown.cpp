#include "measure/planted_slowdown.h"

#include <cstdio>
#include <cstdlib>

namespace sb::bench {

namespace {

constexpr const char* kVariable = "SOAPBENCH_PLANTED_SLOWDOWN";

std::string raw_setting() {
  const char* v = std::getenv(kVariable);
  return v == nullptr ? std::string() : std::string(v);
}

// Read once, on first use; a malformed value stops the program there.
const PlantedSetting& planted() {
  static const PlantedSetting p = [] {
    const std::string value = raw_setting();
    if (value.empty()) return PlantedSetting{};
    std::string why;
    std::optional<PlantedSetting> parsed = parse_planted_slowdown(value, &why);
    if (!parsed) {
      std::fprintf(stderr, "%s=%s: %s (expected PERCENT:REGEX, e.g. 5:^decode/pugixml-dom/)\n",
                   kVariable, value.c_str(), why.c_str());
      std::exit(2);
    }
    return std::move(*parsed);
  }();
  return p;
}

}  // namespace

std::optional<PlantedSetting> parse_planted_slowdown(const std::string& value, std::string* why) {
  const std::size_t colon = value.find(':');
  if (colon == std::string::npos || colon == 0) {
    *why = "no PERCENT: before the regex";
    return std::nullopt;
  }
  const std::string percent = value.substr(0, colon);
  char* end = nullptr;
  const double pct = std::strtod(percent.c_str(), &end);
  if (end == percent.c_str() || *end != '\0' || !(pct >= 0.0) || pct > 1000.0) {
    *why = "PERCENT must be a number from 0 to 1000";
    return std::nullopt;
  }
  PlantedSetting p;
  try {
    p.which = std::regex(value.substr(colon + 1));
  } catch (const std::regex_error& e) {
    *why = e.what();
    return std::nullopt;
  }
  p.fraction = pct / 100.0;
  return p;
}

std::string planted_slowdown_setting() {
  (void)planted();  // validates it
  return raw_setting();
}

double planted_slowdown(const std::string& benchmark) {
  const PlantedSetting& p = planted();
  if (p.fraction == 0.0) return 0.0;
  return std::regex_search(benchmark, p.which) ? p.fraction : 0.0;
}

}  // namespace sb::bench
