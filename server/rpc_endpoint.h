// RpcEndpoint: what RpcServer answers to one complete HTTP request. Routing by path and method,
// the RPC path (decode → dispatch → encode, in the request's family), the getChain passthrough,
// the WSDL and plain-text refusals. No I/O: server/http_session.cpp reads the request and writes
// what this builds. Every failure inside an RPC is a protocol fault in the request's family.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/ip/tcp.hpp>

#include "codecs/jsonrpc_id.h"
#include "codecs/value.h"
#include "harness/service.h"
#include "server/response_body.h"
#include "server/server_config.h"

namespace sb {

class Adapter;

namespace server_detail {

// What handle() decided beyond the response itself.
struct Outcome {
  std::chrono::milliseconds delay{0};  // respond(…, delay): wait before writing
};

struct Worker;    // a pool thread's adapters, encoders and buffers (rpc_endpoint.cpp)
struct Exchange;  // one RPC request in progress, shared by rpc()'s steps (rpc_endpoint.cpp)

class RpcEndpoint {
 public:
  // Answers as `config` says; config must outlive the endpoint.
  explicit RpcEndpoint(const ServerConfig& config);
  ~RpcEndpoint();
  RpcEndpoint(const RpcEndpoint&) = delete;
  RpcEndpoint& operator=(const RpcEndpoint&) = delete;

  // Throws std::runtime_error when the configured parsers or encoder are unknown or a parser
  // reads the other format.
  void check_config() const;
  // Reads the stored getChain documents; families without one are named on stderr (they answer
  // getChain with fault -32603).
  void load_chain();
  // Records where the server listens (base_url() and the WSDL name it).
  void serve_at(const net::ip::address& address, std::uint16_t port);
  // "http://address:port" or "https://…" (after serve_at()).
  const std::string& base_url() const { return base_url_; }
  // Sets the callback run for every RPC request after encoding (before the threads start).
  void on_request(std::function<void(const ServerTiming&)> callback);

  // Makes one Worker per pool thread (before the threads start).
  void make_workers(unsigned n);
  // Binds the calling pool thread to worker i and makes its adapters and encoders now, so that
  // no request's timing includes them.
  void enter_thread(unsigned i);
  // Unbinds the calling pool thread.
  void leave_thread();

  // Builds the response to one complete request (on a pool thread that entered).
  Outcome handle(const Request& req, Response& res, const net::ip::tcp::endpoint& local);

 private:
  // Where an RPC request was posted.
  enum class Route { xmlrpc, soap, jsonrpc };

  // Serves a POST to an RPC path: rpc()'s steps follow.
  Outcome rpc(Route route, const Request& req, Response& res);
  // The request's protocol, first answer family and parser name, from path, headers and config.
  void classify(Route route, Exchange& x) const;
  // Answers 400 with an invalid-request fault: the X-Parser adapter is missing or reads the
  // other format.
  void refuse_parser(Exchange& x, bool missing) const;
  // Decodes, then answers with a fault, the getChain passthrough or the service's response.
  void answer(Exchange& x, Adapter& adapter);
  // A JSON-RPC 2.0 batch (its §6): one array answering the members in member order, each with
  // its id, none for a notification, an error object for a bad member; 204 and no body when
  // every member is a notification; a single error (id null) when the body is not a JSON array
  // (parse error), is empty, or holds more than Limits::max_members messages (invalid request).
  void answer_batch(Exchange& x, Adapter& adapter);
  // The members' answers, written into x.res; or the fault answering the batch as a whole when a
  // member is not JSON (so neither is the batch: a parse error, JSON-RPC 2.0 §6).
  std::optional<rpc::Message> answer_members(Exchange& x, Adapter& adapter,
                                             const std::vector<std::string_view>& members);
  // One member decoded, answered and encoded into `out` (replaced); false for a notification
  // (nothing to send). `fault` is set instead when the member is not JSON.
  bool answer_member(Exchange& x, Adapter& adapter, std::string_view member, std::string& out,
                     std::optional<rpc::Message>& fault);
  // Decodes the body into the worker's message (and reads the JSON-RPC id); a fault to answer
  // with when the request is not a well-formed call.
  std::optional<rpc::Message> decode(Exchange& x, Adapter& adapter) const;
  // The stored getChain bytes sent as they are (XML) or in a fresh envelope with the request's
  // id (JSON-RPC): nothing is decoded or re-serialized.
  void pass_chain(Exchange& x) const;
  // Calls the service and encodes its response.
  void dispatch(Exchange& x) const;
  // encode_reply(), timed into x.timing.encode_ns.
  void reply(Exchange& x, const rpc::Message& m) const;
  // Runs the on_request callback and adds the Server-Timing header (when configured).
  void finish(Exchange& x) const;
  // Writes m in family f into res (status, content type, body); JSON-RPC echoes id.
  void encode_reply(Worker& w, const rpc::Message& m, rpc::Family f, const rpc::JsonRpcId& id,
                    Response& res) const;
  // The WSDL, naming the address the request came to when bound to any address.
  void wsdl(Response& res, const net::ip::tcp::endpoint& local) const;

  const ServerConfig& config_;                         // the server's (threads resolved)
  std::function<void(const ServerTiming&)> callback_;  // on_request, set before start()
  Service service_;                                    // the dispatcher
  std::array<std::string, 6> chain_;                   // stored getChain bytes per family
  std::string_view chain_json_result_;                 // the "result" value inside chain_[jsonrpc]
  std::string wsdl_;                              // the WSDL for base_url_ (bound to an address)
  bool bound_any_ = false;                        // bound to 0.0.0.0/::: WSDL per local address
  std::uint16_t port_ = 0;                        // the bound port
  std::string base_url_;                          // http(s)://address:port
  std::vector<std::unique_ptr<Worker>> workers_;  // one per pool thread
};

}  // namespace server_detail
}  // namespace sb
