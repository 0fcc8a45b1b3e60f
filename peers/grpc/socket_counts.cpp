#include "peers/grpc/socket_counts.h"

#include <arpa/inet.h>
#include <linux/tcp.h>  // tcp_info with tcpi_bytes_acked (glibc's lacks it)
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstring>
#include <filesystem>

namespace sb::peers {

namespace {

// target as a socket address; false when it is not numeric host:port.
bool parse_target(const std::string& target, sockaddr_storage& out) {
  const std::size_t colon = target.rfind(':');
  if (colon == std::string::npos) return false;
  std::string host = target.substr(0, colon);
  if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  const auto port = htons(static_cast<std::uint16_t>(std::stoi(target.substr(colon + 1))));
  std::memset(&out, 0, sizeof out);
  auto* v4 = reinterpret_cast<sockaddr_in*>(&out);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&out);
  if (inet_pton(AF_INET, host.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = port;
    return true;
  }
  if (inet_pton(AF_INET6, host.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = port;
    return true;
  }
  return false;
}

// Whether `fd`'s peer is `want`. gRPC's sockets are dual-stack IPv6: an IPv4 peer shows as
// ::ffff:a.b.c.d.
bool peer_is(int fd, const sockaddr_storage& want) {
  sockaddr_storage peer{};
  socklen_t len = sizeof peer;
  if (getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &len) != 0) return false;
  const auto& p6 = reinterpret_cast<const sockaddr_in6&>(peer);
  if (peer.ss_family == AF_INET6 && want.ss_family == AF_INET &&
      IN6_IS_ADDR_V4MAPPED(&p6.sin6_addr)) {
    const auto& b = reinterpret_cast<const sockaddr_in&>(want);
    return p6.sin6_port == b.sin_port &&
           std::memcmp(&p6.sin6_addr.s6_addr[12], &b.sin_addr, 4) == 0;
  }
  if (peer.ss_family != want.ss_family) return false;
  if (peer.ss_family == AF_INET) {
    const auto& a = reinterpret_cast<const sockaddr_in&>(peer);
    const auto& b = reinterpret_cast<const sockaddr_in&>(want);
    return a.sin_port == b.sin_port && a.sin_addr.s_addr == b.sin_addr.s_addr;
  }
  const auto& a = reinterpret_cast<const sockaddr_in6&>(peer);
  const auto& b = reinterpret_cast<const sockaddr_in6&>(want);
  return a.sin6_port == b.sin6_port && std::memcmp(&a.sin6_addr, &b.sin6_addr, 16) == 0;
}

}  // namespace

std::vector<int> sockets_to(const std::string& target) {
  sockaddr_storage want{};
  std::vector<int> fds;
  if (!parse_target(target, want)) return fds;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd", ec)) {
    const std::string link = std::filesystem::read_symlink(entry.path(), ec).string();
    if (ec || !link.starts_with("socket:")) continue;
    const int fd = std::stoi(entry.path().filename().string());
    if (peer_is(fd, want)) fds.push_back(fd);
  }
  return fds;
}

std::uint16_t local_port(int fd) {
  sockaddr_storage local{};
  socklen_t len = sizeof local;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &len) != 0) return 0;
  if (local.ss_family == AF_INET)
    return ntohs(reinterpret_cast<const sockaddr_in&>(local).sin_port);
  if (local.ss_family == AF_INET6)
    return ntohs(reinterpret_cast<const sockaddr_in6&>(local).sin6_port);
  return 0;
}

std::optional<SocketCounts> socket_counts(int fd) {
  tcp_info info{};
  socklen_t len = sizeof info;
  if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0) return std::nullopt;
  return SocketCounts{info.tcpi_bytes_acked, info.tcpi_bytes_received};
}

}  // namespace sb::peers
