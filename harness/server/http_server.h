// RpcServer: the HTTP/1.1 server behind `soapbench serve` (Boost.Beast over Asio, OpenSSL for
// TLS). POST /RPC2 XML-RPC, POST /soap SOAP 1.1 (text/xml + SOAPAction) and 1.2
// (application/soap+xml), POST /jsonrpc JSON-RPC 2.0, GET /soap?wsdl the WSDL. The parser is
// chosen per server or per request (X-Parser header); answers are in the request's family.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "harness/server/server_config.h"

namespace sb {

class RpcServer {
 public:
  explicit RpcServer(ServerConfig config);
  ~RpcServer();  // stops and joins
  RpcServer(const RpcServer&) = delete;
  RpcServer& operator=(const RpcServer&) = delete;

  // Binds, listens and starts the I/O threads. Throws std::runtime_error with the reason.
  void start();
  // Stops accepting, closes connections, joins the threads. Idempotent.
  void stop();
  // Blocks until stop() (from a signal handler thread, say).
  void wait();

  // The bound port (after start()).
  std::uint16_t port() const;
  // "http://127.0.0.1:PORT" or "https://…" (what the WSDL advertises).
  std::string base_url() const;

  // Called on the serving thread for every RPC request, after encoding and before the
  // response is written: lets an in-process benchmark read server-side phases without
  // adding bytes to the wire. Set before start().
  void on_request(std::function<void(const ServerTiming&)> callback);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;  // Asio context, acceptor, threads, TLS context, sessions
};

}  // namespace sb
