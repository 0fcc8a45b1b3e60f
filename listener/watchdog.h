// Watchdog: a connection's deadlines on one timer, shared by the server's sessions
// (server/http_session.cpp) and the proxy's client connections (record/proxy_connection.cpp).
// Each step sets a deadline, a plain time; the timer is re-armed only when a deadline falls
// before the time it is armed for (Beast's tcp_stream re-armed it on every read and write: with
// one connection that timer is the reactor's earliest, so each re-arming was a timerfd_settime
// call). Until the connection's first byte it also wakes every crowded_first_byte, so that a
// crowded listener closes connections that have sent nothing (ListenerLimits).
//
// The owner arms it with its own handler (holding the owner weakly) and asks fired() what to
// do when the handler runs.
#pragma once

#include <algorithm>
#include <chrono>
#include <utility>

namespace sb::listener {

using Clock = std::chrono::steady_clock;
constexpr Clock::time_point kNever = Clock::time_point::max();  // no deadline

template <class Timer>
class Watchdog {
 public:
  // What the owner does when the timer fired.
  enum class Verdict {
    wait,     // nothing due: the timer was armed again with fired()'s handler
    idle,     // no deadline now: the next deadline arms it
    late,     // the current step's deadline passed
    crowded,  // the connection sent nothing and the listener is crowded: close it
  };

  template <class Executor>
  explicit Watchdog(const Executor& executor) : timer_(executor) {}

  // Until heard(): a crowding check every `every`, the first one `every` from now.
  void watch_first_byte(Clock::duration every) {
    every_ = every;
    crowd_check_ = Clock::now() + every;
  }
  // The connection sent a byte (TLS: finished its handshake): no more crowding checks.
  void heard() { heard_ = true; }
  bool has_heard() const { return heard_; }

  // The current step must end within `d` from now; arms the timer with `handler` when it would
  // wake too late.
  template <class Handler>
  void expires_after(Clock::duration d, Handler&& handler) {
    deadline_ = Clock::now() + d;
    if (wake_time() < armed_) arm(std::forward<Handler>(handler));
  }
  // The current step has no deadline (one that bounds itself).
  void expires_never() { deadline_ = kNever; }

  // The timer fired (its wait succeeded): what to do, given whether the listener is crowded;
  // waits on with `handler` when nothing is due yet.
  template <class Handler>
  Verdict fired(bool crowded, Handler&& handler) {
    armed_ = kNever;
    const Clock::time_point now = Clock::now();
    if (!heard_ && now >= crowd_check_) {
      if (crowded) return Verdict::crowded;
      crowd_check_ = now + every_;
    }
    if (deadline_ == kNever) return Verdict::idle;
    if (now >= deadline_) return Verdict::late;
    arm(std::forward<Handler>(handler));
    return Verdict::wait;
  }

  // Cancels a pending wait (its handler ends with operation_aborted).
  void cancel() { timer_.cancel(); }

 private:
  // When to look next: the deadline, or earlier the next crowding check.
  Clock::time_point wake_time() const {
    return heard_ ? deadline_ : std::min(deadline_, crowd_check_);
  }

  // Arms the timer for wake_time() (a wait already pending ends with operation_aborted).
  template <class Handler>
  void arm(Handler&& handler) {
    armed_ = wake_time();
    timer_.expires_at(armed_);
    timer_.async_wait(std::forward<Handler>(handler));
  }

  Timer timer_;                             // the one timer
  Clock::time_point deadline_ = kNever;     // the current step's deadline
  Clock::time_point armed_ = kNever;        // when the timer fires (kNever: not armed)
  Clock::time_point crowd_check_ = kNever;  // while !heard_: the next crowding check
  Clock::duration every_{};                 // the crowding checks' interval
  bool heard_ = false;                      // the connection sent a byte
};

}  // namespace sb::listener
