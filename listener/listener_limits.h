// ListenerLimits: the deadlines and the connection cap every listener of the suite applies to its
// clients, `soapbench serve` (ServerConfig::limits) and `soapbench record`
// (RecordConfig::limits) alike, each set by the same options (docs: "Hostile input and limits").
// The sizes a request may have are request_rules.h's.
#pragma once

#include <chrono>
#include <cstddef>

namespace sb {

struct ListenerLimits {
  // From a request's first byte to the end of its header: a slow client is closed then, however
  // it trickles its bytes (a byte does not extend it). Also the first request's wait for its
  // first byte.
  std::chrono::milliseconds header_timeout{10'000};
  // A keep-alive connection between requests.
  std::chrono::milliseconds idle_timeout{30'000};
  // Connections served at once; beyond, 503. Never more than the descriptors allow
  // (listener/connection_gate.h): a listener out of descriptors could not even refuse.
  std::size_t max_connections = 1024;
  // Crowded (over 3/4 of the cap in use): a connection that has sent nothing gets this long for
  // its first byte (TLS: its handshake), so an idle flood cannot hold every slot.
  std::chrono::milliseconds crowded_first_byte{1'000};
};

}  // namespace sb
