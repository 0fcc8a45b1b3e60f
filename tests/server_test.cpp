// RpcServer (server/http_server.h) in-process on 127.0.0.1, driven by a small Beast client written
// here (not client/http_client.h): every family answers, X-Parser picks the adapter, faults stay
// protocol faults on a live connection, the WSDL names the real port, getChain is passed through
// byte for byte, TLS resumes sessions, and the limits (413, header timeout, idle timeout, 503,
// malformed HTTP) hold while other clients keep being served.
#include <gtest/gtest.h>

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
#include "harness/service.h"
#include "parsers/registry.h"
#include "server/http_server.h"

namespace sb {
namespace {

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

constexpr auto kIoLimit = 10s;  // every client operation's deadline

// ---------------------------------------------------------------- messages

Message make_call(std::string method, std::vector<Value> params = {}) {
  Message m;
  m.kind = rpc::MessageKind::call;
  m.method = std::move(method);
  m.params = std::move(params);
  return m;
}

Value person(int id, std::string name, double weight, std::vector<Value> children = {}) {
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
std::string encode(const Message& m, Family f) {
  std::string out;
  const std::string error = encode_message("direct", m, f, out);
  EXPECT_EQ(error, "") << rpc::family_name(f) << " " << m.method;
  return out;
}

// Canonical JSON of a response body (method: for XML-RPC and JSON-RPC); *family: as detected.
std::string canonical(const std::string& body, Family f, const std::string& method,
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

std::string expected_response(const std::string& method, const Value& result) {
  std::string out = "{\"kind\":\"response\",\"method\":\"" + method + "\",\"result\":";
  rpc::append_canonical_json(out, result);
  return out + "}";
}

// ---------------------------------------------------------------- HTTP

// Path and content type of a family's requests.
std::string path_of(Family f) {
  return f == Family::xmlrpc ? "/RPC2" : f == Family::jsonrpc ? "/jsonrpc" : "/soap";
}
std::string content_type_of(Family f) {
  return f == Family::jsonrpc              ? "application/json"
         : f == Family::soap12_doc_literal ? "application/soap+xml; charset=utf-8"
                                           : "text/xml; charset=utf-8";
}

Request post(Family f, std::string body, const std::string& method = "",
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

Request get(const std::string& target) {
  Request req{http::verb::get, target, 11};
  req.set(http::field::host, "127.0.0.1");
  return req;
}

// Runs the client's io_context until its pending operations finish (each has a deadline).
void drive(net::io_context& ioc) {
  ioc.restart();
  ioc.run();
}

// Writes req and reads one response on stream s.
template <class Stream>
Response exchange(net::io_context& ioc, Stream& s, beast::flat_buffer& buffer, Request& req,
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

ServerConfig quick_config() {
  ServerConfig c;
  c.threads = 2;
  return c;
}

std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

// ---------------------------------------------------------------- tests

TEST(Server, EveryFamilyAnswersTheCoreCalls) {
  Server s(quick_config());
  Conn c(s.server.port());
  ASSERT_FALSE(c.error()) << c.error().message();
  Value people = Value::array();
  people.push(person(1, "Ann <&> \"A\"", 61.5, {}));
  people.push(person(2, "Bo", 80.25, {person(3, "Cy", 20.0)}));
  struct Case {
    Message call;
    Value result;
  };
  const Case cases[] = {
      {make_call("add", {Value::integer(2), Value::integer(3)}), Value::integer(5)},
      {make_call("concat", {Value::string("ab"), Value::string("cd"), Value::string("é")}),
       Value::string("abcdé")},
      {make_call("complex", {people}), people},
      {make_call("getRate", {Value::string("USA"), Value::string("japan")}), Value::floating(1.25)},
  };
  for (Family f : rpc::kAllFamilies) {
    for (const Case& k : cases) {
      SCOPED_TRACE(std::string(rpc::family_name(f)) + " " + k.call.method);
      Response res = c.send(post(f, encode(k.call, f), k.call.method));
      ASSERT_FALSE(c.error()) << c.error().message();
      EXPECT_EQ(res.result_int(), 200);
      EXPECT_EQ(res[http::field::content_type], f == Family::soap12_doc_literal
                                                    ? "application/soap+xml; charset=utf-8"
                                                : f == Family::jsonrpc ? "application/json"
                                                                       : "text/xml; charset=utf-8");
      Family got = Family::xmlrpc;
      EXPECT_EQ(canonical(res.body(), f, k.call.method, &got),
                expected_response(k.call.method, k.result));
      EXPECT_EQ(got, f);  // answered in the request's family (SOAP style included)
      const ServerTiming t = s.last();
      EXPECT_EQ(t.family, f);
      EXPECT_GT(t.decode_ns, 0);
      EXPECT_GT(t.encode_ns, 0);
    }
  }
}

// The JSON-RPC vs XML-RPC comparison's client sends birthdates as str(datetime): complex takes
// them (and ISO 8601 text) in every family and answers with dateTimes; other text is refused.
TEST(Server, ComplexTakesBirthdatesAsText) {
  Server s(quick_config());
  Conn c(s.server.port());
  ASSERT_FALSE(c.error()) << c.error().message();
  auto sent = [](std::string birthdate, std::vector<Value> children) {
    Value p = person(1, "Ann", 61.5, std::move(children));
    p.items()[3] = Value::string(std::move(birthdate));
    return p;
  };
  Value call_people = Value::array();
  call_people.push(sent("1965-03-21 00:00:00", {sent("1990-01-02T03:04:05", {})}));
  Value answer = Value::array();
  answer.push(person(1, "Ann", 61.5, {person(1, "Ann", 61.5)}));
  answer.items()[0].items()[3] = Value::datetime("1965-03-21T00:00:00");
  answer.items()[0].items()[4].items()[0].items()[3] = Value::datetime("1990-01-02T03:04:05");
  Value bad = Value::array();
  bad.push(sent("yesterday", {}));
  for (Family f : rpc::kAllFamilies) {
    SCOPED_TRACE(std::string(rpc::family_name(f)));
    Response res = c.send(post(f, encode(make_call("complex", {call_people}), f), "complex"));
    EXPECT_EQ(canonical(res.body(), f, "complex"), expected_response("complex", answer));
    res = c.send(post(f, encode(make_call("complex", {bad}), f), "complex"));
    EXPECT_EQ(canonical(res.body(), f, "complex"),
              R"({"kind":"fault","code":-32602,"message":"invalid params: obj[0].birthdate: )"
              R"(bad dateTime 'yesterday'"})");
  }
}

TEST(Server, XParserSelectsTheAdapter) {
  Server s(quick_config());
  Conn c(s.server.port());
  ASSERT_FALSE(c.error());
  const Message call = make_call("add", {Value::integer(40), Value::integer(2)});
  int xml = 0, json = 0;
  for (const AdapterEntry& e : adapters()) {
    const std::string name = e.info().name;
    const bool is_xml = e.info().format == Format::xml;
    for (Family f :
         is_xml ? std::vector<Family>{Family::soap11_doc_literal, Family::soap11_rpc_encoded}
                : std::vector<Family>{Family::jsonrpc}) {
      SCOPED_TRACE(name + " " + std::string(rpc::family_name(f)));
      Response res = c.send(post(f, encode(call, f), "add", name));
      ASSERT_FALSE(c.error()) << c.error().message();
      EXPECT_EQ(res.result_int(), 200);
      EXPECT_EQ(canonical(res.body(), f, "add"), expected_response("add", Value::integer(42)));
      EXPECT_EQ(s.last().parser, name);
    }
    (is_xml ? xml : json)++;
  }
  EXPECT_GT(xml, 0);
  EXPECT_GT(json, 0);
  // Without X-Parser: the configured defaults.
  Response res = c.send(post(Family::xmlrpc, encode(call, Family::xmlrpc), "add"));
  EXPECT_EQ(s.last().parser, "pugixml/dom");
  res = c.send(post(Family::jsonrpc, encode(call, Family::jsonrpc), "add"));
  EXPECT_EQ(s.last().parser, "rapidjson/dom");
  // An unknown adapter, or one of the wrong format: a protocol fault with HTTP 400.
  for (auto [f, parser] :
       {std::pair{Family::soap11_doc_literal, "nosuch/dom"},
        std::pair{Family::xmlrpc, "rapidjson/dom"}, std::pair{Family::jsonrpc, "pugixml/dom"}}) {
    SCOPED_TRACE(parser);
    res = c.send(post(f, encode(call, f), "add", parser));
    ASSERT_FALSE(c.error());
    EXPECT_EQ(res.result_int(), 400);
    EXPECT_EQ(canonical(res.body(), f, "add").rfind("{\"kind\":\"fault\",\"code\":-32600,", 0), 0u)
        << res.body();
  }
}

TEST(Server, FailIsAFaultInEveryFamily) {
  Server s(quick_config());
  Conn c(s.server.port());
  for (Family f : rpc::kAllFamilies) {
    SCOPED_TRACE(rpc::family_name(f));
    Response res = c.send(post(f, encode(make_call("fail"), f), "fail"));
    ASSERT_FALSE(c.error()) << c.error().message();
    EXPECT_EQ(res.result_int(), rpc::is_soap(f) ? 500 : 200);
    EXPECT_EQ(canonical(res.body(), f, "fail"),
              R"({"kind":"fault","code":4,"message":"division by zero"})");
    EXPECT_EQ(s.last().family, f);  // (a SOAP 1.1 Fault itself does not show the style)
  }
}

TEST(Server, BadCallsAreFaultsAndTheConnectionLivesOn) {
  Server s(quick_config());
  Conn c(s.server.port());
  const std::string env11 =
      R"(<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">)";
  const std::string env12 = R"(<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope">)";
  struct Case {
    Family family;
    std::string body;
    int code;
    int status;
  };
  const Case cases[] = {
      {Family::xmlrpc, "<methodCall><methodName>noSuch</methodName><params/></methodCall>", -32601,
       200},
      {Family::xmlrpc, "<methodCall><methodName>add</methodName><params>", -32700, 200},
      {Family::xmlrpc, R"({"jsonrpc":"2.0","method":"add","params":[1,2],"id":1})", -32700, 200},
      {Family::soap11_doc_literal,
       env11 + R"(<soap:Body><noSuch xmlns="urn:soapbench"/></soap:Body></soap:Envelope>)", -32601,
       500},
      {Family::soap11_doc_literal, env11 + "<soap:Body><add xmlns=", -32700, 500},
      {Family::soap12_doc_literal,
       env12 + R"(<env:Body><noSuch xmlns="urn:soapbench"/></env:Body></env:Envelope>)", -32601,
       400},
      {Family::soap12_doc_literal, env12 + "<env:Body>", -32700, 400},
      {Family::jsonrpc, R"({"jsonrpc":"2.0","method":"noSuch","params":[],"id":7})", -32601, 200},
      {Family::jsonrpc, R"({"jsonrpc":"2.0","method":)", -32700, 200},
      {Family::jsonrpc, "<methodCall/>", -32700, 200},
  };
  const Message add = make_call("add", {Value::integer(2), Value::integer(3)});
  for (const Case& k : cases) {
    SCOPED_TRACE(k.body);
    Response res = c.send(post(k.family, k.body));
    ASSERT_FALSE(c.error()) << c.error().message();
    EXPECT_EQ(res.result_int(), k.status);
    const std::string want = "{\"kind\":\"fault\",\"code\":" + std::to_string(k.code) + ",";
    EXPECT_EQ(canonical(res.body(), k.family, "").rfind(want, 0), 0u) << res.body();
    if (k.family == Family::jsonrpc) {
      EXPECT_TRUE(res.body().ends_with(k.code == -32601 ? "\"id\":7}" : "\"id\":null}"))
          << res.body();
    }
    EXPECT_TRUE(res.keep_alive());
    // The same connection serves a normal call next.
    res = c.send(post(k.family, encode(add, k.family), "add"));
    ASSERT_FALSE(c.error()) << c.error().message();
    EXPECT_EQ(canonical(res.body(), k.family, "add"), expected_response("add", Value::integer(5)));
  }
}

TEST(Server, JsonRpcEchoesTheIdAsWritten) {
  Server s(quick_config());
  Conn c(s.server.port());
  for (std::string id : {"1", "-9007199254740993", "\"abc\\\"-42\"", "2.5", "null", "1e3"}) {
    SCOPED_TRACE(id);
    const std::string call =
        R"({"id":)" + id + R"(,"jsonrpc":"2.0","method":"add","params":[2,3]})";
    Response res = c.send(post(Family::jsonrpc, call));
    EXPECT_EQ(res.body(), R"({"jsonrpc":"2.0","result":5,"id":)" + id + "}");
    const std::string last =
        R"({"jsonrpc":"2.0","method":"add","params":[2,3],"id" : )" + id + " }";
    res = c.send(post(Family::jsonrpc, last));
    EXPECT_EQ(res.body(), R"({"jsonrpc":"2.0","result":5,"id":)" + id + "}");
  }
  // A notification (no id) gets no body.
  Response res =
      c.send(post(Family::jsonrpc, R"({"jsonrpc":"2.0","method":"sendInt","params":[1]})"));
  EXPECT_EQ(res.result_int(), 204);
  EXPECT_EQ(res.body(), "");
}

TEST(Server, WsdlNamesTheServersPortAndOtherPathsAreRefused) {
  Server s(quick_config());
  Conn c(s.server.port());
  Response res = c.send(get("/soap?wsdl"));
  EXPECT_EQ(res.result_int(), 200);
  EXPECT_EQ(res[http::field::content_type], "text/xml; charset=utf-8");
  EXPECT_NE(res.body().find("http://127.0.0.1:" + std::to_string(s.server.port()) + "/soap"),
            std::string::npos);
  EXPECT_NE(res.body().find("definitions"), std::string::npos);
  EXPECT_EQ(s.server.base_url(), "http://127.0.0.1:" + std::to_string(s.server.port()));
  {
    Conn head(s.server.port());  // HEAD: GET's header without the body
    head.write_raw("HEAD /soap?wsdl HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    const std::string got = head.read_until_closed();
    EXPECT_TRUE(got.starts_with("HTTP/1.1 200 ")) << got;
    EXPECT_TRUE(got.ends_with("\r\n\r\n")) << got;
    EXPECT_NE(got.find("Content-Length: " + std::to_string(res.body().size())), std::string::npos);
  }
  // What the WSDL imports (SOAP-ENC), so that no consumer needs the internet.
  res = c.send(get("/soap?xsd=soap-encoding"));
  EXPECT_EQ(res.result_int(), 200);
  EXPECT_EQ(res.body(), rpc::served_schema("xsd=soap-encoding"));
  EXPECT_EQ(c.send(get("/soap?xsd=soap-encoding-items")).body(),
            rpc::served_schema("xsd=soap-encoding-items"));
  EXPECT_EQ(c.send(get("/soap?xsd=other")).result_int(), 405);
  EXPECT_EQ(c.send(get("/nowhere")).result_int(), 404);
  EXPECT_EQ(c.send(get("/RPC2")).result_int(), 405);
  EXPECT_EQ(c.send(get("/soap")).result_int(), 405);
  res = c.send(post(Family::xmlrpc, encode(make_call("boolean"), Family::xmlrpc), "boolean"));
  EXPECT_EQ(canonical(res.body(), Family::xmlrpc, "boolean"),
            R"({"kind":"response","method":"boolean","result":true})");
}

TEST(Server, GetChainIsPassedThroughUnchanged) {
  Server s(quick_config());
  Conn c(s.server.port());
  const std::filesystem::path dir = default_corpus_dir();
  for (Family f : rpc::kAllFamilies) {
    if (f == Family::jsonrpc) continue;
    SCOPED_TRACE(rpc::family_name(f));
    const std::string stored =
        read_message_file(dir / std::string(rpc::family_name(f)) / "getChain.response.xml");
    Response res = c.send(post(f, encode(make_call("getChain"), f), "getChain"));
    ASSERT_FALSE(c.error());
    EXPECT_EQ(res.result_int(), 200);
    EXPECT_TRUE(res.body() == stored)
        << "getChain bytes differ, " << res.body().size() << " vs " << stored.size();
  }
  const std::string stored = read_message_file(dir / "jsonrpc" / "getChain.response.json");
  const std::string head = R"({"jsonrpc":"2.0","result":)";
  const std::string tail = R"(,"id":1})";
  ASSERT_TRUE(stored.starts_with(head) && stored.ends_with(tail));
  const std::string result = stored.substr(head.size(), stored.size() - head.size() - tail.size());
  for (std::string id : {"17", "\"chain-42\""}) {
    SCOPED_TRACE(id);
    Response res = c.send(post(
        Family::jsonrpc, R"({"jsonrpc":"2.0","method":"getChain","params":[],"id":)" + id + "}"));
    EXPECT_EQ(res.result_int(), 200);
    EXPECT_TRUE(res.body() == R"({"jsonrpc":"2.0","id":)" + id + R"(,"result":)" + result + "}");
    EXPECT_EQ(canonical(res.body(), Family::jsonrpc, "getChain"),
              canonical(stored, Family::jsonrpc, "getChain"));
  }
}

TEST(Server, GetChainWithoutCorpusIsAFault) {
  ServerConfig config = quick_config();
  config.corpus_dir = "/nonexistent/corpus";
  Server s(config);
  Conn c(s.server.port());
  Response res = c.send(post(Family::jsonrpc, encode(make_call("getChain"), Family::jsonrpc)));
  EXPECT_EQ(canonical(res.body(), Family::jsonrpc, "getChain")
                .rfind(R"({"kind":"fault","code":-32603,)", 0),
            0u);
}

TEST(Server, ServerTimingHeader) {
  ServerConfig config = quick_config();
  config.server_timing = true;
  Server s(config);
  Conn c(s.server.port());
  Response res = c.send(post(Family::soap12_doc_literal,
                             encode(make_call("add", {Value::integer(1), Value::integer(2)}),
                                    Family::soap12_doc_literal)));
  const std::string header(res["Server-Timing"]);
  // "decode;dur=D, dispatch;dur=D, encode;dur=D" with D a decimal number of milliseconds.
  std::size_t at = 0;
  for (std::string_view name : {"decode", "dispatch", "encode"}) {
    const std::string want = std::string(at == 0 ? "" : ", ") + std::string(name) + ";dur=";
    ASSERT_EQ(header.compare(at, want.size(), want), 0) << header;
    at += want.size();
    const std::size_t end = header.find_first_not_of("0123456789.", at);
    const std::string number = header.substr(at, end - at);
    EXPECT_TRUE(number.size() >= 3 && number.find('.') != std::string::npos) << header;
    at = end == std::string::npos ? header.size() : end;
  }
  EXPECT_EQ(at, header.size()) << header;
}

// TLS: a full handshake, then a second connection resuming the saved session.
void check_tls_resumption(bool tls12) {
  ServerConfig config = quick_config();
  config.tls = true;
  Server s(config);
  EXPECT_TRUE(s.server.base_url().starts_with("https://127.0.0.1:"));
  ssl::context ctx(ssl::context::tls_client);
  ctx.set_verify_mode(ssl::verify_none);
  SSL_CTX_set_session_cache_mode(ctx.native_handle(), SSL_SESS_CACHE_CLIENT);
  if (tls12) SSL_CTX_set_max_proto_version(ctx.native_handle(), TLS1_2_VERSION);
  SSL_SESSION* saved = nullptr;
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE(round);
    net::io_context ioc;
    beast::ssl_stream<beast::tcp_stream> stream(ioc, ctx);
    beast::error_code ec;
    beast::get_lowest_layer(stream).expires_after(kIoLimit);
    beast::get_lowest_layer(stream).async_connect(
        tcp::endpoint(net::ip::address_v4::loopback(), s.server.port()),
        [&](beast::error_code e) { ec = e; });
    drive(ioc);
    ASSERT_FALSE(ec) << ec.message();
    if (saved != nullptr) {
      ASSERT_EQ(SSL_set_session(stream.native_handle(), saved), 1);
    }
    stream.async_handshake(ssl::stream_base::client, [&](beast::error_code e) { ec = e; });
    drive(ioc);
    ASSERT_FALSE(ec) << ec.message();
    if (round == 0) {
      X509* cert = SSL_get1_peer_certificate(stream.native_handle());
      ASSERT_NE(cert, nullptr);
      EXPECT_EQ(X509_check_host(cert, "localhost", 0, 0, nullptr), 1);
      EXPECT_EQ(X509_check_ip_asc(cert, "127.0.0.1", 0), 1);
      X509_free(cert);
    }
    beast::flat_buffer buffer;
    Request req =
        post(Family::jsonrpc, R"({"jsonrpc":"2.0","method":"add","params":[2,3],"id":1})");
    Response res = exchange(ioc, stream, buffer, req, ec);
    ASSERT_FALSE(ec) << ec.message();
    EXPECT_EQ(res.body(), R"({"jsonrpc":"2.0","result":5,"id":1})");
    EXPECT_EQ(SSL_session_reused(stream.native_handle()), round == 0 ? 0 : 1);
    if (round == 0) {
      saved = SSL_get1_session(stream.native_handle());  // after reading: TLS 1.3 tickets arrived
      ASSERT_NE(saved, nullptr);
      EXPECT_EQ(SSL_SESSION_is_resumable(saved), 1);
    }
    beast::get_lowest_layer(stream).expires_after(kIoLimit);
    stream.async_shutdown([&](beast::error_code) {});
    drive(ioc);
  }
  SSL_SESSION_free(saved);
}

TEST(Server, TlsSessionIsResumed) { check_tls_resumption(false); }
TEST(Server, TlsSessionIsResumedWithTls12SessionIds) { check_tls_resumption(true); }

TEST(Server, OversizedBodyGets413WithoutBeingBuffered) {
  Server s(quick_config());  // max_body_bytes 8 MiB
  {
    Conn warm(s.server.port());  // warm both pool threads' adapters and encoders
    for (int i = 0; i < 4; ++i)
      warm.send(post(Family::xmlrpc, encode(make_call("boolean"), Family::xmlrpc)));
  }
  const std::size_t before = resident_bytes();
  constexpr std::size_t kBody = 9 * 1024 * 1024;
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  beast::error_code ec;
  stream.expires_after(kIoLimit);
  stream.async_connect(tcp::endpoint(net::ip::address_v4::loopback(), s.server.port()),
                       [&](beast::error_code e) { ec = e; });
  drive(ioc);
  ASSERT_FALSE(ec);
  const std::string header =
      "POST /RPC2 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/xml\r\n"
      "Content-Length: " +
      std::to_string(kBody) + "\r\n\r\n";
  const std::string chunk(64 * 1024,
                          ' ');  // the body is sent from this one chunk, never held whole
  std::size_t sent = 0;
  std::function<void(beast::error_code, std::size_t)> on_write = [&](beast::error_code e,
                                                                     std::size_t n) {
    sent += n;
    if (e || sent >= header.size() + kBody) return;
    net::async_write(stream.socket(), net::buffer(chunk), on_write);
  };
  stream.expires_after(kIoLimit);
  net::async_write(stream.socket(), net::buffer(header), on_write);
  beast::flat_buffer buffer;
  Response res;
  beast::error_code read_ec;
  http::async_read(stream, buffer, res, [&](beast::error_code e, std::size_t) { read_ec = e; });
  drive(ioc);
  ASSERT_FALSE(read_ec) << read_ec.message();
  EXPECT_EQ(res.result_int(), 413);
  EXPECT_FALSE(res.keep_alive());
  const std::size_t after = resident_bytes();
  EXPECT_LT(after, before + kBody / 4) << "RSS grew by " << (after - before) << " bytes";
  std::printf("[          ] RSS %zu -> %zu bytes (+%zd) around a 9 MiB body, %zu bytes sent\n",
              before, after, static_cast<std::ptrdiff_t>(after - before), sent);
}

TEST(Server, ChunkedBodyOverTheLimitGets413AndMalformedHttpGets400) {
  ServerConfig config = quick_config();
  config.max_body_bytes = 1024;
  Server s(config);
  {
    Conn c(s.server.port());
    std::string req =
        "POST /RPC2 HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nTransfer-Encoding: "
        "chunked\r\n\r\n";
    for (int i = 0; i < 4; ++i) req += "400\r\n" + std::string(1024, ' ') + "\r\n";
    req += "0\r\n\r\n";
    c.write_raw(req);
    const std::string got = c.read_until_closed();
    EXPECT_TRUE(got.starts_with("HTTP/1.1 413 ")) << got;
  }
  {
    Conn c(s.server.port());
    c.write_raw("THIS IS NOT HTTP\r\n\r\n");
    const std::string got = c.read_until_closed();
    EXPECT_TRUE(got.starts_with("HTTP/1.1 400 ")) << got;
  }
  {
    Conn c(s.server.port());
    c.write_raw("POST /RPC2 HTTP/1.1\r\nHost: x\r\nContent-Length: 12x\r\n\r\n");
    EXPECT_TRUE(c.read_until_closed().starts_with("HTTP/1.1 400 "));
  }
}

// A raw request whose body is itself a complete XML-RPC add(2,3) request: if the server framed
// the first request as bodiless, it would run the body as a second request and answer 5.
std::string smuggling_request(const std::string& version, const std::string& fields,
                              bool chunked_body) {
  const std::string inner_body =
      encode(make_call("add", {Value::integer(2), Value::integer(3)}), Family::xmlrpc);
  const std::string inner =
      "POST /RPC2 HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\n"
      "Content-Length: " +
      std::to_string(inner_body.size()) + "\r\n\r\n" + inner_body;
  std::string body = inner;
  if (chunked_body) {
    char size[32];
    std::snprintf(size, sizeof size, "%zx", inner.size());
    body = std::string(size) + "\r\n" + inner + "\r\n0\r\n\r\n";
  }
  return "POST /RPC2 " + version + "\r\nHost: x\r\nContent-Type: text/xml\r\n" + fields + "\r\n" +
         body;
}

// RFC 9112 §6.1, §6.3: Transfer-Encoding not ending in chunked → 400 and close; a coding before
// chunked (none is implemented) → 501; Transfer-Encoding beside Content-Length, in either
// order, or in HTTP/1.0 → 400. Never is the body run as a second request.
TEST(Server, TransferEncodingCannotSmuggleARequest) {
  Server s(quick_config());
  struct Case {
    std::string version;  // "HTTP/1.1"
    std::string fields;   // the framing fields, each ending in CRLF
    bool chunked_body;    // the body is sent chunked (else raw, unframed)
    int status;           // expected answer
  };
  const std::string cl = "Content-Length: 10\r\n";
  const Case cases[] = {
      {"HTTP/1.1", "Transfer-Encoding: gzip\r\n", false, 400},
      {"HTTP/1.1", "Transfer-Encoding: identity\r\n", false, 400},
      {"HTTP/1.1", "Transfer-Encoding: xchunked\r\n", false, 400},
      {"HTTP/1.1", "Transfer-Encoding: chunked, identity\r\n", false, 400},
      {"HTTP/1.1", "Transfer-Encoding: chunked, chunked\r\n", true, 400},
      {"HTTP/1.1", "Transfer-Encoding: \r\n", false, 400},
      {"HTTP/1.1", "Transfer-Encoding: gzip, chunked\r\n", true, 501},
      {"HTTP/1.1", "Transfer-Encoding: identity, chunked\r\n", true, 501},
      {"HTTP/1.1", "Transfer-Encoding: xchunked, chunked\r\n", true, 501},
      {"HTTP/1.1", "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n", true, 501},
      {"HTTP/1.1", cl + "Transfer-Encoding: chunked\r\n", true, 400},
      {"HTTP/1.1", "Transfer-Encoding: chunked\r\n" + cl, true, 400},
      {"HTTP/1.1", "Transfer-Encoding: gzip\r\n" + cl, false, 400},
      {"HTTP/1.1", cl + "Transfer-Encoding: gzip\r\n", false, 400},
      {"HTTP/1.0", "Transfer-Encoding: chunked\r\n", true, 400},
      {"HTTP/1.1", "Content-Length: 5\r\nContent-Length: 6\r\n", false, 400},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.version + " " + k.fields);
    Conn c(s.server.port());
    c.write_raw(smuggling_request(k.version, k.fields, k.chunked_body));
    const std::string got = c.read_until_closed();
    EXPECT_TRUE(got.starts_with("HTTP/1.1 " + std::to_string(k.status) + " ")) << got;
    EXPECT_EQ(got.find("HTTP/1.1", 1), std::string::npos) << "a second response: " << got;
    EXPECT_NE(got.find("Connection: close"), std::string::npos) << got;
  }
  // chunked alone, in any case, frames the body: the inner request is the body of one request
  // (expat/sax refuses it: it is not XML), answered once.
  Conn c(s.server.port());
  c.write_raw(smuggling_request(
      "HTTP/1.1", "Transfer-Encoding: Chunked\r\nX-Parser: expat/sax\r\nConnection: close\r\n",
      true));
  const std::string got = c.read_until_closed();
  EXPECT_TRUE(got.starts_with("HTTP/1.1 200 ")) << got;
  EXPECT_NE(got.find("faultCode"), std::string::npos) << got;
  EXPECT_EQ(got.find("HTTP/1.1", 1), std::string::npos) << "a second response: " << got;
}

// A request line and fields over 16 KiB: 431 (RFC 6585 §5). "Expect: 100-continue": 100 first,
// then the body is read and answered (RFC 9110 §10.1.1).
TEST(Server, OversizedHeaderGets431AndExpectContinueIsAnswered) {
  Server s(quick_config());
  {
    Conn c(s.server.port());
    c.write_raw("POST /RPC2 HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(17 * 1024, 'a') +
                "\r\n\r\n");
    const std::string got = c.read_until_closed();
    EXPECT_TRUE(got.starts_with("HTTP/1.1 431 ")) << got.substr(0, 200);
  }
  const std::string body =
      encode(make_call("add", {Value::integer(2), Value::integer(3)}), Family::xmlrpc);
  Conn c(s.server.port());
  c.write_raw(
      "POST /RPC2 HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nExpect: "
      "100-continue\r\nConnection: close\r\nContent-Length: " +
      std::to_string(body.size()) + "\r\n\r\n" + body);
  const std::string got = c.read_until_closed();
  EXPECT_TRUE(got.starts_with("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 ")) << got;
  EXPECT_NE(got.find("<int>5</int>"), std::string::npos) << got;
}

// RFC 9112 §3.2: an HTTP/1.1 request without Host, with two, or with an invalid one → 400;
// HTTP/1.0 may omit it.
TEST(Server, HostIsRequiredInHttp11) {
  Server s(quick_config());
  const std::string body =
      encode(make_call("add", {Value::integer(2), Value::integer(3)}), Family::xmlrpc);
  auto request = [&](const std::string& version, const std::string& hosts) {
    return "POST /RPC2 " + version + "\r\n" + hosts +
           "Content-Type: text/xml\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\nConnection: close\r\n\r\n" + body;
  };
  const std::pair<std::string, std::string> refused[] = {
      {"HTTP/1.1", ""},
      {"HTTP/1.1", "Host: a\r\nHost: b\r\n"},
      {"HTTP/1.1", "Host: a/b\r\n"},
      {"HTTP/1.0", "Host: a@b\r\n"},
  };
  for (const auto& [version, hosts] : refused) {
    SCOPED_TRACE(version + " " + hosts);
    Conn c(s.server.port());
    c.write_raw(request(version, hosts));
    const std::string got = c.read_until_closed();
    EXPECT_TRUE(got.starts_with("HTTP/1.1 400 ")) << got;
    EXPECT_NE(got.find("Host"), std::string::npos) << got;
  }
  const std::pair<std::string, std::string> served[] = {
      {"HTTP/1.0", ""},
      {"HTTP/1.1", "Host: 127.0.0.1:8080\r\n"},
      {"HTTP/1.1", "Host: [::1]:8080\r\n"},
      {"HTTP/1.1", "Host: \r\n"},
  };
  for (const auto& [version, hosts] : served) {
    SCOPED_TRACE(version + " " + hosts);
    Conn c(s.server.port());
    c.write_raw(request(version, hosts));
    const std::string got = c.read_until_closed();
    EXPECT_TRUE(got.starts_with(version + " 200 ")) << got;
    EXPECT_NE(got.find("<int>5</int>"), std::string::npos) << got;
  }
}

// RFC 9112 §3.2.2: a server accepts the absolute-form of a request target; its path routes.
TEST(Server, AbsoluteFormTargetIsAccepted) {
  Server s(quick_config());
  Conn c(s.server.port());
  const std::string authority = "127.0.0.1:" + std::to_string(s.server.port());
  Request req =
      post(Family::xmlrpc,
           encode(make_call("add", {Value::integer(2), Value::integer(3)}), Family::xmlrpc));
  req.target("http://" + authority + "/RPC2");
  Response res = c.send(req);
  EXPECT_EQ(res.result_int(), 200);
  EXPECT_EQ(canonical(res.body(), Family::xmlrpc, "add"),
            expected_response("add", Value::integer(5)));
  req = post(Family::jsonrpc, R"({"jsonrpc":"2.0","method":"add","params":[2,3],"id":1})");
  req.target("HTTPS://example.org/jsonrpc");  // the scheme is case-insensitive
  EXPECT_EQ(c.send(req).body(), R"({"jsonrpc":"2.0","result":5,"id":1})");
  EXPECT_EQ(c.send(get("http://" + authority + "/soap?wsdl")).result_int(), 200);
  EXPECT_EQ(c.send(get("http://" + authority)).result_int(), 404);  // the path is "/"
  EXPECT_EQ(c.send(get("http://" + authority + "/nowhere/RPC2")).result_int(), 404);
}

// At least `n` open descriptors allowed (the soft limit raised toward the hard one); false when
// the hard limit is lower.
bool allow_descriptors(rlim_t n) {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return false;
  if (limit.rlim_cur >= n) return true;
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < n) return false;
  limit.rlim_cur = n;
  return setrlimit(RLIMIT_NOFILE, &limit) == 0;
}

