// The link model's parameters: named network links and the roundtrip_bench counters the model
// sums. The formula that projects a measured call onto a link is written once, in Python
// (tools/sbtools/linkmodel.py, used by tools/report):
//
//   projected = sum(kCpuCounters) + RTT × round trips + sum(kByteCounters) × 8 / bandwidth
//   parser share = sum(kParserCounters) / projected
//
// The C++ computes nothing with them: link_model_context() writes them into every result file's
// context, and roundtrip_bench adds each connection variant's round trips per call.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sb {

struct Link {
  std::string_view name;   // "loopback", "datacenter", …
  double bits_per_second;  // bandwidth; 0 for loopback
  double rtt_seconds;      // round-trip time; 0 for loopback
};

inline constexpr std::array<Link, 5> kLinks = {{
    {"loopback", 0, 0},
    {"datacenter", 10e9, 0.1e-3},
    {"LAN", 1e9, 0.5e-3},
    {"WAN", 100e6, 30e-3},
    {"mobile", 10e6, 80e-3},
}};

// The roundtrip_bench counters (per call) the model sums: the CPU phases, the parsers' part of
// them, and the bytes on the wire.
inline constexpr std::array<std::string_view, 5> kCpuCounters = {
    "client_encode_ns", "server_decode_ns", "dispatch_ns", "server_encode_ns", "client_decode_ns"};
inline constexpr std::array<std::string_view, 2> kParserCounters = {"server_decode_ns",
                                                                    "client_decode_ns"};
inline constexpr std::array<std::string_view, 2> kByteCounters = {"bytes_sent", "bytes_received"};

// The model as result-file context keys, so a report projects with the run's own model:
// "link:<name>" = "bits_per_second=<bit/s>;rtt_seconds=<s>" per link (loopback: 0, measured),
// "link_model:cpu" / "link_model:parser" / "link_model:bytes" = comma-separated counters.
std::vector<std::pair<std::string, std::string>> link_model_context();

}  // namespace sb
