#include "listener/request_rules.h"

#include <algorithm>
#include <string>

#include <boost/beast/core/string.hpp>
#include <boost/beast/http/error.hpp>

namespace sb::listener {

namespace {

// Optional whitespace (RFC 9110 §5.6.3) trimmed from both ends.
std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// What the Transfer-Encoding fields list, all of them in order (RFC 9112 §6.1).
struct Codings {
  std::size_t count = 0;        // codings listed
  std::string_view last;        // the final one's name
  bool chunked_before = false;  // chunked before the final coding
  bool other_before = false;    // another coding before the final one
};

// The codings of every Transfer-Encoding field (a list; empty elements skipped, parameters
// after ';' ignored).
Codings transfer_codings(const http::request_header<>& head) {
  Codings c;
  const auto [first, last] = head.equal_range(http::field::transfer_encoding);
  for (auto field = first; field != last; ++field) {
    std::string_view rest(field->value().data(), field->value().size());
    while (!rest.empty()) {
      const std::size_t comma = rest.find(',');
      const std::string_view element = rest.substr(0, comma);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      const std::string_view name = trim(element.substr(0, element.find(';')));
      if (name.empty()) continue;
      if (c.count++ > 0)
        (beast::iequals(c.last, "chunked") ? c.chunked_before : c.other_before) = true;
      c.last = name;
    }
  }
  return c;
}

// The framing rules of §6.1 and §6.3 for a request that has a Transfer-Encoding field.
std::optional<Refusal> check_transfer_encoding(const http::request_header<>& head) {
  if (head.version() < 11) {
    return Refusal{http::status::bad_request, "Transfer-Encoding in an HTTP/1.0 request"};
  }
  if (head.count(http::field::content_length) > 0) {
    return Refusal{http::status::bad_request, "both Transfer-Encoding and Content-Length"};
  }
  const Codings c = transfer_codings(head);
  if (c.count == 0 || !beast::iequals(c.last, "chunked") || c.chunked_before) {
    return Refusal{http::status::bad_request,
                   "Transfer-Encoding must end in chunked, applied once"};
  }
  if (c.other_before) {
    return Refusal{http::status::not_implemented,
                   "transfer coding not implemented (only chunked is)"};
  }
  return std::nullopt;
}

// A Host value: uri-host [ ":" port ] (RFC 9110 §7.2), checked by its characters (reg-name,
// IP literal in brackets, port digits); empty is allowed (a target without authority).
bool valid_host(std::string_view v) {
  for (const char ch : v) {
    const auto c = static_cast<unsigned char>(ch);
    const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!alnum && std::string_view("-._~!$&'()*+,;=:[]%").find(ch) == std::string_view::npos) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<Refusal> check_request_head(const http::request_header<>& head) {
  if (head.count(http::field::transfer_encoding) > 0) {
    if (std::optional<Refusal> r = check_transfer_encoding(head)) return r;
  }
  const std::size_t hosts = head.count(http::field::host);
  if (head.version() >= 11 && hosts == 0) {
    return Refusal{http::status::bad_request, "an HTTP/1.1 request needs a Host field"};
  }
  if (hosts > 1) return Refusal{http::status::bad_request, "more than one Host field"};
  if (hosts == 1) {
    const auto value = head[http::field::host];
    if (!valid_host(std::string_view(value.data(), value.size()))) {
      return Refusal{http::status::bad_request, "invalid Host field"};
    }
  }
  return std::nullopt;
}

Refusal parse_refusal(beast::error_code ec) {
  if (ec == http::error::body_limit)
    return {http::status::payload_too_large, "request body too large"};
  if (ec == http::error::header_limit) {
    return {http::status::request_header_fields_too_large, "request header too large"};
  }
  return {http::status::bad_request, "malformed request"};
}

std::optional<Refusal> check_unparsed(std::string_view unparsed) {
  if (unparsed.size() <= kChunkLineLimit) return std::nullopt;
  // Beast parses the CRLF that ends a chunk's data with the next chunk's line.
  std::string_view line = unparsed;
  if (line.starts_with("\r\n")) line.remove_prefix(2);
  const std::size_t eol = line.find("\r\n");
  if (eol == std::string_view::npos || eol > kChunkLineLimit) {
    return Refusal{http::status::bad_request, "chunk line too long (size and extensions)"};
  }
  // A whole line the parser still waits after is the last chunk's: the trailer section follows.
  if (line.size() - eol - 2 > kTrailerLimit) {
    return Refusal{http::status::request_header_fields_too_large, "trailer section too large"};
  }
  return std::nullopt;
}

void TrailerFilter::note_header(const http::fields& fields) {
  header_.clear();
  for (const auto& f : fields) header_.push_back(&f);
  std::sort(header_.begin(), header_.end());
  noted_ = true;
}

void TrailerFilter::drop_trailers(http::fields& fields) {
  if (!noted_) return;
  noted_ = false;
  if (static_cast<std::size_t>(std::distance(fields.begin(), fields.end())) == header_.size()) {
    return;  // no trailer (the usual case): nothing to look up
  }
  for (auto it = fields.begin(); it != fields.end();) {
    const void* address = &*it;
    it = std::binary_search(header_.begin(), header_.end(), address) ? std::next(it)
                                                                     : fields.erase(it);
  }
}

std::string_view origin_target(std::string_view target) {
  std::size_t scheme = 0;
  if (target.size() >= 7 && beast::iequals(target.substr(0, 7), "http://")) {
    scheme = 7;
  } else if (target.size() >= 8 && beast::iequals(target.substr(0, 8), "https://")) {
    scheme = 8;
  } else {
    return target;
  }
  const std::size_t end = target.find_first_of("/?", scheme);  // the authority's end
  if (end == std::string_view::npos) return "/";
  return target.substr(end);  // "http://h?q" keeps "?q": an empty path, never routed
}

void remove_hop_by_hop(http::fields& fields) {
  // One pass over the fields (a lookup by name per hop-by-hop field cost more than the pass).
  std::vector<std::string> listed;  // the field names a Connection header lists
  for (auto f = fields.begin(); f != fields.end();) {
    switch (f->name()) {
      case http::field::connection:
        for (std::string_view rest(f->value().data(), f->value().size()); !rest.empty();) {
          const std::size_t comma = rest.find(',');
          const std::string_view name = trim(rest.substr(0, comma));
          rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
          if (!name.empty() && !beast::iequals(name, "close") &&
              !beast::iequals(name, "keep-alive")) {
            listed.emplace_back(name);
          }
        }
        [[fallthrough]];
      case http::field::keep_alive:
      case http::field::proxy_connection:
      case http::field::te:
      case http::field::trailer:
      case http::field::upgrade:
      case http::field::expect:
        f = fields.erase(f);
        break;
      default:
        ++f;
    }
  }
  for (const std::string& name : listed) {
    if (beast::iequals(name, "content-length") || beast::iequals(name, "transfer-encoding")) {
      continue;  // the framing: set again by the forwarder
    }
    fields.erase(name);
  }
}

}  // namespace sb::listener