// 2,000 connections that send nothing against --max-connections 1000 (header timeout 10 s): once
// the server is crowded they are closed after crowded_first_byte (1 s), so a normal client is
// served within seconds, not locked out with 503 for the header timeout. Bounded: 2,000
// connections, a client retrying every 100 ms for at most 6 s.
TEST(Server, IdleFloodDoesNotLockClientsOut) {
  constexpr int kFlood = 2000;
  ASSERT_TRUE(allow_descriptors(2 * kFlood + 512)) << "RLIMIT_NOFILE's hard limit is too low";
  ServerConfig config = quick_config();
  config.max_connections = 1000;
  Server s(config);
  ASSERT_EQ(config.header_timeout, 10s);  // the default the flood would otherwise hold slots for
  net::io_context ioc;
  std::vector<tcp::socket> flood;
  flood.reserve(kFlood);
  const tcp::endpoint server(net::ip::address_v4::loopback(), s.server.port());
  for (int i = 0; i < kFlood; ++i) {
    beast::error_code ec;
    flood.emplace_back(ioc).connect(server, ec);
    ASSERT_FALSE(ec) << "flood connection " << i << ": " << ec.message();
  }
  const Clock::time_point t0 = Clock::now();
  const Message add = make_call("add", {Value::integer(2), Value::integer(3)});
  int status = 0;
  int refused = 0;  // 503 answers before a slot freed
  while (status != 200 && Clock::now() - t0 < 6s) {
    Conn c(s.server.port());
    status = c.send(post(Family::xmlrpc, encode(add, Family::xmlrpc))).result_int();
    if (status == 503) ++refused;
    if (status != 200) std::this_thread::sleep_for(100ms);
  }
  const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
  std::printf(
      "[          ] served after %lld ms (%d answers 503 first) beside %d idle connections\n",
      static_cast<long long>(waited.count()), refused, kFlood);
  EXPECT_EQ(status, 200) << "locked out for " << waited.count() << " ms";
  EXPECT_GT(refused, 0);  // the flood did fill the server at first
  EXPECT_LT(waited, 5s);
}

