#include "harness/load/load_point.h"

#include <numeric>

namespace sb {

std::string_view load_error_name(LoadError e) {
  static constexpr std::string_view kNames[kLoadErrorKinds] = {
      "connect", "timeout", "io", "http_status", "fault", "wrong_answer", "unserved"};
  return kNames[static_cast<std::size_t>(e)];
}

std::uint64_t PointResult::error_total() const {
  return std::accumulate(errors.begin(), errors.end(), std::uint64_t{0});
}

std::optional<double> PointResult::server_cpu_us_per_call() const {
  if (!server_before || !server_after || calls == 0) return std::nullopt;
  return static_cast<double>(server_after->cpu_ns - server_before->cpu_ns) / 1e3 /
         static_cast<double>(calls);
}

}  // namespace sb
