// LoadShard: one generator thread's part of a load point (harness/load/load_generator.h), on its
// own io_context with nothing shared in the hot path: connections j, j + T, j + 2T, … of the
// point's (shard j of T), and in the open loop the calls k ≡ j (mod T) of the whole schedule, so
// that the shards together still send call k at t0 + k / rate. Each open-loop shard has its own
// idle pool of its connections.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "harness/load/load_call.h"
#include "harness/load/load_connection.h"
#include "harness/load/load_point.h"

namespace sb {

// The timeline every shard of a point shares.
struct PointTimeline {
  LoadClock::time_point t0;            // the run's start: open loop, call 0 is due
  LoadClock::time_point window_start;  // t0 + warm-up
  LoadClock::time_point window_end;    // window_start + duration
};

// What one shard measured, with what merging needs.
struct ShardResult {
  PointResult result;  // its calls, latencies, errors and connections (no CPU or server figures)
  LoadClock::time_point last_answer;     // its last right answer counted (window_end: none later)
  LoadClock::time_point first_error_at;  // when its first error was counted (max: none)
};

class LoadShard final : public LoadSink {
 public:
  // Shard `shard` of `shards` of the point `config` on `timeline`, over TLS when `tls` is not
  // null; `at_window_start` runs on its thread when the window opens (may be empty). Every
  // argument outlives it.
  LoadShard(std::span<const LoadCall> calls,
            std::span<const boost::asio::ip::tcp::endpoint> endpoints, const PointConfig& config,
            const PointTimeline& timeline, std::size_t shard, std::size_t shards, LoadTls* tls,
            std::function<void()> at_window_start);

  // Runs its part of the point on the calling thread, until its last call has ended.
  ShardResult run();
  // A call ended: counted when due in the window; the connection's next call started.
  void call_done(LoadConnection& c, const CallOutcome& o) override;

 private:
  // What one connection did in the measured window.
  struct WindowTally {
    bool wanted = false;        // it had a call in flight at some moment of the window
    std::uint64_t answers = 0;  // HTTP answers it received in the window
  };

  void open_window();
  void close_window();
  void schedule();
  void dispatch();
  void next_call(LoadConnection& c);
  // Starts c's next call; `k` is the call's number in the open-loop schedule (closed: unused).
  void start(LoadConnection& c, LoadClock::time_point due, std::uint64_t k = 0);
  // Which call the schedule's call k (open loop) or the shard's next start (closed) sends.
  std::size_t pick(LoadConnection& c, std::uint64_t k);
  void count_error(LoadError kind, const std::string& why);
  // The due time of this shard's i-th call (the schedule's call shard_ + i * shards_).
  LoadClock::time_point due_time(std::uint64_t i) const;
  // The point-wide number of this shard's connection `local`.
  std::size_t global_index(std::size_t local) const { return shard_ + local * shards_; }

  boost::asio::io_context ioc_{1};                            // every handler, one thread
  const PointConfig& config_;                                 // how to drive the point
  const PointTimeline& timeline_;                             // shared by every shard
  std::size_t shard_;                                         // j: this shard
  std::size_t shards_;                                        // T: the point's shards
  std::function<void()> at_window_start_;                     // run when the window opens
  std::vector<std::unique_ptr<LoadConnection>> connections_;  // its share of the load
  std::vector<WindowTally> tally_;                            // per connection
  std::size_t call_count_;                                    // the calls it may send (n)
  std::uint64_t started_ = 0;                                 // closed loop: calls it started
  std::vector<std::uint64_t> sent_;                           // round robin: calls per connection
  std::deque<LoadConnection*> idle_;                          // open loop: free, longest first
  boost::asio::steady_timer schedule_timer_{ioc_};            // open loop: the next due call
  boost::asio::steady_timer window_timer_{ioc_};              // the window's start, then end
  // Open loop: its calls [first_pending_, next_due_) are due and not yet sent (sent in order).
  std::uint64_t first_pending_ = 0;  // its first call due and not yet sent
  std::uint64_t next_due_ = 0;       // its first call not yet due
  bool stopping_ = false;            // the window ended: no new calls
  ShardResult out_;                  // what is measured
};

}  // namespace sb
