#include "harness/link_model.h"

#include <cstdio>

namespace sb {

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