TEST(Server, StalledHeaderIsDroppedWhileOthersAreServed) {
  ServerConfig config = quick_config();
  config.threads = 1;  // the stalled client must not take the only thread
  config.header_timeout = 300ms;
  config.idle_timeout = 500ms;
  Server s(config);
  std::atomic<long long> stalled_ms{-1};
  std::string stalled_got;
  std::thread stalled([&] {
    Conn c(s.server.port());
    c.write_raw("POST /RPC2 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-");
    const Clock::time_point t0 = Clock::now();
    stalled_got = c.read_until_closed(5s);
    stalled_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
  });
  Conn c(s.server.port());
  const Message add = make_call("add", {Value::integer(2), Value::integer(3)});
  const Clock::time_point t0 = Clock::now();
  int calls = 0;
  while (Clock::now() - t0 < 600ms) {
    Response res = c.send(post(Family::xmlrpc, encode(add, Family::xmlrpc)));
    ASSERT_FALSE(c.error()) << c.error().message();
    ASSERT_EQ(canonical(res.body(), Family::xmlrpc, "add"),
              expected_response("add", Value::integer(5)));
    ++calls;
  }
  stalled.join();
  EXPECT_GT(calls, 10);
  EXPECT_EQ(stalled_got, "");  // closed without an answer
  EXPECT_GE(stalled_ms.load(), 250);
  EXPECT_LT(stalled_ms.load(), 2000);
  // The busy connection is idle now: closed after idle_timeout.
  const Clock::time_point idle0 = Clock::now();
  EXPECT_EQ(c.read_until_closed(5s), "");
  const auto idle_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - idle0);
  EXPECT_GE(idle_ms.count(), 400);
  EXPECT_LT(idle_ms.count(), 2500);
}

