// An RPC request's HTTP/1.1 framing: the endpoint URL's parts, the path each family is posted to
// and the request head. RpcClient and the load generator (harness/load/load_call.h) both write it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "codecs/family.h"

namespace sb {

// An endpoint's URL taken apart, "http://host:port/path?query" or "https://[v6]:port/…", as
// wrk, ab and Locust take it; parsed once, it addresses every request.
struct Url {
  bool tls = false;       // https
  std::string host;       // without brackets
  std::string port;       // decimal (80 or 443 when the URL has none)
  std::string authority;  // Host header value, as written in the URL
  std::string path;       // path and query as written ("/ws/orders"); empty: the URL has none

  // The request target: the URL's path, or without one the family's path (rpc_path).
  std::string_view target(rpc::Family f) const;
};

// The URL's parts; nullopt and `error` set when it is not an http(s) URL with a host (a fragment
// is dropped; credentials, and spaces or control characters in the path, are refused).
std::optional<Url> parse_url(std::string_view s, std::string& error);

// The path a family is posted to on `soapbench serve`: /RPC2, /jsonrpc or /soap.
std::string_view rpc_path(rpc::Family f);

// SOAPAction (SOAP 1.2: action) of an operation: its namespace '#' its name, as the WSDL says.
std::string soap_action(std::string_view method);

// What the head of one request says.
struct RequestHead {
  rpc::Family family = rpc::Family::xmlrpc;  // chooses Content-Type and the action header
  std::string_view target;                   // request target (Url::target)
  std::string_view authority;                // Host header value
  std::string_view action;                   // SOAP only: soap_action(method)
  std::string_view server_parser;            // sent as X-Parser when not empty
  bool keep_alive = true;                    // false: Connection: close
  std::size_t body_size = 0;                 // Content-Length
};

// Appends the POST request head (through the blank line) to `out`.
void append_request_head(std::string& out, const RequestHead& h);

}  // namespace sb
