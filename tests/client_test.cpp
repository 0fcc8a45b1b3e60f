// The client side of the round trip: the endpoint URL, RpcClient against an in-process RpcServer
// for every family, connection reuse, TLS resumption, faults, and wire bytes checked against a
// byte-counting TCP proxy between client and server (tests/round_trip_fixture.h); `soapbench call`.
// The binary control: tests/binary_test.cpp.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <boost/asio.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdio>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "codecs/canonical_json.h"
#include "codecs/family.h"
#include "codecs/service_contract.h"
#include "harness/client/http_client.h"
#include "harness/client/http_request.h"
#include "harness/client/wire_meter.h"
#include "harness/corpus.h"
#include "harness/server/http_server.h"
#include "tests/round_trip_fixture.h"

namespace sb {
namespace {

using namespace round_trip_test;

// ---------------------------------------------------------------- servers shared by the tests

class ClientTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ServerConfig plain;
    plain.threads = 1;
    http_ = new RpcServer(plain);
    http_->start();
    ServerConfig tls = plain;
    tls.tls = true;
    https_ = new RpcServer(tls);
    https_->start();
  }
  static void TearDownTestSuite() {
    delete http_;
    delete https_;
    http_ = https_ = nullptr;
  }

  static ClientConfig config(Family f, bool tls = false) {
    ClientConfig c;
    c.url = (tls ? https_ : http_)->base_url();
    c.family = f;
    c.parser = rpc::is_xml(f) ? "pugixml/dom" : "rapidjson/dom";
    return c;
  }

  static RpcServer* http_;   // plain HTTP, port 0
  static RpcServer* https_;  // HTTPS with a self-signed certificate, port 0
};

RpcServer* ClientTest::http_ = nullptr;
RpcServer* ClientTest::https_ = nullptr;

TEST_F(ClientTest, EveryFamilyAnswersTheStandardCalls) {
  for (Family f : rpc::kAllFamilies) {
    RpcClient client(config(f));
    for (const Case& c : standard_cases()) {
      CallResult r = client.call(c.request);
      ASSERT_TRUE(r.ok) << name_of(f) << " " << c.request.method << ": " << r.error;
      EXPECT_EQ(r.http_status, 200) << name_of(f) << " " << c.request.method;
      EXPECT_EQ(rpc::to_canonical_json(r.response), c.expected)
          << name_of(f) << " " << c.request.method;
      EXPECT_GT(r.wire.sent, 0u);
      EXPECT_GT(r.wire.received, 0u);
      EXPECT_GT(r.timing.total_ns, 0);
      EXPECT_GE(r.timing.total_ns, r.timing.encode_ns + r.timing.decode_ns);
    }
  }
}

TEST_F(ClientTest, EveryXmlAdapterDecodesResponses) {
  for (const char* parser : {"pugixml/dom", "libxml2/sax", "expat/sax", "rapidxml/dom"}) {
    ClientConfig c = config(Family::soap11_rpc_encoded);
    c.parser = parser;
    c.server_parser = parser;
    RpcClient client(c);
    CallResult r = client.call(standard_cases()[2].request);
    if (!r.ok && r.error.find("no adapter named") != std::string::npos) continue;  // not built
    ASSERT_TRUE(r.ok) << parser << ": " << r.error;
    EXPECT_EQ(rpc::to_canonical_json(r.response), standard_cases()[2].expected) << parser;
  }
}

TEST_F(ClientTest, KeepAliveReusesOneConnection) {
  CountingProxy proxy(http_->port());
  ClientConfig c = config(Family::xmlrpc);
  c.url = "http://127.0.0.1:" + std::to_string(proxy.port());
  RpcClient client(c);
  const Message add = standard_cases()[0].request;
  for (int i = 0; i < 3; ++i) {
    CallResult r = client.call(add);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.connected, i == 0) << "call " << i;
    EXPECT_FALSE(r.tls_resumed);
  }
  EXPECT_EQ(proxy.connections(), 1);
  client.close();
  CallResult r = client.call(add);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.connected) << "close() drops the connection";
}

