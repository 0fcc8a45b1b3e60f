// The link model: projects a measured call onto named network links, so the parser's share of
// a call can be read for a datacenter, a LAN, a WAN or a mobile link, not only for loopback.
//
//   projected = client encode + server decode + dispatch + server encode + client decode
//             + RTT × round trips + (bytes sent + bytes received) × 8 / bandwidth
//   round trips = 1 per call (keep-alive), +1 for a new TCP connection, +1 for a TLS 1.3 handshake
//   parser share = (server decode + client decode) / projected
//
// Loopback uses the measured call (transport included) instead of a projection.
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

// One call's measured phases (seconds) and bytes.
struct CallCost {
  double client_encode = 0, server_decode = 0, dispatch = 0, server_encode = 0, client_decode = 0;
  double measured_total = 0;  // loopback wall time of the call
  double bytes = 0;           // sent + received at the socket
  int round_trips = 1;        // 1 keep-alive; +1 new TCP connection; +1 TLS handshake
};

// Projected duration of the call on `link` (seconds).
double projected_seconds(const CallCost& c, const Link& link);

// (server decode + client decode) / projected duration.
double parser_share(const CallCost& c, const Link& link);

// The model as result-file context keys, so a report projects with the run's own model:
// "link:<name>" = "bits_per_second=<bit/s>;rtt_seconds=<s>" per link (loopback: 0, measured),
// "link_model:cpu" / "link_model:parser" / "link_model:bytes" = comma-separated counters.
std::vector<std::pair<std::string, std::string>> link_model_context();

}  // namespace sb
