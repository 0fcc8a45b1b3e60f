// RpcClient: a synchronous HTTP/1.1 client for all four protocol families (Boost.Beast,
// OpenSSL), measuring each call's phases and its bytes on the wire.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "client/jsonrpc_batch.h"
#include "codecs/family.h"
#include "codecs/service_contract.h"
#include "codecs/value.h"
#include "parsers/registry.h"

namespace sb {

struct ClientConfig {
  std::string url;  // the endpoint, http(s)://host:port[/path] (no path: rpc_path(family))
  rpc::Family family = rpc::Family::xmlrpc;  // what to speak
  std::string parser{kDefaultXmlAdapter};    // adapter decoding responses (a JSON one for jsonrpc)
  std::string encoder = "direct";            // harness/encoders.h row writing requests
  std::string server_parser;                 // sent as X-Parser when not empty
  bool keep_alive = true;                    // reuse one connection; false: a new one per call
  bool tls_resume = true;    // with https and a new connection per call: resume the session
  bool verify_peer = false;  // verify the server certificate (self-signed: off)
  std::string json_parser{kDefaultJsonAdapter};        // jsonrpc when `parser` is an XML adapter
  std::chrono::milliseconds io_timeout{30'000};        // connect, handshake, write, read: each
  std::size_t max_response_bytes = 256 * 1024 * 1024;  // larger response bodies are an error
  std::function<void(std::string&)> rewrite_body;      // edits each request body (interop's
                                                       // malformed request); none by default
  // Types SOAP requests and responses and gives each operation's SOAPAction (a user's WSDL,
  // `soapbench call --wsdl`); nullptr: the service contract. Must outlive the client.
  const rpc::Contract* contract = nullptr;
};

struct CallTiming {
  std::int64_t encode_ns = 0;  // request Message → body
  std::int64_t total_ns = 0;   // encode start → decode end
  std::int64_t decode_ns = 0;  // response body → Message
};

struct WireBytes {
  // TCP payload bytes (client/wire_meter.h: no IP/TCP headers), TLS records and HTTP headers in.
  std::uint64_t sent = 0;      // bytes this call wrote to the TCP socket (acknowledged by the peer)
  std::uint64_t received = 0;  // bytes this call read from the TCP socket
};

struct CallResult {
  bool ok = false;            // a response or fault was decoded
  std::string error;          // transport or decode failure when !ok
  rpc::Message response;      // the decoded response or fault
  int http_status = 0;        // the HTTP status code
  CallTiming timing;          // client-side phases
  WireBytes wire;             // socket-level byte counts (TCP_INFO), incl. any handshake
  bool connected = false;     // this call opened a connection (TCP, and TLS if https)
  bool tls_resumed = false;   // that TLS handshake resumed a session
  std::string server_timing;  // the response's Server-Timing header, when the server sent one
};

class RpcClient {
 public:
  explicit RpcClient(ClientConfig config);
  ~RpcClient();
  RpcClient(const RpcClient&) = delete;
  RpcClient& operator=(const RpcClient&) = delete;

  // One call. For XML-RPC and JSON-RPC responses the decoder is told request.method.
  CallResult call(const rpc::Message& request);
  // A JSON-RPC 2.0 batch in one request (family jsonrpc; client/jsonrpc_batch.h): the members
  // with ids from the next one up, notifications without. `response` is a batch of the answers
  // to the members that are not notifications, in member order, each matched by its id and
  // typed as the answer to its member's method; or the one fault a server refuses a whole batch
  // with. An answer missing, given twice or to no member is an error (ok false).
  CallResult call_batch(const std::vector<BatchMember>& members);
  // Closes the connection (the next call reconnects).
  void close();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;  // Asio context, stream, buffers, encoder, adapter, TLS session
};

}  // namespace sb
