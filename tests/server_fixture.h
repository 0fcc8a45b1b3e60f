// What the server tests share: a small Beast client written here (not
// harness/client/http_client.h), plain and TLS, the calls and answers it sends, and an in-process
// RpcServer on 127.0.0.1:0.
#pragma once

#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/resource.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "codecs/canonical_json.h"
#include "codecs/service_contract.h"
#include "codecs/service_rules.h"
#include "codecs/wsdl.h"
#include "harness/corpus.h"
#include "harness/encoders.h"
#include "harness/server/http_server.h"
#include "harness/service.h"
#include "parsers/registry.h"

namespace sb::server_test {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using rpc::Family;
using rpc::Message;
using rpc::Value;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

inline constexpr auto kIoLimit = 10s;  // every client operation's deadline

// ---------------------------------------------------------------- messages

inline Message make_call(std::string method, std::vector<Value> params = {}) {
  Message m;
  m.kind = rpc::MessageKind::call;
  m.method = std::move(method);
  m.params = std::move(params);
  return m;
}

inline Value person(int id, std::string name, double weight, std::vector<Value> children = {}) {
  Value p = Value::structure();
  p.add_member("id", Value::integer(id));
  p.add_member("name", Value::string(std::move(name)));
  p.add_member("weight", Value::floating(weight));
  p.add_member("birthdate", Value::datetime("1998-07-17T14:08:55"));
  Value kids = Value::array();
  for (Value& c : children) kids.push(std::move(c));
  p.add_member("children", std::move(kids));
  return p;
}

// The request body of m in family f (the "direct" encoder).
inline std::string encode(const Message& m, Family f) {
  std::string out;
  const std::string error = encode_message("direct", m, f, out);
  EXPECT_EQ(error, "") << rpc::family_name(f) << " " << m.method;
  return out;
}

// Canonical JSON of a response body (method: for XML-RPC and JSON-RPC); *family: as detected.
inline std::string canonical(const std::string& body, Family f, const std::string& method,
                             Family* family = nullptr) {
  std::unique_ptr<Adapter> a = make_adapter(rpc::is_xml(f) ? "pugixml/dom" : "rapidjson/dom");
  MessageBuffer buffer(body);
  rpc::DecodeContext context;
  context.protocol = rpc::protocol_of(f);
  context.method = method;
  Message m;
  DecodeReport report;
  const Status s = a->decode(buffer, context, m, report);
  if (!s.ok()) return "undecodable response: " + s.describe() + ": " + body.substr(0, 300);
  if (family != nullptr) *family = report.family;
  return rpc::to_canonical_json(m);
}

inline std::string expected_response(const std::string& method, const Value& result) {
  std::string out = "{\"kind\":\"response\",\"method\":\"" + method + "\",\"result\":";
  rpc::append_canonical_json(out, result);
  return out + "}";
}

// ---------------------------------------------------------------- HTTP

// Path and content type of a family's requests.
inline std::string path_of(Family f) {
  return f == Family::xmlrpc ? "/RPC2" : f == Family::jsonrpc ? "/jsonrpc" : "/soap";
}
inline std::string content_type_of(Family f) {
  return f == Family::jsonrpc              ? "application/json"
         : f == Family::soap12_doc_literal ? "application/soap+xml; charset=utf-8"
                                           : "text/xml; charset=utf-8";
}

inline Request post(Family f, std::string body, const std::string& method = "",
                    const std::string& x_parser = "") {
  Request req{http::verb::post, path_of(f), 11};
  req.set(http::field::host, "127.0.0.1");
  req.set(http::field::content_type, content_type_of(f));
  if (rpc::is_soap(f) && f != Family::soap12_doc_literal) {
    req.set("SOAPAction", "\"urn:soapbench#" + method + "\"");
  }
  if (!x_parser.empty()) req.set("X-Parser", x_parser);
  req.body() = std::move(body);
  req.prepare_payload();
  return req;
}

inline Request get(const std::string& target) {
  Request req{http::verb::get, target, 11};
  req.set(http::field::host, "127.0.0.1");
  return req;
}

// Runs the client's io_context until its pending operations finish (each has a deadline).
inline void drive(net::io_context& ioc) {
  ioc.restart();
  ioc.run();
}

// Writes req and reads one response on stream s.
template <class Stream>
inline Response exchange(net::io_context& ioc, Stream& s, beast::flat_buffer& buffer, Request& req,
                         beast::error_code& ec) {
  Response res;
  beast::get_lowest_layer(s).expires_after(kIoLimit);
  http::async_write(s, req, [&](beast::error_code e, std::size_t) { ec = e; });
  drive(ioc);
  if (ec) return res;
  beast::get_lowest_layer(s).expires_after(kIoLimit);
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  http::async_read(s, buffer, parser, [&](beast::error_code e, std::size_t) { ec = e; });
  drive(ioc);
  if (!ec) res = parser.release();
  return res;
}

// A plain keep-alive connection.
class Conn {
 public:
  explicit Conn(std::uint16_t port) : stream_(ioc_) {
    stream_.expires_after(kIoLimit);
    stream_.async_connect(tcp::endpoint(net::ip::address_v4::loopback(), port),
                          [&](beast::error_code e) { error_ = e; });
    drive(ioc_);
    beast::error_code ignored;
    if (!error_) stream_.socket().set_option(tcp::no_delay(true), ignored);
  }

  Response send(Request req) { return exchange(ioc_, stream_, buffer_, req, error_); }

  // Sends raw bytes.
  void write_raw(std::string_view bytes) {
    stream_.expires_after(kIoLimit);
    net::async_write(stream_, net::buffer(bytes.data(), bytes.size()),
                     [&](beast::error_code e, std::size_t) { error_ = e; });
    drive(ioc_);
  }

  // Reads until the server closes the connection (or `limit`); the bytes it sent meanwhile.
  std::string read_until_closed(std::chrono::milliseconds limit = 5s) {
    std::string got;
    std::array<char, 4096> chunk;
    stream_.expires_after(limit);
    std::function<void()> next = [&] {
      stream_.async_read_some(net::buffer(chunk), [&](beast::error_code e, std::size_t n) {
        got.append(chunk.data(), n);
        error_ = e;
        if (!e) next();
      });
    };
    next();
    drive(ioc_);
    return got;
  }

  // Whether the connection attempt or the last operation failed.
  const beast::error_code& error() const { return error_; }

 private:
  net::io_context ioc_;        // this client's own context
  beast::tcp_stream stream_;   // the connection, with deadlines
  beast::flat_buffer buffer_;  // response bytes read ahead
  beast::error_code error_;    // last failure
};

// A server with a recorder of what on_request saw.
struct Server {
  explicit Server(ServerConfig config = {}) : server(std::move(config)) {
    server.on_request([this](const ServerTiming& t) {
      std::lock_guard lock(mutex);
      timings.push_back(t);
    });
    server.start();
  }
  ServerTiming last() {
    std::lock_guard lock(mutex);
    return timings.empty() ? ServerTiming{} : timings.back();
  }

  RpcServer server;                   // the server under test
  std::mutex mutex;                   // guards timings
  std::vector<ServerTiming> timings;  // one per RPC request
};

inline ServerConfig quick_config() {
  ServerConfig c;
  c.threads = 2;
  return c;
}

inline std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace sb::server_test
