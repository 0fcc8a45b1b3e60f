#include "harness/http_request.h"

#include <charconv>

#include "codecs/service_contract.h"

namespace sb {

std::optional<Url> parse_url(std::string_view s, std::string& error) {
  Url u;
  if (s.starts_with("http://")) {
    s.remove_prefix(7);
  } else if (s.starts_with("https://")) {
    s.remove_prefix(8);
    u.tls = true;
  } else {
    error = "URL must start with http:// or https://";
    return std::nullopt;
  }
  if (const std::size_t slash = s.find('/'); slash != std::string_view::npos) {
    if (slash + 1 != s.size()) {
      error = "URL must not have a path (the protocol chooses it)";
      return std::nullopt;
    }
    s = s.substr(0, slash);
  }
  u.authority = std::string(s);
  std::string_view port;
  if (s.starts_with('[')) {
    const std::size_t close = s.find(']');
    if (close == std::string_view::npos) {
      error = "unterminated IPv6 literal in URL";
      return std::nullopt;
    }
    u.host = std::string(s.substr(1, close - 1));
    s.remove_prefix(close + 1);
    if (s.starts_with(':'))
      port = s.substr(1);
    else if (!s.empty()) {
      error = "bad characters after the IPv6 literal in URL";
      return std::nullopt;
    }
  } else {
    const std::size_t colon = s.rfind(':');
    u.host = std::string(s.substr(0, colon));
    if (colon != std::string_view::npos) port = s.substr(colon + 1);
  }
  if (u.host.empty()) {
    error = "URL has no host";
    return std::nullopt;
  }
  if (port.empty()) {
    u.port = u.tls ? "443" : "80";
  } else {
    unsigned value = 0;
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || end != port.data() + port.size() || value == 0 || value > 65535) {
      error = "bad port in URL";
      return std::nullopt;
    }
    u.port = std::string(port);
  }
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
  out += rpc_path(h.family);
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
