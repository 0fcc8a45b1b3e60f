#include "harness/client/http_request.h"

#include <charconv>

#include "codecs/service_contract.h"

namespace sb {

namespace {

// The scheme's length when s starts with "http://" or "https://" (any case), else 0.
std::size_t scheme_length(std::string_view s, bool& tls) {
  auto starts = [s](std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
      const char c = s[i] >= 'A' && s[i] <= 'Z' ? static_cast<char>(s[i] - 'A' + 'a') : s[i];
      if (c != prefix[i]) return false;
    }
    return true;
  };
  tls = starts("https://");
  return tls ? 8 : starts("http://") ? 7 : 0;
}

// Takes "host", "host:port", "[v6]" or "[v6]:port" apart into u; false with `error` set.
bool parse_authority(std::string_view s, Url& u, std::string& error) {
  if (s.find('@') != std::string_view::npos) {
    error = "URL must not carry credentials (user@host)";
    return false;
  }
  u.authority = std::string(s);
  std::string_view port;
  if (s.starts_with('[')) {
    const std::size_t close = s.find(']');
    if (close == std::string_view::npos) {
      error = "unterminated IPv6 literal in URL";
      return false;
    }
    u.host = std::string(s.substr(1, close - 1));
    s.remove_prefix(close + 1);
    if (s.starts_with(':')) {
      port = s.substr(1);
    } else if (!s.empty()) {
      error = "bad characters after the IPv6 literal in URL";
      return false;
    }
  } else {
    const std::size_t colon = s.rfind(':');
    u.host = std::string(s.substr(0, colon));
    if (colon != std::string_view::npos) port = s.substr(colon + 1);
  }
  if (u.host.empty()) {
    error = "URL has no host";
    return false;
  }
  if (port.empty()) {
    u.port = u.tls ? "443" : "80";
    return true;
  }
  unsigned value = 0;
  auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (ec != std::errc() || end != port.data() + port.size() || value == 0 || value > 65535) {
    error = "bad port in URL";
    return false;
  }
  u.port = std::string(port);
  return true;
}

}  // namespace

std::string_view Url::target(rpc::Family f) const {
  return path.empty() ? rpc_path(f) : std::string_view(path);
}

std::optional<Url> parse_url(std::string_view s, std::string& error) {
  Url u;
  const std::size_t scheme = scheme_length(s, u.tls);
  if (scheme == 0) {
    error = "URL must start with http:// or https://";
    return std::nullopt;
  }
  s.remove_prefix(scheme);
  s = s.substr(0, s.find('#'));  // a fragment is the client's, never sent
  const std::size_t end = s.find_first_of("/?");
  if (!parse_authority(s.substr(0, end), u, error)) return std::nullopt;
  if (end == std::string_view::npos) return u;
  const std::string_view rest = s.substr(end);
  for (const char c : rest) {
    if (static_cast<unsigned char>(c) <= 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
      error = "URL path has a space, control or non-ASCII character (percent-encode it)";
      return std::nullopt;
    }
  }
  u.path = rest.starts_with('?') ? "/" + std::string(rest) : std::string(rest);
  return u;
}

std::string_view rpc_path(rpc::Family f) {
  switch (f) {
    case rpc::Family::xmlrpc:
      return "/RPC2";
    case rpc::Family::jsonrpc:
      return "/jsonrpc";
    default:
      return "/soap";
  }
}

std::string soap_action(std::string_view method) {
  const rpc::Operation* op = rpc::service_contract().find(method);
  return std::string(op != nullptr ? op->ns : rpc::ns::service) + "#" + std::string(method);
}

void append_request_head(std::string& out, const RequestHead& h) {
  out += "POST ";
  out += h.target;
  out += " HTTP/1.1\r\nHost: ";
  out += h.authority;
  out += "\r\nUser-Agent: soapbench\r\n";
  if (h.family == rpc::Family::jsonrpc) {
    out += "Content-Type: application/json\r\nAccept: application/json\r\n";
  } else if (h.family == rpc::Family::xmlrpc) {
    out += "Content-Type: text/xml\r\n";
  } else if (h.family == rpc::Family::soap12_doc_literal) {
    out += "Content-Type: application/soap+xml; charset=utf-8; action=\"";
    out += h.action;
    out += "\"\r\n";
  } else {
    out += "Content-Type: text/xml; charset=utf-8\r\nSOAPAction: \"";
    out += h.action;
    out += "\"\r\n";
  }
  if (!h.server_parser.empty()) {
    out += "X-Parser: ";
    out += h.server_parser;
    out += "\r\n";
  }
  if (!h.keep_alive) out += "Connection: close\r\n";
  out += "Content-Length: ";
  out += std::to_string(h.body_size);
  out += "\r\n\r\n";
}

}  // namespace sb