TEST_F(ClientTest, NoKeepAliveConnectsPerCall) {
  CountingProxy proxy(http_->port());
  ClientConfig c = config(Family::jsonrpc);
  c.url = "http://127.0.0.1:" + std::to_string(proxy.port());
  c.keep_alive = false;
  RpcClient client(c);
  for (int i = 0; i < 3; ++i) {
    CallResult r = client.call(standard_cases()[0].request);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(r.connected) << "call " << i;
  }
  EXPECT_EQ(proxy.connections(), 3);
}

TEST_F(ClientTest, TlsFullHandshakeThenResumed) {
  for (Family f : {Family::soap11_doc_literal, Family::jsonrpc}) {
    ClientConfig c = config(f, /*tls=*/true);
    c.keep_alive = false;
    RpcClient client(c);
    for (int i = 0; i < 3; ++i) {
      CallResult r = client.call(standard_cases()[3].request);
      ASSERT_TRUE(r.ok) << name_of(f) << " call " << i << ": " << r.error;
      EXPECT_EQ(rpc::to_canonical_json(r.response), standard_cases()[3].expected);
      EXPECT_TRUE(r.connected);
      EXPECT_EQ(r.tls_resumed, i > 0) << name_of(f) << " call " << i;
    }
    // Resumption off: every connection is a full handshake.
    c.tls_resume = false;
    RpcClient fresh(c);
    for (int i = 0; i < 2; ++i) {
      CallResult r = fresh.call(standard_cases()[3].request);
      ASSERT_TRUE(r.ok) << r.error;
      EXPECT_FALSE(r.tls_resumed);
    }
  }
}

TEST_F(ClientTest, TlsKeepAlive) {
  RpcClient client(config(Family::soap12_doc_literal, true));
  for (int i = 0; i < 3; ++i) {
    CallResult r = client.call(standard_cases()[0].request);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.connected, i == 0);
    EXPECT_EQ(rpc::to_canonical_json(r.response), standard_cases()[0].expected);
  }
  client.close();
  CallResult r = client.call(standard_cases()[0].request);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.connected);
  EXPECT_TRUE(r.tls_resumed) << "close() keeps the session resumable";
}

TEST_F(ClientTest, FaultsAreDecodedAndTheConnectionStaysUsable) {
  for (Family f : rpc::kAllFamilies) {
    RpcClient client(config(f));
    CallResult r = client.call(call("fail"));
    ASSERT_TRUE(r.ok) << name_of(f) << ": " << r.error;
    EXPECT_EQ(rpc::to_canonical_json(r.response),
              R"({"kind":"fault","code":4,"message":"division by zero"})")
        << name_of(f);
    EXPECT_EQ(r.http_status, rpc::is_soap(f) ? 500 : 200) << name_of(f);
    // Wrong parameters: a service fault, not a transport error.
    r = client.call(call("getRate", {Value::string("Mars"), Value::string("USA")}));
    ASSERT_TRUE(r.ok) << name_of(f) << ": " << r.error;
    EXPECT_EQ(r.response.kind, MessageKind::fault);
    EXPECT_EQ(r.response.fault_code, rpc::fault::invalid_params) << name_of(f);
    if (!rpc::is_soap(f)) {
      // SOAP requests are typed by the contract: the client cannot write an unknown operation.
      r = client.call(call("noSuchMethod", {Value::integer(1)}));
      ASSERT_TRUE(r.ok) << name_of(f) << ": " << r.error;
      EXPECT_EQ(rpc::to_canonical_json(r.response),
                R"({"kind":"fault","code":-32601,"message":"method not found: noSuchMethod"})")
          << name_of(f);
    }
    r = client.call(standard_cases()[0].request);
    ASSERT_TRUE(r.ok) << name_of(f) << ": " << r.error;
    EXPECT_FALSE(r.connected) << name_of(f) << ": the fault kept the connection";
    EXPECT_EQ(rpc::to_canonical_json(r.response), standard_cases()[0].expected);
  }
}

