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
#include <string_view>

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

}  // namespace sb
