// floor_echo: the server side of the raw loopback floor (roundtrip/floor/<mode>/<bytes>,
// docs/benchmarks.md "The raw loopback floor"). Plain POSIX sockets, no framework: it reads a
// length-prefixed message (bench/floor_wire.h) and writes the same bytes back, one connection at a
// time, until stopped by a signal. The client side is roundtrip_bench, which starts this as a child
// process.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "bench/floor_wire.h"

namespace {

using sb::floor_wire::Wait;

// The largest message echoed: above the round trips' largest call (getChain, ~450 KB).
constexpr std::size_t kMaxLength = 64u << 20;

struct Options {
  Wait wait = Wait::blocking;         // how the server waits for a message
  std::string address = "127.0.0.1";  // listen address (IPv4)
  int port = 0;                       // 0: any free port (printed)
  int cpu = -1;                       // pin to this CPU (-1: wherever the kernel runs it)
};

void usage(FILE* out) {
  std::fprintf(out,
               "usage: floor_echo [--mode blocking|busy-poll] [--address A] [--port N] [--cpu N]\n"
               "  Echoes 4-byte little-endian length-prefixed messages over TCP (TCP_NODELAY),\n"
               "  one connection at a time. Prints \"floor_echo: serving http://A:PORT (...)\"\n"
               "  once listening (the URL form harness/peer_process reads; it is not HTTP).\n"
               "  --mode   blocking: blocking recv/send; busy-poll: non-blocking recv in a loop,\n"
               "           blocking in poll() after %lld ms without data\n"
               "  --cpu N  pin the process to CPU N (the bench's same-cpu placement)\n",
               static_cast<long long>(sb::floor_wire::kSpinBound.count()));
}

// Parses argv into `opt`; false (after a message) on a bad argument.
bool parse(int argc, char** argv, Options& opt) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--help") {
      usage(stdout);
      std::exit(0);
    } else if (a == "--mode" && has_value) {
      const auto wait = sb::floor_wire::parse_wait(argv[++i]);
      if (!wait) return std::fprintf(stderr, "floor_echo: unknown mode %s\n", argv[i]), false;
      opt.wait = *wait;
    } else if (a == "--address" && has_value) {
      opt.address = argv[++i];
    } else if (a == "--port" && has_value) {
      opt.port = std::atoi(argv[++i]);
    } else if (a == "--cpu" && has_value) {
      opt.cpu = std::atoi(argv[++i]);
    } else {
      usage(stderr);
      return false;
    }
  }
  return true;
}

// A listening socket on address:port, or -1 (after a message).
int listen_on(const Options& opt) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(opt.port));
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int one = 1;
  if (fd < 0 || ::inet_pton(AF_INET, opt.address.c_str(), &addr.sin_addr) != 1 ||
      ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
      ::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(fd, 16) != 0) {
    std::perror(("floor_echo: cannot listen on " + opt.address).c_str());
    return -1;
  }
  return fd;
}

// Echoes messages on one connection until the client closes it.
void serve(int fd, Wait wait) {
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  std::string frame;
  const std::chrono::milliseconds forever{-1};
  while (sb::floor_wire::recv_frame(fd, frame, wait, kMaxLength, forever) &&
         sb::floor_wire::send_all(fd, frame, wait, forever)) {
  }
  ::close(fd);
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  if (!parse(argc, argv, opt)) return 2;
  if (opt.cpu >= 0 && !sb::floor_wire::pin_to_cpu(opt.cpu)) {
    std::fprintf(stderr, "floor_echo: cannot pin to CPU %d\n", opt.cpu);
    return 1;
  }
  const int listener = listen_on(opt);
  if (listener < 0) return 1;
  sockaddr_in bound{};
  socklen_t len = sizeof bound;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&bound), &len);
  std::printf("floor_echo: serving http://%s:%u (raw TCP echo, not HTTP; mode %s)\n",
              opt.address.c_str(), ntohs(bound.sin_port), sb::floor_wire::wait_name(opt.wait));
  std::fflush(stdout);
  for (;;) {
    const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd >= 0) serve(fd, opt.wait);
  }
}