TEST_F(ClientTest, SoapUnknownMethodIsAFault) {
  // Written by hand: our SOAP encoders refuse operations outside the contract.
  const std::string body =
      "<?xml version=\"1.0\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/"
      "envelope/\"><soap:Body><noSuchMethod xmlns=\"urn:soapbench\"/></soap:Body>"
      "</soap:Envelope>";
  asio::io_context ioc;
  tcp::socket s(ioc);
  s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), http_->port()));
  const std::string request =
      "POST /soap HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/xml\r\n"
      "SOAPAction: \"urn:soapbench#noSuchMethod\"\r\nConnection: close\r\n"
      "Content-Length: " +
      std::to_string(body.size()) + "\r\n\r\n" + body;
  asio::write(s, asio::buffer(request));
  std::string response;
  error_code ec;
  std::array<char, 4096> buf;
  for (;;) {
    std::size_t n = s.read_some(asio::buffer(buf), ec);
    response.append(buf.data(), n);
    if (ec) break;
  }
  EXPECT_TRUE(response.starts_with("HTTP/1.1 500")) << response.substr(0, 200);
  EXPECT_NE(response.find("method not found: noSuchMethod"), std::string::npos) << response;
}

TEST_F(ClientTest, TransportErrorsAreOneLine) {
  // A port nobody listens on: bind one, note it, close it.
  std::uint16_t dead = 0;
  {
    asio::io_context ioc;
    tcp::acceptor a(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    dead = a.local_endpoint().port();
  }
  ClientConfig c = config(Family::xmlrpc);
  c.url = "http://127.0.0.1:" + std::to_string(dead);
  RpcClient client(c);
  CallResult r = client.call(standard_cases()[0].request);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("connect"), std::string::npos) << r.error;
  EXPECT_EQ(r.error.find('\n'), std::string::npos);

  c.url = "gopher://x";
  EXPECT_FALSE(RpcClient(c).call(standard_cases()[0].request).ok);
  c = config(Family::xmlrpc);
  c.parser = "no/such";
  r = RpcClient(c).call(standard_cases()[0].request);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("no/such"), std::string::npos) << r.error;
}

// The endpoint URL, parsed once: scheme, host, port (80/443 when absent), the Host value as
// written, and the path with its query (empty: the family's path on soapbench serve).
TEST(Url, TakesTheEndpointApart) {
  std::string error;
  std::optional<Url> u = parse_url("https://[::1]:8443/ws/orders?x=1#frag", error);
  ASSERT_TRUE(u) << error;
  EXPECT_TRUE(u->tls);
  EXPECT_EQ(u->host, "::1");
  EXPECT_EQ(u->port, "8443");
  EXPECT_EQ(u->authority, "[::1]:8443");
  EXPECT_EQ(u->path, "/ws/orders?x=1");  // the fragment is never sent
  EXPECT_EQ(u->target(Family::jsonrpc), "/ws/orders?x=1");
  u = parse_url("HTTP://example.org", error);
  ASSERT_TRUE(u) << error;
  EXPECT_FALSE(u->tls);
  EXPECT_EQ(u->port, "80");
  EXPECT_EQ(u->authority, "example.org");
  EXPECT_EQ(u->path, "");
  EXPECT_EQ(u->target(Family::xmlrpc), "/RPC2");
  EXPECT_EQ(u->target(Family::soap12_doc_literal), "/soap");
  EXPECT_EQ(u->target(Family::jsonrpc), "/jsonrpc");
  u = parse_url("http://127.0.0.1:8080/", error);  // gSOAP at "/": a path of its own
  ASSERT_TRUE(u) << error;
  EXPECT_EQ(u->target(Family::soap11_doc_literal), "/");
  u = parse_url("http://h?q=1", error);
  ASSERT_TRUE(u) << error;
  EXPECT_EQ(u->path, "/?q=1");
  const std::pair<const char*, const char*> refused[] = {
      {"gopher://x", "http:// or https://"},
      {"http://user:pw@h/", "credentials"},
      {"http://h/a b", "space"},
      {"http://h/\x7f", "control"},
      {"http://:80/", "no host"},
      {"http://h:0/", "bad port"},
      {"http://h:65536/", "bad port"},
      {"http://[::1/", "IPv6"},
  };
  for (const auto& [url, why] : refused) {
    error.clear();
    EXPECT_FALSE(parse_url(url, error)) << url;
    EXPECT_NE(error.find(why), std::string::npos) << url << ": " << error;
  }
}

