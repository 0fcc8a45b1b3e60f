// Wire accounting at the socket: the kernel's own per-connection byte counters (TCP_INFO), so a
// call's bytes include HTTP headers, TLS records and handshakes, and nothing is estimated.
//
// Counts are TCP payload bytes: what the application (or OpenSSL) wrote and read. IP and TCP
// headers, options, retransmissions and pure ACKs are not included; SYN and FIN, which the kernel
// counts as one sequence number each, are taken out (see read_socket_bytes).
#pragma once

#include <cstdint>
#include <optional>

namespace sb {

// Payload bytes of one TCP connection.
struct SocketBytes {
  std::uint64_t sent = 0;      // bytes written by this side that the peer has acknowledged
  std::uint64_t received = 0;  // bytes received in order from the peer

  // Bytes between two readings of the same connection (b taken first).
  friend SocketBytes operator-(const SocketBytes& a, const SocketBytes& b) {
    return {a.sent - b.sent, a.received - b.received};
  }
  // Both directions equal.
  friend bool operator==(const SocketBytes&, const SocketBytes&) = default;
};

// The connection's counters now: tcpi_bytes_acked and tcpi_bytes_received, minus one for each
// FIN the TCP state shows was received or acknowledged. The SYN an active opener's kernel may
// count (Linux 6.x does) stays in: callers take a baseline right after connect (WireMeter), which
// absorbs it whatever the kernel version. nullopt when fd is not a TCP socket or the kernel's
// tcp_info has no byte counters (before Linux 4.1).
std::optional<SocketBytes> read_socket_bytes(int fd);

// Snapshot/delta over one socket. Exact per call on a request/response protocol: once the whole
// response has been read, the peer has acknowledged the whole request (the response segments
// carry that ACK), so bytes_acked is final for the call.
class WireMeter {
 public:
  // Takes the baseline now. For a new connection call it right after the TCP connect, before any
  // payload (TLS handshake included), so the handshake counts in the call. False when the
  // counters are unavailable (delta() then reports zeros).
  bool start(int fd);
  // Bytes since start() (zeros when the counters are unavailable).
  SocketBytes delta(int fd) const;

 private:
  SocketBytes base_;    // counters at start()
  bool valid_ = false;  // start() could read the counters
};

}  // namespace sb
