#include "bench/floor_wire.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace sb::floor_wire {

namespace {

using Clock = std::chrono::steady_clock;

// Waits until `fd` is ready for `events`, for at most `idle` (negative: for ever).
bool wait_ready(int fd, short events, std::chrono::milliseconds idle) {
  pollfd p{fd, events, 0};
  int rc;
  do {
    rc = ::poll(&p, 1, idle.count() < 0 ? -1 : static_cast<int>(idle.count()));
  } while (rc < 0 && errno == EINTR);
  return rc > 0;
}

// One recv of at most `room` bytes at `at`: > 0 bytes, 0 at end of file, -1 on error or timeout.
// Busy-poll spins on MSG_DONTWAIT for kSpinBound, then blocks in poll() for `idle`.
ssize_t recv_some(int fd, char* at, std::size_t room, Wait wait, std::chrono::milliseconds idle) {
  if (wait == Wait::blocking) {
    ssize_t n;
    do {
      n = ::recv(fd, at, room, 0);
    } while (n < 0 && errno == EINTR);
    return n;
  }
  Clock::time_point spin_end{};
  for (unsigned spins = 0;; ++spins) {
    const ssize_t n = ::recv(fd, at, room, MSG_DONTWAIT);
    if (n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) return n;
    if ((spins & 1023) != 0) continue;  // the clock read stays out of the hot spin
    const Clock::time_point now = Clock::now();
    if (spins == 0) {
      spin_end = now + kSpinBound;
    } else if (now > spin_end) {
      if (!wait_ready(fd, POLLIN, idle)) return -1;
      spin_end = Clock::now() + kSpinBound;
    }
  }
}

}  // namespace

const char* wait_name(Wait wait) { return wait == Wait::blocking ? "blocking" : "busy-poll"; }

std::optional<Wait> parse_wait(std::string_view name) {
  for (Wait w : {Wait::blocking, Wait::busy_poll}) {
    if (name == wait_name(w)) return w;
  }
  return std::nullopt;
}

bool send_all(int fd, std::string_view bytes, Wait wait, std::chrono::milliseconds idle) {
  const int flags = MSG_NOSIGNAL | (wait == Wait::busy_poll ? MSG_DONTWAIT : 0);
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd, bytes.data(), bytes.size(), flags);
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && wait == Wait::busy_poll) {
      if (!wait_ready(fd, POLLOUT, idle)) return false;  // a full buffer: a large message
    } else {
      return false;
    }
  }
  return true;
}

bool recv_frame(int fd, std::string& frame, Wait wait, std::size_t max_length,
                std::chrono::milliseconds idle) {
  if (frame.size() < 4) frame.resize(4);
  std::size_t have = 0;
  std::size_t want = 4;
  while (have < want) {
    const ssize_t n = recv_some(fd, frame.data() + have, frame.size() - have, wait, idle);
    if (n <= 0) return false;
    have += static_cast<std::size_t>(n);
    if (want == 4 && have >= 4) {
      const auto* h = reinterpret_cast<const unsigned char*>(frame.data());
      const std::size_t length = h[0] | (h[1] << 8) | (h[2] << 16) | (std::size_t{h[3]} << 24);
      if (length > max_length) return false;
      want = 4 + length;
      if (frame.size() < want) frame.resize(want);
    }
  }
  frame.resize(want);
  return true;
}

std::string make_frame(std::size_t length) {
  std::string frame(4 + length, '\0');
  for (int i = 0; i < 4; ++i) frame[i] = static_cast<char>((length >> (8 * i)) & 0xff);
  for (std::size_t i = 0; i < length; ++i) frame[4 + i] = static_cast<char>('a' + i % 26);
  return frame;
}

int connect_loopback(std::uint16_t port, std::chrono::milliseconds timeout) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  const int one = 1;
  timeval tv{static_cast<time_t>(timeout.count() / 1000),
             static_cast<suseconds_t>(timeout.count() % 1000 * 1000)};
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0 ||
      ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) != 0 ||
      ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 ||
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0) {
    const int saved = errno;
    ::close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}

bool pin_to_cpu(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return ::sched_setaffinity(0, sizeof set, &set) == 0;
}

}  // namespace sb::floor_wire
