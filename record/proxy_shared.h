// What the recording proxy's parts share (record/record_proxy.cpp, the listener;
// proxy_connection.cpp, each client connection; upstream_link.cpp, each upstream connection):
// the executor and socket types, where the upstream is, the counters; and starting a connection.
// Kept free of Beast's HTTP headers, which only the connection files compile.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>

#include "listener/accept_loop.h"
#include "listener/connection_gate.h"
#include "record/record_proxy.h"

namespace sb::record_detail {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using boost::system::error_code;

// The proxy's executor: its one io_context, named by type (no any_io_executor, no strand: one
// thread runs every handler).
using ProxyExecutor = listener::ListenerExecutor;
// A socket on the proxy's io_context.
using ProxySocket = listener::ListenerSocket;
using Admission = listener::ConnectionGate::Admission;

// Where the upstream is and how to speak to it; shared by every link of one proxy.
struct UpstreamPlace {
  std::vector<tcp::endpoint> endpoints;   // its addresses, resolved once at start
  std::optional<asio::ssl::context> tls;  // https: the client context
  std::string host;                       // the URL's host (SNI, certificate check)
  bool verify_peer = false;               // https: check its certificate
};

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
  std::atomic<std::uint64_t> refused{0};    // requests refused by the listener's rules
  listener::ConnectionGate gate{};          // who is let in (the proxy's thread enters)

  // µs since t0.
  std::int64_t us_since_start() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(ProxyClock::now() - t0).count();
  }
};

// Serves an accepted client connection until it closes (or the io_context stops), as the gate
// admitted it (serve, or reject: 503).
void serve_client(ProxySocket socket, ProxyShared& shared, Admission admission);

}  // namespace sb::record_detail
