#include "harness/load_generator.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <memory>
#include <stdexcept>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "harness/load_connection.h"
#include "harness/load_process.h"

namespace sb {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;

namespace {

// The pause before a connection tries again after a failed connect (no busy loop on a refusal).
constexpr std::chrono::milliseconds kConnectBackoff{50};

// What one connection did in the measured window.
struct WindowTally {
  bool wanted = false;        // it had a call in flight at some moment of the window
  std::uint64_t answers = 0;  // HTTP answers it received in the window
};

class PointRun final : public LoadSink {
 public:
  PointRun(const LoadCall& call, std::vector<tcp::endpoint> endpoints, const PointConfig& config)
      : config_(config), endpoints_(std::move(endpoints)), tally_(config.connections) {
    for (std::size_t i = 0; i < config.connections; ++i) {
      connections_.push_back(
          std::make_unique<LoadConnection>(ioc_, *this, call, endpoints_, i, config));
    }
  }

  PointResult run();
  void call_done(LoadConnection& c, const CallOutcome& o) override;

 private:
  void open_window();
  void close_window();
  void schedule();
  void dispatch();
  void next_call(LoadConnection& c);
  void start(LoadConnection& c, LoadClock::time_point due);
  void count_error(LoadError kind, const std::string& why);
  LoadClock::time_point due_time(std::uint64_t k) const;

  asio::io_context ioc_{1};                                   // every handler, one thread
  const PointConfig& config_;                                 // how to drive the point
  std::vector<tcp::endpoint> endpoints_;                      // the server's addresses
  std::vector<std::unique_ptr<LoadConnection>> connections_;  // the load
  std::vector<WindowTally> tally_;                            // per connection
  std::deque<LoadConnection*> idle_;                          // open loop: free, longest first
  asio::steady_timer schedule_timer_{ioc_};                   // open loop: the next due call
  asio::steady_timer window_timer_{ioc_};                     // the window's start, then end
  LoadClock::time_point t0_, window_start_, window_end_;      // the point's timeline
  LoadClock::time_point last_answer_;                         // the last right answer counted
  // Open loop: calls [first_pending_, next_due_) are due and not yet sent (sent in order).
  std::uint64_t first_pending_ = 0;  // the first call due and not yet sent
  std::uint64_t next_due_ = 0;       // the first call not yet due
  bool stopping_ = false;            // the window ended: no new calls
  double cpu_at_start_ = 0;          // own CPU at the window's start
  PointResult result_;               // what is measured
};

PointResult PointRun::run() {
  t0_ = LoadClock::now();
  window_start_ = t0_ + config_.warmup;
  window_end_ = window_start_ + config_.duration;
  last_answer_ = window_end_;
  window_timer_.expires_at(window_start_);
  window_timer_.async_wait([this](error_code) { open_window(); });
  if (config_.mode == LoadMode::closed) {
    for (auto& c : connections_) start(*c, t0_);
  } else {
    for (auto& c : connections_) idle_.push_back(c.get());
    schedule();
  }
  ioc_.run();
  result_.generator_cpu_s = own_cpu_seconds() - cpu_at_start_;
  if (config_.server_pid > 0) result_.server_after = sample_process(config_.server_pid);
  result_.elapsed_s = std::chrono::duration<double>(last_answer_ - window_start_).count();
  for (std::size_t i = 0; i < tally_.size(); ++i) {
    if (tally_[i].answers > 0) ++result_.connections_served;
    if (tally_[i].wanted && tally_[i].answers == 0)
      count_error(LoadError::unserved, "connection " + std::to_string(i) + " got no answer");
  }
  for (const auto& c : connections_) result_.reconnects += c->connects() - (c->connects() > 0);
  return std::move(result_);
}

void PointRun::open_window() {
  cpu_at_start_ = own_cpu_seconds();
  if (config_.server_pid > 0) result_.server_before = sample_process(config_.server_pid);
  window_timer_.expires_at(window_end_);
  window_timer_.async_wait([this](error_code) { close_window(); });
}

void PointRun::close_window() {
  stopping_ = true;
  schedule_timer_.cancel();
  for (LoadConnection* c : idle_) c->disarm();
  // Calls due in the window still waiting: due before its end, and at or after its start.
  std::uint64_t first_in_window = first_pending_;
  while (first_in_window < next_due_ && due_time(first_in_window) < window_start_)
    ++first_in_window;
  result_.unsent = next_due_ - first_in_window;
  first_pending_ = next_due_;
}

LoadClock::time_point PointRun::due_time(std::uint64_t k) const {
  const double ns = static_cast<double>(k) * 1e9 / config_.rate;
  return t0_ + std::chrono::nanoseconds(std::llround(ns));
}

void PointRun::schedule() {
  const LoadClock::time_point now = LoadClock::now();
  while (due_time(next_due_) <= now && due_time(next_due_) < window_end_) ++next_due_;
  dispatch();
  const LoadClock::time_point next = due_time(next_due_);
  if (next >= window_end_) return;  // the window timer ends the point
  schedule_timer_.expires_at(next);
  schedule_timer_.async_wait([this](error_code ec) {
    if (!ec && !stopping_) schedule();
  });
}

void PointRun::dispatch() {
  while (first_pending_ < next_due_ && !idle_.empty()) {
    LoadConnection* c = idle_.front();
    idle_.pop_front();
    start(*c, due_time(first_pending_++));
  }
}

void PointRun::start(LoadConnection& c, LoadClock::time_point due) {
  if (LoadClock::now() >= window_start_) tally_[c.index()].wanted = true;
  c.start(due);
}

void PointRun::next_call(LoadConnection& c) {
  if (stopping_) return c.disarm();
  if (config_.mode == LoadMode::closed) return start(c, LoadClock::now());
  idle_.push_back(&c);
  dispatch();
}

void PointRun::count_error(LoadError kind, const std::string& why) {
  ++result_.errors[static_cast<std::size_t>(kind)];
  if (result_.first_error.empty())
    result_.first_error = std::string(load_error_name(kind)) + ": " + why;
}

void PointRun::call_done(LoadConnection& c, const CallOutcome& o) {
  WindowTally& t = tally_[c.index()];
  if (o.done >= window_start_) {
    t.wanted = true;  // busy at the window's start or later
    if (o.answered) ++t.answers;
  }
  if (o.due >= window_start_ && o.due < window_end_) {
    result_.decoded += o.decoded;
    if (o.error) {
      count_error(*o.error, c.why());
    } else {
      ++result_.calls;
      result_.latency.record(std::chrono::nanoseconds(o.done - o.due).count());
      last_answer_ = std::max(last_answer_, o.done);
    }
  }
  if (o.error == LoadError::connect) {
    c.after(kConnectBackoff, [this, &c] { next_call(c); });
  } else {
    next_call(c);
  }
}

}  // namespace

PointResult run_load_point(const LoadCall& call, const Url& url, const PointConfig& config) {
  if (url.tls) throw std::runtime_error("https is not supported by the load generator yet");
  if (config.mode == LoadMode::open && !(config.rate > 0))
    throw std::runtime_error("an open loop needs a rate above 0");
  asio::io_context resolver_context;
  tcp::resolver resolver(resolver_context);
  error_code ec;
  std::vector<tcp::endpoint> endpoints;
  for (const auto& e : resolver.resolve(url.host, url.port, ec)) endpoints.push_back(e.endpoint());
  if (ec || endpoints.empty())
    throw std::runtime_error("resolve " + url.host + ": " + ec.message());
  PointRun run(call, std::move(endpoints), config);
  return run.run();
}

}  // namespace sb
