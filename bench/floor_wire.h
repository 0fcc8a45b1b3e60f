// The raw loopback floor's wire, shared by both ends (floor_echo, roundtrip_bench's floor rows):
// plain POSIX sockets, a message is a u32 little-endian length and that many bytes, and a wait
// mode that decides how a side waits for the other (blocking recv, or non-blocking recv spinning).
// Nothing else: no event loop, no timers, no allocation per message once the buffer has grown.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sb::floor_wire {

// How a side waits for bytes.
enum class Wait {
  blocking,   // recv/send block in the kernel (a sleep and a wake-up per message)
  busy_poll,  // recv with MSG_DONTWAIT in a loop; after kSpinBound without data, poll() blocks
};

// How long a busy-polling side spins without data before it blocks in poll(): an idle peer (a
// connection between two benchmarks) must not hold a CPU.
inline constexpr std::chrono::milliseconds kSpinBound{100};

// The mode named `name` ("blocking", "busy-poll"), or nullopt.
std::optional<Wait> parse_wait(std::string_view name);
// The name parse_wait takes for `wait`.
const char* wait_name(Wait wait);

// Writes all of `bytes`; false on an error, when the peer is gone, or when the send buffer stays
// full for the socket's SO_SNDTIMEO (blocking) or `idle` (busy-poll; negative: for ever).
bool send_all(int fd, std::string_view bytes, Wait wait, std::chrono::milliseconds idle);

// Reads one message (header and payload) into `frame`, whose size becomes 4 + its length (a
// ping-pong has one message in flight, so nothing beyond it arrives). False on end of file, an
// error, a length above `max_length`, or no data for the socket's SO_RCVTIMEO (blocking) or for
// `idle` after the spin (busy-poll; a negative `idle` waits for ever).
bool recv_frame(int fd, std::string& frame, Wait wait, std::size_t max_length,
                std::chrono::milliseconds idle);

// A message of `length` payload bytes (a repeating pattern), header included.
std::string make_frame(std::size_t length);

// A TCP connection to 127.0.0.1:`port` with TCP_NODELAY and `timeout` as SO_RCVTIMEO and
// SO_SNDTIMEO, or -1.
int connect_loopback(std::uint16_t port, std::chrono::milliseconds timeout);

// Pins the calling thread to `cpu`; false when the kernel refuses.
bool pin_to_cpu(int cpu);

}  // namespace sb::floor_wire