// RpcClient posts to the URL's path: the family's own path written out works, a query is
// kept, another path is the server's 404.
TEST_F(ClientTest, UrlPathIsPostedTo) {
  const Message add = call("add", {Value::integer(2), Value::integer(3)});
  ClientConfig c = config(Family::jsonrpc);
  c.url += "/jsonrpc?client=test";
  CallResult r = RpcClient(c).call(add);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(rpc::to_canonical_json(r.response), R"({"kind":"response","method":"add","result":5})");
  c.url = http_->base_url() + "/ws/orders";
  r = RpcClient(c).call(add);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("HTTP 404"), std::string::npos) << r.error;
}

TEST_F(ClientTest, IoTimeoutEndsTheCall) {
  // A listener that accepts (the kernel does) but never answers.
  asio::io_context ioc;
  tcp::acceptor silent(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  ClientConfig c = config(Family::jsonrpc);
  c.url = "http://127.0.0.1:" + std::to_string(silent.local_endpoint().port());
  c.io_timeout = std::chrono::milliseconds(200);
  RpcClient client(c);
  CallResult r = client.call(standard_cases()[0].request);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("read response"), std::string::npos) << r.error;
}

// ---------------------------------------------------------------- misbehaving servers

// A scripted HTTP server on 127.0.0.1:0 for `connections` connections: answers every request
// with one canned JSON-RPC response (kResponse unless given), then closes (close_after_response)
// or waits for the client to close. Runs on its own thread, joined by the destructor.
class ScriptedServer {
 public:
  static constexpr std::string_view kResponse =
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 35\r\n\r\n"
      "{\"jsonrpc\":\"2.0\",\"result\":5,\"id\":1}";

  ScriptedServer(int connections, bool close_after_response, std::string_view response = kResponse)
      : acceptor_(ioc_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    thread_ = std::thread([this, connections, close_after_response, response] {
      for (int i = 0; i < connections; ++i) {
        error_code ec;
        tcp::socket s = acceptor_.accept(ec);
        if (ec) return;
        std::string in;
        std::array<char, 4096> buf;
        for (;;) {
          const std::size_t n = s.read_some(asio::buffer(buf), ec);
          if (ec) break;
          in.append(buf.data(), n);
          // One request: its header and a Content-Length body.
          const std::size_t end = in.find("\r\n\r\n");
          if (end == std::string::npos) continue;
          const std::size_t cl = in.find("Content-Length: ");
          const std::size_t body = std::stoul(in.substr(cl + 16));
          if (in.size() < end + 4 + body) continue;
          in.erase(0, end + 4 + body);
          asio::write(s, asio::buffer(response), ec);
          if (close_after_response) break;
        }
      }
    });
  }
  ~ScriptedServer() { thread_.join(); }

  std::string url() const {
    return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port());
  }

 private:
  asio::io_context ioc_;    // for the sockets only (all I/O is synchronous)
  tcp::acceptor acceptor_;  // 127.0.0.1:0
  std::thread thread_;      // serves the scripted connections
};

TEST(ClientEdge, ServerIgnoringConnectionCloseIsWaitedForBoundedly) {
  ScriptedServer server(1, /*close_after_response=*/false);
  ClientConfig c;
  c.url = server.url();
  c.family = Family::jsonrpc;
  c.keep_alive = false;
  c.io_timeout = std::chrono::milliseconds(300);
  RpcClient client(c);
  const auto start = std::chrono::steady_clock::now();
  CallResult r = client.call(call("add", {Value::integer(2), Value::integer(3)}));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_EQ(rpc::to_canonical_json(r.response), R"({"kind":"response","method":"add","result":5})");
  EXPECT_EQ(r.wire.received, ScriptedServer::kResponse.size());
  EXPECT_GT(r.wire.sent, 0u);
}

