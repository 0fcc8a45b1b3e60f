#include "harness/load/load_shard.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace sb {

namespace asio = boost::asio;
using boost::system::error_code;

namespace {

// The pause before a connection tries again after a failed connect (no busy loop on a refusal).
constexpr std::chrono::milliseconds kConnectBackoff{50};

}  // namespace

LoadShard::LoadShard(std::span<const LoadCall> calls,
                     std::span<const asio::ip::tcp::endpoint> endpoints, const PointConfig& config,
                     const PointTimeline& timeline, std::size_t shard, std::size_t shards,
                     LoadTls* tls, std::function<void()> at_window_start)
    : config_(config),
      timeline_(timeline),
      shard_(shard),
      shards_(shards),
      at_window_start_(std::move(at_window_start)),
      call_count_(calls.size()) {
  for (std::size_t i = 0; global_index(i) < config.connections; ++i) {
    connections_.push_back(
        std::make_unique<LoadConnection>(ioc_, *this, calls, endpoints, i, config, tls));
  }
  tally_.resize(connections_.size());
  sent_.resize(connections_.size());
  out_.first_error_at = LoadClock::time_point::max();
}

ShardResult LoadShard::run() {
  out_.last_answer = timeline_.window_end;
  window_timer_.expires_at(timeline_.window_start);
  window_timer_.async_wait([this](error_code) { open_window(); });
  if (config_.mode == LoadMode::closed) {
    for (auto& c : connections_) start(*c, timeline_.t0);
  } else {
    for (auto& c : connections_) idle_.push_back(c.get());
    schedule();
  }
  ioc_.run();
  PointResult& r = out_.result;
  for (std::size_t i = 0; i < tally_.size(); ++i) {
    if (tally_[i].answers > 0) ++r.connections_served;
    if (tally_[i].wanted && tally_[i].answers == 0)
      count_error(LoadError::unserved,
                  "connection " + std::to_string(global_index(i)) + " got no answer");
  }
  for (const auto& c : connections_) {
    r.reconnects += c->connects() - (c->connects() > 0);
    r.tls_full += c->handshakes().full;
    r.tls_resumed += c->handshakes().resumed;
    r.tls_handshake_ns += c->handshakes().total_ns;
  }
  return std::move(out_);
}

void LoadShard::open_window() {
  if (at_window_start_) at_window_start_();
  window_timer_.expires_at(timeline_.window_end);
  window_timer_.async_wait([this](error_code) { close_window(); });
}

void LoadShard::close_window() {
  stopping_ = true;
  schedule_timer_.cancel();
  for (LoadConnection* c : idle_) c->disarm();
  // Calls due in the window still waiting: due before its end, and at or after its start.
  std::uint64_t first_in_window = first_pending_;
  while (first_in_window < next_due_ && due_time(first_in_window) < timeline_.window_start)
    ++first_in_window;
  out_.result.unsent = next_due_ - first_in_window;
  // Never sent: each counted in the latencies at what it waited, so a stall that kept calls
  // from being sent shows in them.
  const LoadClock::time_point now = LoadClock::now();
  for (std::uint64_t i = first_in_window; i < next_due_; ++i)
    out_.result.latency.record(std::chrono::nanoseconds(now - due_time(i)).count());
  first_pending_ = next_due_;
}

LoadClock::time_point LoadShard::due_time(std::uint64_t i) const {
  const std::uint64_t k = shard_ + i * shards_;
  if (!config_.offsets.empty()) {
    const std::uint64_t n = config_.offsets.size();
    return timeline_.t0 + config_.period * static_cast<std::int64_t>(k / n) +
           config_.offsets[k % n];
  }
  return timeline_.t0 +
         std::chrono::nanoseconds(std::llround(static_cast<double>(k) * 1e9 / config_.rate));
}

void LoadShard::schedule() {
  const LoadClock::time_point now = LoadClock::now();
  while (due_time(next_due_) <= now && due_time(next_due_) < timeline_.window_end) ++next_due_;
  dispatch();
  const LoadClock::time_point next = due_time(next_due_);
  if (next >= timeline_.window_end) return;  // the window timer ends the point
  schedule_timer_.expires_at(next);
  schedule_timer_.async_wait([this](error_code ec) {
    if (!ec && !stopping_) schedule();
  });
}

void LoadShard::dispatch() {
  while (first_pending_ < next_due_ && !idle_.empty()) {
    LoadConnection* c = idle_.front();
    idle_.pop_front();
    const std::uint64_t k = shard_ + first_pending_ * shards_;
    start(*c, due_time(first_pending_++), k);
  }
}

void LoadShard::start(LoadConnection& c, LoadClock::time_point due, std::uint64_t k) {
  if (LoadClock::now() >= timeline_.window_start) tally_[c.index()].wanted = true;
  c.start(due, pick(c, k));
}

std::size_t LoadShard::pick(LoadConnection& c, std::uint64_t k) {
  if (call_count_ == 1) return 0;
  if (config_.round_robin) {  // connection g starts at g·n/C, spreading the calls over them
    const std::size_t g = global_index(c.index());
    return (g * call_count_ / config_.connections + sent_[c.index()]++) % call_count_;
  }
  if (config_.mode == LoadMode::closed) k = shard_ + started_++ * shards_;
  return k % call_count_;
}

void LoadShard::next_call(LoadConnection& c) {
  if (stopping_) return c.disarm();
  if (config_.mode == LoadMode::closed) return start(c, LoadClock::now());
  idle_.push_back(&c);
  dispatch();
}

void LoadShard::count_error(LoadError kind, const std::string& why) {
  PointResult& r = out_.result;
  ++r.errors[static_cast<std::size_t>(kind)];
  if (!r.first_error.empty()) return;
  r.first_error = std::string(load_error_name(kind)) + ": " + why;
  out_.first_error_at = LoadClock::now();
}

void LoadShard::call_done(LoadConnection& c, const CallOutcome& o) {
  WindowTally& t = tally_[c.index()];
  if (o.done >= timeline_.window_start) {
    t.wanted = true;  // busy at the window's start or later
    if (o.answered) ++t.answers;
  }
  if (o.due >= timeline_.window_start && o.due < timeline_.window_end) {
    PointResult& r = out_.result;
    r.decoded += o.decoded;
    // A timed-out call is in the latencies at what it waited (its timeout or more): a stall
    // shows in max and p99.9 instead of only in the error count.
    if (!o.error || o.timed_out) r.latency.record(std::chrono::nanoseconds(o.done - o.due).count());
    if (o.error) {
      count_error(*o.error, c.why());
    } else {
      ++r.calls;
      out_.last_answer = std::max(out_.last_answer, o.done);
    }
  }
  if (o.error == LoadError::connect) {
    c.after(kConnectBackoff, [this, &c] { next_call(c); });
  } else {
    next_call(c);
  }
}

}  // namespace sb
