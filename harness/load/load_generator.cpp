#include "harness/load/load_generator.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include <boost/asio/ip/tcp.hpp>

#include "harness/load/load_process.h"
#include "harness/load/load_shard.h"

namespace sb {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;

namespace {

// The server's addresses; throws when the host does not resolve.
std::vector<tcp::endpoint> resolve(const Url& url) {
  asio::io_context resolver_context;
  tcp::resolver resolver(resolver_context);
  error_code ec;
  std::vector<tcp::endpoint> endpoints;
  for (const auto& e : resolver.resolve(url.host, url.port, ec)) endpoints.push_back(e.endpoint());
  if (ec || endpoints.empty())
    throw std::runtime_error("resolve " + url.host + ": " + ec.message());
  return endpoints;
}

// Adds a shard's counts, latencies and errors to `into` (the first error by time is kept).
void merge(PointResult& into, LoadClock::time_point& first_error_at, ShardResult&& part) {
  const PointResult& r = part.result;
  into.calls += r.calls;
  into.latency.merge(r.latency);
  for (std::size_t k = 0; k < kLoadErrorKinds; ++k) into.errors[k] += r.errors[k];
  if (part.first_error_at < first_error_at) {
    first_error_at = part.first_error_at;
    into.first_error = r.first_error;
  }
  into.decoded += r.decoded;
  into.reconnects += r.reconnects;
  into.tls_full += r.tls_full;
  into.tls_resumed += r.tls_resumed;
  into.tls_handshake_ns += r.tls_handshake_ns;
  into.unsent += r.unsent;
  into.connections_served += r.connections_served;
  into.thread_calls.push_back(r.calls);
}

}  // namespace

PointResult run_load_point(const LoadCall& call, const Url& url, const PointConfig& config) {
  return run_load_point(std::span<const LoadCall>(&call, 1), url, config);
}

PointResult run_load_point(std::span<const LoadCall> calls, const Url& url,
                           const PointConfig& config) {
  if (calls.empty()) throw std::runtime_error("no calls to send");
  if (config.mode == LoadMode::open && !(config.rate > 0))
    throw std::runtime_error("an open loop needs a rate above 0");
  const std::vector<tcp::endpoint> endpoints = resolve(url);
  const std::size_t shards = std::clamp<std::size_t>(config.threads, 1, config.connections);
  std::optional<LoadTls> tls;  // https: one client context for every thread's connections
  if (url.tls) tls.emplace(url.host, config.tls_resume);
  PointResult result;
  double cpu_at_start = 0;
  auto at_window_start = [&] {  // on shard 0's thread
    cpu_at_start = own_cpu_seconds();
    if (config.server_pid > 0) result.server_before = sample_process(config.server_pid);
  };
  PointTimeline timeline;
  std::vector<std::unique_ptr<LoadShard>> parts;
  for (std::size_t j = 0; j < shards; ++j) {
    parts.push_back(std::make_unique<LoadShard>(
        calls, endpoints, config, timeline, j, shards, tls ? &*tls : nullptr,
        j == 0 ? std::function<void()>(at_window_start) : nullptr));
  }
  timeline.t0 = LoadClock::now();
  timeline.window_start = timeline.t0 + config.warmup;
  timeline.window_end = timeline.window_start + config.duration;
  std::vector<ShardResult> parts_out(shards);
  {
    std::vector<std::jthread> threads;  // shards 1 …; shard 0 runs on this thread
    for (std::size_t j = 1; j < shards; ++j)
      threads.emplace_back([&, j] { parts_out[j] = parts[j]->run(); });
    parts_out[0] = parts[0]->run();
  }  // joined
  result.generator_cpu_s = own_cpu_seconds() - cpu_at_start;
  if (config.server_pid > 0) result.server_after = sample_process(config.server_pid);
  LoadClock::time_point last_answer = timeline.window_end;
  LoadClock::time_point first_error_at = LoadClock::time_point::max();
  for (ShardResult& part : parts_out) {
    last_answer = std::max(last_answer, part.last_answer);
    merge(result, first_error_at, std::move(part));
  }
  result.elapsed_s = std::chrono::duration<double>(last_answer - timeline.window_start).count();
  return result;
}

}  // namespace sb
