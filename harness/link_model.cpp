#include "harness/link_model.h"

#include <cstdio>

namespace sb {

double projected_seconds(const CallCost& c, const Link& link) {
  if (link.bits_per_second == 0) return c.measured_total;
  const double cpu =
      c.client_encode + c.server_decode + c.dispatch + c.server_encode + c.client_decode;
  return cpu + link.rtt_seconds * c.round_trips + c.bytes * 8 / link.bits_per_second;
}

double parser_share(const CallCost& c, const Link& link) {
  const double total = projected_seconds(c, link);
  return total > 0 ? (c.server_decode + c.client_decode) / total : 0;
}

namespace {

template <std::size_t N>
std::string joined(const std::array<std::string_view, N>& names) {
  std::string out;
  for (std::string_view n : names) out += (out.empty() ? "" : ",") + std::string(n);
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> link_model_context() {
  std::vector<std::pair<std::string, std::string>> ctx;
  for (const Link& l : kLinks) {
    char value[96];
    std::snprintf(value, sizeof value, "bits_per_second=%g;rtt_seconds=%g", l.bits_per_second,
                  l.rtt_seconds);
    ctx.emplace_back("link:" + std::string(l.name), value);
  }
  ctx.emplace_back("link_model:cpu", joined(kCpuCounters));
  ctx.emplace_back("link_model:parser", joined(kParserCounters));
  ctx.emplace_back("link_model:bytes", joined(kByteCounters));
  return ctx;
}

}  // namespace sb
