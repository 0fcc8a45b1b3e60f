// ConnectionGate: who a listener lets in. Connections up to its cap are served; beyond, a few are
// let in only to be answered 503 and closed; beyond those, they are closed unanswered. The cap
// is ListenerLimits::max_connections, but never more than the process's descriptors allow
// (RLIMIT_NOFILE, less a reserve for files and the rest): a listener that ran out of
// descriptors could neither refuse a client with 503 nor open a file, so it keeps within them
// and sheds the surplus instead (a proxy's connection holds two descriptors, its client's and
// its upstream's).
#pragma once

#include <atomic>
#include <cstddef>

namespace sb::listener {

// Descriptors a listener keeps out of its connections' reach (files, the recording, TLS).
constexpr std::size_t kReservedDescriptors = 64;

class ConnectionGate {
 public:
  enum class Admission {
    serve,   // counted against the cap
    reject,  // over the cap: answer 503 and close
    drop,    // over the cap and the room for refusals: close at once
  };

  // Computes the cap: `max_connections`, or less when RLIMIT_NOFILE cannot hold that many
  // connections of `descriptors` each (7/8 of what is left after kReservedDescriptors; the
  // rest is the room for connections being refused).
  void open(std::size_t max_connections, std::size_t descriptors);
  // Lets a new connection in, or not (the accepting thread only).
  Admission enter();
  // A connection let in by enter() ended (any thread).
  void leave(Admission admission);
  // More than 3/4 of the cap in use: connections that have sent nothing are closed at their next
  // crowding check (ListenerLimits::crowded_first_byte).
  bool crowded() const;
  // Connections served at once, at most.
  std::size_t cap() const { return cap_; }

 private:
  std::size_t cap_ = 0;                    // served at once, at most
  std::size_t reject_room_ = 0;            // being refused at once, at most
  std::atomic<std::size_t> served_{0};     // serve admissions alive
  std::atomic<std::size_t> rejecting_{0};  // reject admissions alive
};

}  // namespace sb::listener
