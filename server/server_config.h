// ServerConfig (what `soapbench serve` and the benchmarks set up a server with) and ServerTiming
// (what it measured for one request): apart from RpcServer so the connection and endpoint code
// (http_session.h, rpc_endpoint.h) reads them without including the server that includes it.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "codecs/family.h"
#include "listener/listener_limits.h"
#include "parsers/registry.h"

namespace sb {

struct ServerConfig {
  std::string address = "127.0.0.1";             // listen address (IPv4 or IPv6 literal)
  std::uint16_t port = 0;                        // 0: an ephemeral port (see RpcServer::port())
  unsigned threads = 0;                          // I/O threads; 0: one per core
  std::string parser{kDefaultXmlAdapter};        // XML adapter unless X-Parser says otherwise
  std::string json_parser{kDefaultJsonAdapter};  // JSON adapter unless X-Parser says otherwise
  std::string encoder = "direct";                // harness/encoders.h row used for responses
  bool tls = false;                              // serve HTTPS
  std::filesystem::path cert_file;   // PEM certificate; empty with tls: self-signed at start
  std::filesystem::path key_file;    // PEM private key for cert_file
  std::filesystem::path corpus_dir;  // getChain documents (empty: default_corpus_dir())
  bool server_timing = false;        // add a Server-Timing header (decode, dispatch, encode)
  // Limits (the hostile-input work tunes and tests them; the deadlines and the connection cap
  // are every listener's, `soapbench record`'s too).
  std::size_t max_body_bytes = 8 * 1024 * 1024;        // larger bodies get 413
  std::chrono::milliseconds request_deadline{10'000};  // body read + decode + dispatch + write
  ListenerLimits limits;                               // header and idle deadlines, connections
  // Answers written but not yet taken by their clients, in all: while more wait, new requests
  // get 503, so clients that do not read their answers cannot make the server hold them without
  // bound (each answer is at most rpc::kMaxAnswerBytes beyond the request's own size).
  std::size_t max_queued_answer_bytes = 256 * 1024 * 1024;
};

// What the server measured for one request, where it happened.
struct ServerTiming {
  std::int64_t decode_ns = 0;    // request body → rpc::Message (the adapter's decode level)
  std::int64_t dispatch_ns = 0;  // the service call
  std::int64_t encode_ns = 0;    // response rpc::Message → body
  rpc::Family family = rpc::Family::xmlrpc;  // the request's family
  std::string parser;                        // adapter used
};

}  // namespace sb
