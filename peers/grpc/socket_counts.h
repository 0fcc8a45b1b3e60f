// Bytes at the socket for a client whose transport hides its socket (gRPC's channel): the
// kernel's counts of the connection (TCP_INFO: tcpi_bytes_acked, the payload sent and
// acknowledged; tcpi_bytes_received, the payload received), so every byte the stack writes and
// reads is counted (HTTP/2 frames, headers, SETTINGS, PING and WINDOW_UPDATE included), without
// touching its transport. The connection is found among this process's sockets by the server's
// address.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sb::peers {

// TCP payload of one connection since it opened.
struct SocketCounts {
  std::uint64_t sent = 0;      // bytes sent and acknowledged by the peer
  std::uint64_t received = 0;  // bytes received
};

// The file descriptors of this process's TCP sockets connected to `target` ("host:port", host
// a numeric IPv4 or IPv6 address, IPv6 in brackets).
std::vector<int> sockets_to(const std::string& target);

// The local port of socket `fd` (0 when it has none): what tells two connections to one server
// apart.
std::uint16_t local_port(int fd);

// The counts of socket `fd`; nullopt when it is not a TCP socket.
std::optional<SocketCounts> socket_counts(int fd);

}  // namespace sb::peers