TEST(Server, RespondDelayDoesNotBlockOtherConnections) {
  ServerConfig config = quick_config();
  config.threads = 1;
  Server s(config);
  Clock::time_point delayed_done, other_done;
  long long delayed_ms = 0;
  std::string delayed_json;
  std::thread delayed([&] {
    Conn c(s.server.port());
    const Message call = make_call("respond", {Value::integer(25), Value::integer(200)});
    const Clock::time_point t0 = Clock::now();
    Response res =
        c.send(post(Family::soap11_rpc_literal, encode(call, Family::soap11_rpc_literal)));
    delayed_done = Clock::now();
    delayed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(delayed_done - t0).count();
    delayed_json = canonical(res.body(), Family::soap11_rpc_literal, "respond");
  });
  std::this_thread::sleep_for(40ms);
  Conn c(s.server.port());
  Response res =
      c.send(post(Family::jsonrpc, R"({"jsonrpc":"2.0","method":"add","params":[2,3],"id":1})"));
  other_done = Clock::now();
  delayed.join();
  EXPECT_EQ(res.body(), R"({"jsonrpc":"2.0","result":5,"id":1})");
  EXPECT_GE(delayed_ms, 200);
  EXPECT_LT(other_done, delayed_done) << "the other connection waited for the delay";
  EXPECT_EQ(delayed_json, expected_response("respond", rpc::respond_document(25)));
}