// HTTP/1.0 without Content-Length (Apache Axis's SimpleAxisServer): the body ends at the
// server's close, which the read of the body already consumed; the client once waited its whole
// close wait (2 s) for a second close after it.
TEST(ClientEdge, CloseDelimitedBodyEndsTheCallAtTheClose) {
  static constexpr std::string_view kHttp10 =
      "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n"
      "{\"jsonrpc\":\"2.0\",\"result\":5,\"id\":1}";
  ScriptedServer server(1, /*close_after_response=*/true, kHttp10);
  ClientConfig c;
  c.url = server.url();
  c.family = Family::jsonrpc;
  c.io_timeout = std::chrono::seconds(10);
  RpcClient client(c);
  const auto start = std::chrono::steady_clock::now();
  CallResult r = client.call(call("add", {Value::integer(2), Value::integer(3)}));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(1500));
  EXPECT_EQ(rpc::to_canonical_json(r.response), R"({"kind":"response","method":"add","result":5})");
  EXPECT_EQ(r.wire.received, kHttp10.size());
}

TEST(ClientEdge, KeptAliveConnectionClosedByTheServerIsReplaced) {
  ScriptedServer server(2, /*close_after_response=*/true);
  ClientConfig c;
  c.url = server.url();
  c.family = Family::jsonrpc;
  RpcClient client(c);
  const Message add = call("add", {Value::integer(2), Value::integer(3)});
  CallResult r = client.call(add);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.connected);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the server's FIN arrives
  r = client.call(add);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.connected) << "the closed connection was not reused";
  EXPECT_EQ(r.wire.received, ScriptedServer::kResponse.size());
}

// ---------------------------------------------------------------- soapbench call

struct Outcome {
  int status;          // exit status
  std::string output;  // stdout (and stderr when merged)
};

// Runs `soapbench ARGS` (SB_SOAPBENCH_EXE); stderr is merged into the output when asked.
Outcome soapbench(const std::string& args, bool merge_stderr = false) {
  const std::string cmd =
      std::string(SB_SOAPBENCH_EXE) + " " + args + (merge_stderr ? " 2>&1" : " 2>/dev/null");
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return {-1, ""};
  Outcome r{0, ""};
  std::array<char, 4096> buf;
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), pipe))
    r.output.append(buf.data(), n);
  const int status = pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

TEST_F(ClientTest, CallCommand) {
  const std::string url = "--url " + http_->base_url();
  Outcome r = soapbench("call " + url + " --protocol soap11 --style rpc-literal add 2 -3");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.output, "{\"kind\":\"response\",\"method\":\"add\",\"result\":-1}\n");
  // Typed by the contract: 2 becomes 2.0 for a double, strings become dateTime/base64.
  r = soapbench("call " + url +
                " --protocol xmlrpc complex "
                "'[{\"id\":1,\"name\":\"A\",\"weight\":2,\"birthdate\":\"1990-01-02T03:04:05\","
                "\"children\":[]}]'");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(
      r.output,
      "{\"kind\":\"response\",\"method\":\"complex\",\"result\":[{\"id\":1,\"name\":\"A\","
      "\"weight\":2.0,\"birthdate\":{\"$dateTime\":\"1990-01-02T03:04:05\"},\"children\":[]}]}\n");
  r = soapbench("call " + url + " --protocol soap12 echoBase64 '\"aGVsbG8=\"'");
  EXPECT_EQ(
      r.output,
      "{\"kind\":\"response\",\"method\":\"echoBase64\",\"result\":{\"$base64\":\"aGVsbG8=\"}}\n");
  // A fault: printed, exit 2.
  r = soapbench("call " + url + " --protocol jsonrpc fail");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "{\"kind\":\"fault\",\"code\":4,\"message\":\"division by zero\"}\n");
  // --timing: one JSON line after each response; --no-keep-alive: every call connects.
  r = soapbench("call " + url + " --protocol jsonrpc --no-keep-alive --repeat 2 --timing add 1 2");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 4) << r.output;
  EXPECT_NE(r.output.find("\"connected\":true,\"tls_resumed\":false}\n{\"kind\""),
            std::string::npos)
      << r.output;
  // Errors: one line on stderr, exit 1, nothing on stdout.
  for (const std::string& bad :
       {std::string("--protocol jsonrpc add 1 '{'"), std::string("--protocol xmlrpc add 1 '\"x\"'"),
        std::string("--protocol soap12 --style rpc-encoded add 1 2"),
        std::string("--protocol soap11 noSuchMethod"),
        std::string("--protocol jsonrpc --bogus add")}) {
    r = soapbench("call " + url + " " + bad);
    EXPECT_EQ(r.status, 1) << bad;
    EXPECT_EQ(r.output, "") << bad;
    r = soapbench("call " + url + " " + bad, true);
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << bad << ": " << r.output;
  }
  r = soapbench("call --url http://127.0.0.1:1 --protocol xmlrpc add 1 2", true);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("connect"), std::string::npos) << r.output;
}

