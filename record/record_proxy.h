// RecordProxy: the recording reverse proxy behind `soapbench record` (Boost.Beast over Asio,
// OpenSSL for an https upstream). A request is read under the same rules as `soapbench serve`
// reads it (listener/: framing, Host, sizes, deadlines, connection cap; refused 400, 413, 431,
// 501 or 503 by the proxy itself) and forwarded to the upstream service as exactly the one
// request the proxy understood: its hop-by-hop fields removed, its framing set again, its
// trailer dropped. The answer goes back to the client, bodies unchanged (keep-alive both ways;
// bodies streamed through in pieces of 64 KB at most, chunked or with a Content-Length as they
// came); each request with a body and its answer go to a RecordWriter
// (record/record_writer.h), copied while the recording's byte bound, shared by every exchange
// in flight, allows. An upstream that cannot be reached, or closes or breaks before the first piece
// of its answer, is answered 502 (504 when it is too slow) with a one-line body saying why; one
// that breaks off later has the client's connection closed (its answer's header is already out).
// Nothing is recorded for either.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "client/http_request.h"
#include "listener/listener_limits.h"
#include "record/record_writer.h"

namespace sb {

struct RecordConfig {
  std::string listen_address = "127.0.0.1";            // IPv4 or IPv6 literal
  std::uint16_t listen_port = 0;                       // 0: an ephemeral port (see url())
  Url upstream;                                        // the service; its path prefixes targets
  bool verify_peer = false;                            // https upstream: check its certificate
  std::uint64_t max_body_bytes = 0;                    // 0: any; larger requests 413, answers 502
  std::chrono::milliseconds upstream_timeout{30'000};  // connect, write, read an answer, and
                                                       // each read of a request's body: each
  ListenerLimits limits;  // the client side's deadlines and connection cap (as serve's)
};

// What the proxy did so far (read from any thread).
struct RecordCounts {
  std::uint64_t forwarded = 0;  // answers from the upstream passed back
  std::uint64_t failed = 0;     // requests answered 502/504 by the proxy
  std::uint64_t cut = 0;        // answers the upstream broke off once their header was passed on
  std::uint64_t clients = 0;    // client connections accepted
  std::uint64_t refused = 0;    // requests refused by the listener's rules (400, 413, 431, 501,
                                // 503 over the connection cap)
};

class RecordProxy {
 public:
  // Forwards as `config` says and records through `writer` (may be null: forward only); the
  // writer must outlive the proxy.
  RecordProxy(RecordConfig config, RecordWriter* writer);
  ~RecordProxy();  // stops and joins
  RecordProxy(const RecordProxy&) = delete;
  RecordProxy& operator=(const RecordProxy&) = delete;

  // Resolves the upstream, binds, listens and starts the proxy's thread. Throws
  // std::runtime_error with the reason.
  void start();
  // Stops accepting, drops every connection, joins. Idempotent.
  void stop();
  // http://address:port of the listening socket (after start()).
  std::string url() const;
  RecordCounts counts() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;  // io_context, acceptor, TLS context, counters, thread
};

// The target sent upstream for a client's `target`: the upstream URL's path (without a trailing
// '/') before it; "/" alone becomes the path itself. Unchanged when the URL has no path.
std::string upstream_target(const Url& upstream, std::string_view target);

}  // namespace sb
