// One point of a load run (soapbench load): how it is driven (closed or open loop) and what it
// measured: throughput, the latency histogram, errors by kind, the server's CPU and memory.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/load/latency_histogram.h"

namespace sb {

// What can go wrong with a call under load; each is counted, none is throughput.
enum class LoadError : std::uint8_t {
  connect,       // the TCP connection could not be made
  timeout,       // no complete answer within the per-call timeout
  io,            // the connection broke mid-call (reset, closed, malformed HTTP)
  http_status,   // an HTTP status other than 200, without a fault body
  fault,         // the answer is a fault
  wrong_answer,  // the answer does not decode or is not the contract's answer
  unserved,      // a connection that wanted answers in the window and got none (per connection)
};
inline constexpr std::size_t kLoadErrorKinds = 7;

// The JSON and table name of an error kind ("connect", …, "unserved").
std::string_view load_error_name(LoadError e);

enum class LoadMode : std::uint8_t {
  closed,  // each connection sends its next call when the answer arrives
  open,    // call k is due at t0 + k / rate, sent on the next free connection
};

struct PointConfig {
  LoadMode mode = LoadMode::closed;    // how calls are paced
  std::size_t connections = 1;         // closed: the load; open: the pool of connections
  double rate = 0;                     // open loop: calls per second
  std::chrono::nanoseconds warmup{0};  // run but not measured, before the window
  std::chrono::nanoseconds duration{1'000'000'000};  // the measured window
  std::chrono::nanoseconds timeout{2'000'000'000};   // per call: connect, write and read
  std::uint32_t decode_every = 64;                   // 1 answer in this many is decoded in full
  int server_pid = 0;                                // > 0: the server's CPU and memory are read
  std::size_t threads = 1;  // generator threads (at most one per connection)
  bool tls_resume = true;   // https: a reconnect resumes the connection's last TLS session
  // With several calls (a replay): false, the run's k-th call sends call k mod n (the recorded
  // order); true, each connection goes round its own cycle of the calls from its own start.
  bool round_robin = false;
  // Open loop with several calls: call k is due at t0 + (k / n) * period + offsets[k mod n]
  // (the recorded times scaled); empty: at t0 + k / rate.
  std::vector<std::chrono::nanoseconds> offsets;
  std::chrono::nanoseconds period{0};  // the schedule's length before it repeats
};

// The server process's counters at one moment (/proc/PID/stat and status).
struct ProcessSample {
  std::int64_t cpu_ns = 0;   // utime + stime of every thread
  std::int64_t rss_kb = 0;   // VmRSS
  std::int64_t peak_kb = 0;  // VmHWM: the largest resident set so far
};

struct PointResult {
  std::uint64_t calls = 0;  // right answers to calls due (sent) in the window
  // From the window's start to the last answer counted (≥ the configured duration).
  double elapsed_s = 0;
  // Right answers at their latency, and calls the run gave up on at what they waited: a timed-out
  // call at its timeout (from its due time), an open-loop call never sent at its wait when the
  // window closed. In ns.
  LatencyHistogram latency;
  std::array<std::uint64_t, kLoadErrorKinds> errors{};  // by LoadError
  std::string first_error;                              // the first error's description
  std::uint64_t decoded = 0;           // answers decoded in full and checked against the contract
  std::uint64_t reconnects = 0;        // connections re-made (server close, errors)
  std::uint64_t tls_full = 0;          // https: full TLS handshakes (warm-up included)
  std::uint64_t tls_resumed = 0;       // https: TLS handshakes that resumed a session
  std::int64_t tls_handshake_ns = 0;   // https: time spent in all the handshakes
  std::uint64_t unsent = 0;            // open loop: calls due in the window never sent
  std::size_t connections_served = 0;  // connections that got at least one answer in the window
  double generator_cpu_s = 0;          // this process's CPU time (every thread) over the window
  std::vector<std::uint64_t> thread_calls;     // right answers per generator thread that drove it
  std::optional<ProcessSample> server_before;  // at the window's start (with server_pid)
  std::optional<ProcessSample> server_after;   // after the last answer (with server_pid)

  // Errors of every kind.
  std::uint64_t error_total() const;
  // The generator threads that drove the point (at least 1).
  std::size_t threads() const { return thread_calls.empty() ? 1 : thread_calls.size(); }
  // Right answers per second.
  double tps() const { return elapsed_s > 0 ? static_cast<double>(calls) / elapsed_s : 0; }
  // The server's CPU µs per right answer; nullopt without server samples or answers.
  std::optional<double> server_cpu_us_per_call() const;
};

}  // namespace sb
