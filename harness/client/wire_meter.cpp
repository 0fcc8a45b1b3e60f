#include "harness/client/wire_meter.h"

// linux/tcp.h, not netinet/tcp.h: glibc's struct tcp_info stops before the byte counters, and
// the two headers cannot be included together.
#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstddef>

namespace sb {

namespace {

// TCP states as linux/tcp.h numbers them in tcpi_state (include/net/tcp_states.h).
enum : std::uint8_t {
  kFinWait2 = 5,
  kTimeWait = 6,
  kCloseWait = 8,
  kLastAck = 9,
  kClosing = 11,
};

// One getsockopt(TCP_INFO); false when unavailable or too old to carry the byte counters.
bool read_info(int fd, tcp_info& info) {
  socklen_t len = sizeof info;
  if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0) return false;
  return len >= offsetof(tcp_info, tcpi_bytes_received) + sizeof info.tcpi_bytes_received;
}

}  // namespace

std::optional<SocketBytes> read_socket_bytes(int fd) {
  // The kernel reads tcpi_state before it locks the socket for the counters, so a FIN arriving
  // in between could pair a stale state with fresh counters: read until two reads agree.
  tcp_info a{};
  tcp_info b{};
  if (!read_info(fd, a)) return std::nullopt;
  for (int attempt = 0; attempt < 8; ++attempt) {
    if (!read_info(fd, b)) return std::nullopt;
    if (a.tcpi_state == b.tcpi_state && a.tcpi_bytes_acked == b.tcpi_bytes_acked &&
        a.tcpi_bytes_received == b.tcpi_bytes_received) {
      break;
    }
    a = b;
  }
  SocketBytes out{b.tcpi_bytes_acked, b.tcpi_bytes_received};
  // A received FIN advances rcv_nxt by one and the kernel counts it in bytes_received.
  const std::uint8_t state = b.tcpi_state;
  const bool peer_fin =
      state == kCloseWait || state == kLastAck || state == kClosing || state == kTimeWait;
  // Our FIN, once acknowledged, is counted in bytes_acked.
  const bool our_fin_acked = state == kFinWait2 || state == kTimeWait;
  if (peer_fin && out.received > 0) --out.received;
  if (our_fin_acked && out.sent > 0) --out.sent;
  return out;
}

bool WireMeter::start(int fd) {
  std::optional<SocketBytes> now = read_socket_bytes(fd);
  valid_ = now.has_value();
  base_ = now.value_or(SocketBytes{});
  return valid_;
}

SocketBytes WireMeter::delta(int fd) const {
  if (!valid_) return {};
  std::optional<SocketBytes> now = read_socket_bytes(fd);
  if (!now) return {};
  return *now - base_;
}

}  // namespace sb
