// The recording proxy's client connections (record/proxy_connection.cpp), for RecordProxy
// (record/record_proxy.cpp): what they share, and starting one.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "record/record_proxy.h"
#include "record/upstream_link.h"

namespace sb::record_detail {

using ProxyClock = std::chrono::steady_clock;

// What every connection of one proxy shares, read-only but for the counters.
struct ProxyShared {
  const RecordConfig& config;               // limits, timeouts, the upstream's URL
  UpstreamPlace upstream;                   // the upstream's addresses and TLS context
  RecordWriter* writer;                     // null: forward only
  ProxyClock::time_point t0;                // the recording's start
  std::atomic<std::uint64_t> forwarded{0};  // answers passed back
  std::atomic<std::uint64_t> failed{0};     // requests answered 502/504 by the proxy
  std::atomic<std::uint64_t> cut{0};        // answers broken off after their header went on
  std::atomic<std::uint64_t> clients{0};    // client connections accepted

  // µs since t0.
  std::int64_t us_since_start() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(ProxyClock::now() - t0).count();
  }
};

// Serves an accepted client connection until it closes (or the io_context stops).
void serve_client(ProxySocket socket, ProxyShared& shared);

}  // namespace sb::record_detail
