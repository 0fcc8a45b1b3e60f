// RecordProxy: the recording reverse proxy behind `soapbench record` (Boost.Beast over Asio,
// OpenSSL for an https upstream). Every request is forwarded to the upstream service and its
// answer back to the client, bodies unchanged (keep-alive both ways; bodies streamed through in
// pieces of 64 KB at most, chunked or with a Content-Length as they came); each request with a
// body and its answer go to a RecordWriter (record/record_writer.h), copied up to what it may
// still keep. An upstream that cannot be reached, or closes or breaks before the first piece of
// its answer, is answered 502 (504 when it is too slow) with a one-line body saying why; one that
// breaks off later has the client's connection closed (its answer's header is already out).
// Nothing is recorded for either.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "client/http_request.h"
#include "record/record_writer.h"

namespace sb {

struct RecordConfig {
  std::string listen_address = "127.0.0.1";            // IPv4 or IPv6 literal
  std::uint16_t listen_port = 0;                       // 0: an ephemeral port (see url())
  Url upstream;                                        // the service; its path prefixes targets
  bool verify_peer = false;                            // https upstream: check its certificate
  std::uint64_t max_body_bytes = 0;                    // 0: any; larger requests 413, answers 502
  std::chrono::milliseconds upstream_timeout{30'000};  // connect, write, read an answer: each
  std::chrono::milliseconds idle_timeout{60'000};      // a client connection may idle this long
};

// What the proxy did so far (read from any thread).
struct RecordCounts {
  std::uint64_t forwarded = 0;  // answers from the upstream passed back
  std::uint64_t failed = 0;     // requests answered 502/504 by the proxy
  std::uint64_t cut = 0;        // answers the upstream broke off once their header was passed on
  std::uint64_t clients = 0;    // client connections accepted
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