TEST(Server, MaxConnectionsAnswers503) {
  ServerConfig config = quick_config();
  config.max_connections = 2;
  Server s(config);
  const Message add = make_call("add", {Value::integer(1), Value::integer(1)});
  auto c1 = std::make_unique<Conn>(s.server.port());
  Conn c2(s.server.port());
  EXPECT_EQ(c1->send(post(Family::xmlrpc, encode(add, Family::xmlrpc))).result_int(), 200);
  EXPECT_EQ(c2.send(post(Family::xmlrpc, encode(add, Family::xmlrpc))).result_int(), 200);
  {
    Conn c3(s.server.port());
    Response res = c3.send(post(Family::xmlrpc, encode(add, Family::xmlrpc)));
    EXPECT_EQ(res.result_int(), 503);
    EXPECT_FALSE(res.keep_alive());
  }
  c1.reset();  // a slot frees up once the server has seen the close
  int status = 0;
  for (int i = 0; i < 50 && status != 200; ++i) {
    std::this_thread::sleep_for(20ms);
    Conn c4(s.server.port());
    status = c4.send(post(Family::xmlrpc, encode(add, Family::xmlrpc))).result_int();
  }
  EXPECT_EQ(status, 200);
  EXPECT_EQ(c2.send(post(Family::xmlrpc, encode(add, Family::xmlrpc))).result_int(), 200);
}

TEST(Server, StopClosesConnectionsAndThePort) {
  auto s = std::make_unique<Server>(quick_config());
  const std::uint16_t port = s->server.port();
  Conn c(port);
  EXPECT_EQ(c.send(post(Family::xmlrpc, encode(make_call("boolean"), Family::xmlrpc))).result_int(),
            200);
  std::atomic<bool> waited{false};
  std::thread waiter([&] {
    s->server.wait();
    waited = true;
  });
  const Clock::time_point t0 = Clock::now();
  s->server.stop();
  EXPECT_LT(Clock::now() - t0, 1s);
  waiter.join();
  EXPECT_TRUE(waited);
  EXPECT_EQ(c.read_until_closed(2s), "");
  s->server.stop();  // idempotent
  s.reset();
  Conn late(port);
  EXPECT_EQ(late.error(), net::error::connection_refused);
}

}  // namespace
}  // namespace sb