TEST_F(ClientTest, WireBytesEqualWhatAProxyCounts) {
  struct Mode {
    const char* name;
    bool tls;
    bool keep_alive;
  };
  for (const Mode& mode : {Mode{"keep-alive", false, true}, Mode{"per-call", false, false},
                           Mode{"tls keep-alive", true, true}, Mode{"tls per-call", true, false}}) {
    for (Family f : {Family::xmlrpc, Family::soap11_rpc_encoded, Family::soap12_doc_literal,
                     Family::jsonrpc}) {
      CountingProxy proxy((mode.tls ? https_ : http_)->port());
      ClientConfig c = config(f, mode.tls);
      c.url =
          std::string(mode.tls ? "https" : "http") + "://127.0.0.1:" + std::to_string(proxy.port());
      c.keep_alive = mode.keep_alive;
      RpcClient client(c);
      for (int i = 0; i < 4; ++i) {
        const Case k = standard_cases()[static_cast<std::size_t>(i) % 5];
        Observed o = observe(client, proxy, k.request);
        ASSERT_TRUE(o.result.ok) << o.result.error;
        EXPECT_EQ(o.result.wire.sent, o.up)
            << mode.name << " " << name_of(f) << " call " << i << " " << k.request.method;
        EXPECT_EQ(o.result.wire.received, o.down)
            << mode.name << " " << name_of(f) << " call " << i << " " << k.request.method;
        if (mode.tls && !mode.keep_alive) {
          EXPECT_EQ(o.result.tls_resumed, i > 0);
        }
      }
    }
  }
}

TEST_F(ClientTest, WireMeterCountsPayloadOnly) {
  // Two sockets exchanging known byte counts: SYN and FIN must not show up as bytes.
  asio::io_context ioc;
  tcp::acceptor a(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  tcp::socket client(ioc);
  client.connect(a.local_endpoint());
  tcp::socket server = a.accept();
  WireMeter meter;
  ASSERT_TRUE(meter.start(client.native_handle()));
  asio::write(client, asio::buffer(std::string(1000, 'x')));
  std::string in(1000, '\0');
  asio::read(server, asio::buffer(in));
  asio::write(server, asio::buffer(std::string(300, 'y')));
  std::string back(300, '\0');
  asio::read(client, asio::buffer(back));
  EXPECT_EQ(meter.delta(client.native_handle()), (SocketBytes{1000, 300}));
  // The peer's FIN received: still 300.
  server.shutdown(tcp::socket::shutdown_send);
  error_code ec;
  client.read_some(asio::buffer(back), ec);
  EXPECT_EQ(ec, asio::error::eof);
  EXPECT_EQ(meter.delta(client.native_handle()), (SocketBytes{1000, 300}));
  EXPECT_EQ(read_socket_bytes(-1), std::nullopt);
}

}  // namespace
}  // namespace sb
