// The HTTP/1.1 rules RpcServer enforces on a request's head before it reads any body
// (docs/conformance.md "Hostile input and limits" lists them): the message framing
// (Transfer-Encoding, RFC 9112 §6.1 and §6.3) and Host (§3.2); and the request target's forms
// (§3.2.1 origin-form, §3.2.2 absolute-form). No I/O: server/http_session.cpp applies the checks,
// server/rpc_endpoint.cpp routes by origin_target().
#pragma once

#include <optional>
#include <string_view>

#include "server/response_body.h"

namespace sb::server_detail {

// Why a request head is refused: the status answered before the connection is closed.
struct Refusal {
  http::status status;    // 400 or 501
  std::string_view text;  // the plain-text body, one line
};

// Checks a request head whose fields the parser accepted (Beast itself refuses Content-Length
// with chunked, a malformed Content-Length, and chunked twice in separate fields):
// - Transfer-Encoding in an HTTP/1.0 request, or beside Content-Length: 400 (§6.1, §6.3);
// - Transfer-Encoding whose last coding is not chunked, or chunked more than once: 400 (§6.1);
// - a transfer coding before chunked (gzip, identity, …; none is implemented): 501 (§6.1,
//   RFC 9110 §15.6.2);
// - HTTP/1.1 without Host, with more than one Host, or with an invalid Host value: 400 (§3.2).
// nullopt when the head may be served.
std::optional<Refusal> check_request_head(const http::request_header<>& head);

// The origin-form of a request target: "/path?query" as written, or the path and query of an
// absolute-form target ("http://host:port/path?query" → "/path?query"; no path → "/"). Any
// other form is returned as it is (routing then finds no such path).
std::string_view origin_target(std::string_view target);

}  // namespace sb::server_detail
