// The binary control over raw TCP: the same sb::Service behind frames of
// harness/binary/binary_codec.h (u32 little-endian length + payload), no HTTP and no markup. Its
// calls report the same CallResult as RpcClient, so the round-trip benchmark prints it as one more
// row.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "codecs/value.h"
#include "harness/binary/binary_codec.h"
#include "harness/client/http_client.h"

namespace sb {

struct BinaryServerConfig {
  std::string address = "127.0.0.1";        // listen address (IPv4 or IPv6 literal)
  std::uint16_t port = 0;                   // 0: an ephemeral port (see BinaryServer::port())
  std::filesystem::path corpus_dir;         // getChain document (empty: default_corpus_dir())
  std::size_t max_frame = kBinaryMaxFrame;  // larger frames: a fault, then the connection closes
  std::chrono::milliseconds idle_timeout{30'000};  // a connection silent this long is closed
};

// An asynchronous raw-TCP server on one I/O thread (Asio), TCP_NODELAY on every connection.
// getChain is answered with a pre-encoded frame: the corpus's getChain response decoded once at
// start() and binary-encoded once, then written unchanged, as the HTTP server passes its stored
// document through. Without a corpus the Service answers (an internal-error fault).
class BinaryServer {
 public:
  // Configures only; start() binds and serves.
  explicit BinaryServer(BinaryServerConfig config);
  ~BinaryServer();  // stops and joins
  BinaryServer(const BinaryServer&) = delete;
  BinaryServer& operator=(const BinaryServer&) = delete;

  // Binds, listens and starts the I/O thread. Throws std::runtime_error with the reason.
  void start();
  // Stops accepting, closes connections, joins the thread. Idempotent.
  void stop();
  // The bound port (after start()).
  std::uint16_t port() const;
  // Whether getChain is served from the pre-encoded corpus document.
  bool has_chain_document() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;  // Asio context, acceptor, thread, pre-encoded getChain frame
};

struct BinaryClientConfig {
  std::string host = "127.0.0.1";                // server address or name
  std::uint16_t port = 0;                        // server port
  bool keep_alive = true;                        // reuse one connection; false: a new one per call
  std::chrono::milliseconds io_timeout{30'000};  // connect, write and read each
  std::size_t max_frame = kBinaryMaxFrame;       // larger response frames are an error
};

// A synchronous client: encode (binary_codec), one write of header + payload, read one frame,
// decode. CallResult.http_status stays 0 and tls_resumed false; timings and wire bytes (TCP_INFO
// deltas, a new connection's bytes in its call) mean what they mean for RpcClient.
class BinaryClient {
 public:
  // Configures only; the first call connects (and resolves the host, once).
  explicit BinaryClient(BinaryClientConfig config);
  ~BinaryClient();
  BinaryClient(const BinaryClient&) = delete;
  BinaryClient& operator=(const BinaryClient&) = delete;

  // One call; errors come back as CallResult.ok == false with a one-line reason, never thrown.
  CallResult call(const rpc::Message& request);
  // Closes the connection (the next call reconnects).
  void close();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;  // Asio context, socket, buffers, wire meter
};

}  // namespace sb
