#include "bench/callcount_servers.h"

#include <chrono>

#include "parsers/registry.h"

namespace sb::bench {

namespace {

// A row's server: "" for the defaults (pugixml/dom and rapidjson/dom), else its adapter.
std::string key_of(const CallRow& row) {
  return row.adapter == default_adapter(row.family == rpc::Family::jsonrpc) ? "" : row.adapter;
}

}  // namespace

void CallcountServers::start_for(const CallRow& row) {
  const std::string key = key_of(row);
  if (servers_.count(key) != 0) return;
  ServerConfig cfg;
  cfg.threads = 1;
  if (row.family == rpc::Family::jsonrpc) {
    cfg.json_parser = row.adapter;
  } else {
    cfg.parser = row.adapter;
  }
  cfg.corpus_dir = corpus_dir_;
  // Deadlines far beyond any run, so the watchdog, armed once per connection, never fires
  // inside a window (a firing is a timer and a wake-up at a moment of the clock's choosing).
  // Keep-alive calls under the default deadlines follow the same path between firings.
  constexpr std::chrono::hours kNever{24};
  cfg.limits.header_timeout = cfg.limits.idle_timeout = cfg.limits.crowded_first_byte = kNever;
  cfg.request_deadline = kNever;
  auto server = std::make_unique<RpcServer>(cfg);
  server->on_request([this](const ServerTiming&) { on_request(); });
  server->start();
  servers_.emplace(key, std::move(server));
}

RpcServer& CallcountServers::server_for(const CallRow& row) { return *servers_.at(key_of(row)); }

void CallcountServers::arm(const std::string& name, long warmup, long calls) {
  const long now = served_.load(std::memory_order_acquire);
  name_ = name;
  closed_.store(false, std::memory_order_relaxed);
  end_at_.store(now + warmup + calls, std::memory_order_relaxed);
  begin_at_.store(now + warmup, std::memory_order_release);
}

bool CallcountServers::take(WindowCounts& counts) {
  if (!closed_.load(std::memory_order_acquire)) return false;
  counts = counts_;
  return true;
}

void CallcountServers::on_request() {
  const long n = served_.fetch_add(1, std::memory_order_acq_rel) + 1;
  const long begin_at = begin_at_.load(std::memory_order_acquire);
  if (n == begin_at) {
    window_.begin(name_);
  } else if (begin_at >= 0 && n == end_at_.load(std::memory_order_relaxed)) {
    counts_ = window_.end();
    closed_.store(true, std::memory_order_release);
  }
  plants_.on_server_request();
}

}  // namespace sb::bench
