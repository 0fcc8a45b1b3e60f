// The HTTP/1.1 rules every listener of the suite applies to a request before it serves or
// forwards it: `soapbench serve` (server/http_session.cpp) and `soapbench record`
// (record/proxy_connection.cpp) read requests through these same rules, so that a framing fix
// lands in both (docs/conformance.md "Hostile input and limits" lists them). The framing
// (Transfer-Encoding, RFC 9112 §6.1 and §6.3), Host (§3.2), the size of the head, of a chunk
// line and of the trailer section (§7.1), what a parse error is answered, the trailer fields
// (RFC 9110 §6.5: never merged into the header), the request target's forms (§3.2.1
// origin-form, §3.2.2 absolute-form), and what a forwarder removes (RFC 9110 §7.6.1). No I/O.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include <boost/beast/core/error.hpp>
#include <boost/beast/http/fields.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/status.hpp>

namespace sb::listener {

// Shorthands for the listeners' files.
namespace beast = boost::beast;
namespace http = beast::http;

// The request line and header fields, at most (Beast's parser stops there): beyond, 431.
constexpr std::size_t kHeaderLimit = 16 * 1024;
// A chunk's size line with its extensions, at most: beyond, 400.
constexpr std::size_t kChunkLineLimit = 4 * 1024;
// The trailer section after the last chunk, at most: beyond, 431.
constexpr std::size_t kTrailerLimit = 16 * 1024;

// Why a request is refused: the status answered before the connection is closed.
struct Refusal {
  http::status status;    // 400, 413, 431 or 501
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

// What a parse error is answered: a body over the limit 413, a head over kHeaderLimit 431,
// anything else (not HTTP, a malformed line or field, a bad chunk) 400.
Refusal parse_refusal(beast::error_code ec);

// The bytes a parser left unparsed while it waits for more, once the header is done: only a
// chunked body's framing waits so (a chunk line, or the last chunk and the trailer section, are
// parsed only when complete). A chunk line over kChunkLineLimit: 400; a trailer section over
// kTrailerLimit: 431; nullopt while within both. Without this a client could fill the buffer.
std::optional<Refusal> check_unparsed(std::string_view unparsed);

// The trailer fields of a chunked request (RFC 9110 §6.5.1): Beast's parser adds them to the
// message's fields; they are dropped, never taken as header fields (a trailing X-Parser would
// otherwise choose the parser, or be forwarded in the header).
class TrailerFilter {
 public:
  // The header is complete: the fields it holds are the header's.
  void note_header(const http::fields& fields);
  // The message is complete: removes every field added since note_header().
  void drop_trailers(http::fields& fields);

 private:
  std::vector<const void*> header_;  // the header's fields, by address
  bool noted_ = false;               // note_header() ran for this message
};

// The origin-form of a request target: "/path?query" as written, or the path and query of an
// absolute-form target ("http://host:port/path?query" → "/path?query"; no path → "/"). Any
// other form is returned as it is (routing then finds no such path).
std::string_view origin_target(std::string_view target);

// Removes what concerns one connection only before a message is forwarded on another (RFC 9110
// §7.6.1): Connection and every field it lists, Keep-Alive, Proxy-Connection, TE, Trailer,
// Upgrade, Expect. The framing fields (Content-Length, Transfer-Encoding) stay, listed or not:
// the forwarder sets them from what it parsed.
void remove_hop_by_hop(http::fields& fields);

}  // namespace sb::listener
