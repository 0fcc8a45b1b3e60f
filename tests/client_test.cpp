// The client side of the round trip: the endpoint URL, RpcClient against an in-process RpcServer
// for every family, connection reuse, TLS resumption, faults, and wire bytes checked against a
// byte-counting TCP proxy between client and server; the binary control's codec and its
// server/client pair.
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

#include "binary/binary_codec.h"
#include "binary/binary_rpc.h"
#include "client/http_client.h"
#include "client/http_request.h"
#include "client/wire_meter.h"
#include "codecs/canonical_json.h"
#include "codecs/family.h"
#include "codecs/service_contract.h"
#include "harness/corpus.h"
#include "server/http_server.h"

namespace sb {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;
using rpc::Family;
using rpc::Message;
using rpc::MessageKind;
using rpc::Value;

// ---------------------------------------------------------------- calls and expected answers

Message call(std::string method, std::vector<Value> params = {}) {
  Message m;
  m.kind = MessageKind::call;
  m.method = std::move(method);
  m.params = std::move(params);
  return m;
}

Value person(int id, std::string name, double weight, std::string born,
             std::vector<Value> children) {
  Value p = Value::structure();
  p.add_member("id", Value::integer(id));
  p.add_member("name", Value::string(std::move(name)));
  p.add_member("weight", Value::floating(weight));
  p.add_member("birthdate", Value::datetime(std::move(born)));
  Value kids = Value::array();
  for (Value& c : children) kids.push(std::move(c));
  p.add_member("children", std::move(kids));
  return p;
}

struct Case {
  Message request;       // the call
  std::string expected;  // canonical JSON of the response
};

// add, concat, complex, getRate, echoDoubles: one of each value shape, answers written by hand.
std::vector<Case> standard_cases() {
  std::vector<Case> cases;
  cases.push_back({call("add", {Value::integer(2), Value::integer(3)}),
                   R"({"kind":"response","method":"add","result":5})"});
  cases.push_back(
      {call("concat", {Value::string("a<&"), Value::string("\xC3\xA9\""), Value::string("c")}),
       R"({"kind":"response","method":"concat","result":"a<&é\"c"})"});
  Value people = Value::array();
  people.push(person(1, "Ann", 61.5, "1990-01-02T03:04:05",
                     {person(2, "Bo", 3.25, "2020-05-06T07:08:09", {})}));
  cases.push_back(
      {call("complex", {people}),
       R"({"kind":"response","method":"complex","result":[{"id":1,"name":"Ann","weight":61.5,)"
       R"("birthdate":{"$dateTime":"1990-01-02T03:04:05"},"children":[{"id":2,"name":"Bo",)"
       R"("weight":3.25,"birthdate":{"$dateTime":"2020-05-06T07:08:09"},"children":[]}]}]})"});
  cases.push_back({call("getRate", {Value::string("USA"), Value::string("Japan")}),
                   R"({"kind":"response","method":"getRate","result":1.25})"});
  Value doubles = Value::array();
  for (double d : {1.5, -0.25, 1e300, 0.1}) doubles.push(Value::floating(d));
  cases.push_back(
      {call("echoDoubles", {doubles}),
       R"({"kind":"response","method":"echoDoubles","result":[1.5,-0.25,1e+300,0.1]})"});
  return cases;
}

std::string name_of(Family f) { return std::string(rpc::family_name(f)); }

// ---------------------------------------------------------------- byte-counting proxy

// A transparent TCP proxy on 127.0.0.1, port 0, one I/O thread: counts every byte in each
// direction as it reads it, before forwarding it. Once a client has read a whole response, the
// counters hold that exchange completely (the server answered, so the request went through; the
// client read the response, so it was counted first).
class CountingProxy {
 public:
  explicit CountingProxy(std::uint16_t target)
      : target_(asio::ip::make_address("127.0.0.1"), target) {
    acceptor_.open(tcp::v4());
    acceptor_.bind(tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    acceptor_.listen();
    accept();
    thread_ = std::thread([this] { ioc_.run(); });
  }

  ~CountingProxy() {
    asio::post(ioc_, [this] {
      error_code ec;
      acceptor_.close(ec);
      for (Pipe* p : pipes_) p->close();
      ioc_.stop();
    });
    thread_.join();
  }

  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
  // Bytes client → server and server → client so far.
  std::uint64_t up() const { return up_.load(); }
  std::uint64_t down() const { return down_.load(); }
  // Connections accepted so far.
  int connections() const { return connections_.load(); }

 private:
  // One proxied connection: two pumps, each half-closing its far side on EOF.
  class Pipe : public std::enable_shared_from_this<Pipe> {
   public:
    Pipe(CountingProxy& proxy, tcp::socket client)
        : proxy_(proxy), client_(std::move(client)), server_(proxy.ioc_) {
      proxy_.pipes_.insert(this);
    }
    ~Pipe() { proxy_.pipes_.erase(this); }

    void start() {
      server_.async_connect(proxy_.target_, [self = shared_from_this()](error_code ec) {
        if (ec) return self->close();
        error_code ignored;
        self->client_.set_option(tcp::no_delay(true), ignored);
        self->server_.set_option(tcp::no_delay(true), ignored);
        self->pump(self->client_, self->server_, self->up_buf_, self->proxy_.up_);
        self->pump(self->server_, self->client_, self->down_buf_, self->proxy_.down_);
      });
    }

    void close() {
      error_code ec;
      client_.close(ec);
      server_.close(ec);
    }

   private:
    void pump(tcp::socket& from, tcp::socket& to, std::array<char, 16384>& buf,
              std::atomic<std::uint64_t>& counter) {
      from.async_read_some(asio::buffer(buf), [self = shared_from_this(), &from, &to, &buf,
                                               &counter](error_code ec, std::size_t n) {
        if (ec) {
          error_code ignored;
          to.shutdown(tcp::socket::shutdown_send, ignored);
          if (++self->done_ == 2 || ec != asio::error::eof) self->close();
          return;
        }
        counter += n;
        asio::async_write(to, asio::buffer(buf.data(), n),
                          [self, &from, &to, &buf, &counter](error_code ec2, std::size_t) {
                            if (ec2) return self->close();
                            self->pump(from, to, buf, counter);
                          });
      });
    }

    CountingProxy& proxy_;                // counters, target, registry
    tcp::socket client_;                  // accepted connection
    tcp::socket server_;                  // connection to the target
    std::array<char, 16384> up_buf_{};    // client → server bytes in flight
    std::array<char, 16384> down_buf_{};  // server → client bytes in flight
    int done_ = 0;                        // directions that reached EOF
  };

  void accept() {
    acceptor_.async_accept([this](error_code ec, tcp::socket s) {
      if (ec) return;
      ++connections_;
      std::make_shared<Pipe>(*this, std::move(s))->start();
      accept();
    });
  }

  // Declared before ioc_: pipes still queued in ioc_ deregister when it is destroyed.
  std::unordered_set<Pipe*> pipes_;     // live connections (I/O thread only)
  asio::io_context ioc_{1};             // the proxy's one thread
  tcp::acceptor acceptor_{ioc_};        // 127.0.0.1:0
  tcp::endpoint target_;                // the server
  std::thread thread_;                  // runs ioc_
  std::atomic<std::uint64_t> up_{0};    // client → server bytes
  std::atomic<std::uint64_t> down_{0};  // server → client bytes
  std::atomic<int> connections_{0};     // accepted connections
};

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

// ---------------------------------------------------------------- wire bytes vs the proxy

struct Observed {
  CallResult result;   // what the client reported
  std::uint64_t up;    // proxy: client → server bytes during the call
  std::uint64_t down;  // proxy: server → client bytes during the call
};

template <class Client>
Observed observe(Client& client, const CountingProxy& proxy, const Message& m) {
  const std::uint64_t up0 = proxy.up();
  const std::uint64_t down0 = proxy.down();
  Observed o{client.call(m), 0, 0};
  o.up = proxy.up() - up0;
  o.down = proxy.down() - down0;
  return o;
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

// ---------------------------------------------------------------- binary codec

class RandomMessages {
 public:
  explicit RandomMessages(std::uint64_t seed) : rng_(seed) {}

  Message next() {
    Message m;
    switch (rng_() % 3) {
      case 0:
        m.kind = MessageKind::call;
        m.method = text(12);
        for (int i = static_cast<int>(rng_() % 5); i > 0; --i) m.params.push_back(value(0));
        break;
      case 1:
        m.kind = MessageKind::response;
        m.method = text(12);
        m.result = value(0);
        break;
      default:
        m.kind = MessageKind::fault;
        m.fault_code = static_cast<std::int32_t>(rng_());
        m.fault_message = text(40);
    }
    return m;
  }

 private:
  // Any bytes: the binary format carries strings as they are.
  std::string text(std::size_t max) {
    std::string s(rng_() % (max + 1), '\0');
    for (char& c : s) c = static_cast<char>(rng_());
    return s;
  }

  Value value(int depth) {
    const int kind = static_cast<int>(rng_() % (depth < 4 ? 9 : 7));
    switch (kind) {
      case 0:
        return Value();
      case 1:
        return Value::boolean(rng_() & 1);
      case 2:
        return Value::integer(static_cast<std::int32_t>(rng_()));
      case 3:
        return Value::floating(std::bit_cast<double>(static_cast<std::uint64_t>(rng_())));
      case 4:
        return Value::string(text(30));
      case 5: {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d",
                      static_cast<int>(1 + rng_() % 9999), static_cast<int>(1 + rng_() % 12),
                      static_cast<int>(1 + rng_() % 28), static_cast<int>(rng_() % 24),
                      static_cast<int>(rng_() % 60), static_cast<int>(rng_() % 60));
        return Value::datetime(buf);
      }
      case 6:
        return Value::base64(text(30));
      case 7: {
        Value a = Value::array();
        for (int i = static_cast<int>(rng_() % 5); i > 0; --i) a.push(value(depth + 1));
        return a;
      }
      default: {
        Value s = Value::structure();
        for (int i = static_cast<int>(rng_() % 5); i > 0; --i)
          s.add_member(text(8), value(depth + 1));
        return s;
      }
    }
  }

  std::mt19937_64 rng_;  // fixed seed: reproducible failures
};

TEST(BinaryCodec, RandomMessagesRoundTrip) {
  RandomMessages gen(0xb1a5eedULL);
  for (int i = 0; i < 2000; ++i) {
    const Message m = gen.next();
    std::string frame;
    std::string error;
    ASSERT_TRUE(encode_binary_frame(m, frame, error)) << error;
    ASSERT_GE(frame.size(), kBinaryFrameHeader);
    const auto* header = reinterpret_cast<const unsigned char*>(frame.data());
    ASSERT_EQ(read_frame_length(header), frame.size() - kBinaryFrameHeader);
    Message back;
    ASSERT_TRUE(decode_binary(std::string_view(frame).substr(kBinaryFrameHeader), back, error))
        << error;
    EXPECT_EQ(back, m) << "message " << i;
  }
}

TEST(BinaryCodec, RejectsTruncatedAndTrailingBytes) {
  RandomMessages gen(7);
  for (int i = 0; i < 200; ++i) {
    std::string payload;
    std::string error;
    ASSERT_TRUE(encode_binary(gen.next(), payload, error));
    Message out;
    for (std::size_t n = 0; n < payload.size(); ++n) {
      EXPECT_FALSE(decode_binary(std::string_view(payload).substr(0, n), out, error))
          << "prefix " << n << " of " << payload.size();
      EXPECT_FALSE(error.empty());
    }
    EXPECT_FALSE(decode_binary(payload + '\0', out, error));
    EXPECT_NE(error.find("trailing"), std::string::npos) << error;
  }
}

TEST(BinaryCodec, SurvivesCorruption) {
  RandomMessages gen(11);
  std::mt19937_64 rng(13);
  int rejected = 0;
  for (int i = 0; i < 2000; ++i) {
    std::string payload;
    std::string error;
    ASSERT_TRUE(encode_binary(gen.next(), payload, error));
    for (int flips = 1 + static_cast<int>(rng() % 4); flips > 0; --flips) {
      payload[rng() % payload.size()] = static_cast<char>(rng());
    }
    Message out;
    if (!decode_binary(payload, out, error)) {
      ++rejected;
      EXPECT_EQ(error.find('\n'), std::string::npos);
    }
  }
  EXPECT_GT(rejected, 0);
}

TEST(BinaryCodec, RejectsHostileShapes) {
  Message out;
  std::string error;
  // A call claiming 2^32-1 params in a 10-byte payload: refused before any allocation.
  const std::string huge_count("\x00\x00\x00\x00\x00\xff\xff\xff\xff\x00", 10);
  EXPECT_FALSE(decode_binary(huge_count, out, error));
  EXPECT_NE(error.find("count"), std::string::npos) << error;
  // Arrays nested deeper than the limit.
  std::string deep("\x01\x00\x00\x00\x00", 5);  // response, empty method
  for (int i = 0; i <= kBinaryMaxDepth + 1; ++i) deep += std::string("\x07\x01\x00\x00\x00", 5);
  deep += '\0';
  EXPECT_FALSE(decode_binary(deep, out, error));
  EXPECT_NE(error.find("nesting"), std::string::npos) << error;
  // Unknown tags, bad booleans, non-canonical dateTimes, unknown message kinds.
  EXPECT_FALSE(decode_binary(std::string("\x01\x00\x00\x00\x00\x09", 6), out, error));
  EXPECT_FALSE(decode_binary(std::string("\x01\x00\x00\x00\x00\x01\x02", 7), out, error));
  EXPECT_FALSE(decode_binary(std::string("\x01\x00\x00\x00\x00\x05\x03\x00\x00\x00"
                                         "abc",
                                         13),
                             out, error));
  EXPECT_FALSE(decode_binary(std::string("\x03", 1), out, error));
  EXPECT_FALSE(decode_binary({}, out, error));
}

// ---------------------------------------------------------------- binary server and client

class BinaryTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new BinaryServer(BinaryServerConfig{});
    server_->start();
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static BinaryClientConfig config() {
    BinaryClientConfig c;
    c.port = server_->port();
    return c;
  }
  static BinaryServer* server_;  // 127.0.0.1, port 0
};

BinaryServer* BinaryTest::server_ = nullptr;

TEST_F(BinaryTest, AnswersTheStandardCalls) {
  BinaryClient client(config());
  int i = 0;
  for (const Case& c : standard_cases()) {
    CallResult r = client.call(c.request);
    ASSERT_TRUE(r.ok) << c.request.method << ": " << r.error;
    EXPECT_EQ(rpc::to_canonical_json(r.response), c.expected);
    EXPECT_EQ(r.connected, i++ == 0);
    EXPECT_GT(r.wire.sent, 0u);
  }
  CallResult r = client.call(call("fail"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(rpc::to_canonical_json(r.response),
            R"({"kind":"fault","code":4,"message":"division by zero"})");
  r = client.call(call("noSuchMethod"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.response.fault_code, rpc::fault::method_not_found);
  r = client.call(standard_cases()[0].request);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(r.connected);
}

TEST_F(BinaryTest, GetChainIsThePreEncodedCorpusDocument) {
  ASSERT_TRUE(server_->has_chain_document());
  const Corpus corpus = Corpus::load(default_corpus_dir());
  const CorpusEntry* entry = corpus.find("jsonrpc/getChain.response.json");
  ASSERT_NE(entry, nullptr);
  BinaryClient client(config());
  CallResult r = client.call(call("getChain"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(entry->canonical_matches(rpc::to_canonical_json(r.response)));
}

TEST_F(BinaryTest, WireBytesEqualWhatAProxyCounts) {
  for (bool keep_alive : {true, false}) {
    CountingProxy proxy(server_->port());
    BinaryClientConfig c = config();
    c.port = proxy.port();
    c.keep_alive = keep_alive;
    BinaryClient client(c);
    for (int i = 0; i < 5; ++i) {
      const Case k = standard_cases()[static_cast<std::size_t>(i)];
      Observed o = observe(client, proxy, k.request);
      ASSERT_TRUE(o.result.ok) << o.result.error;
      EXPECT_EQ(o.result.connected, !keep_alive || i == 0);
      EXPECT_EQ(o.result.wire.sent, o.up) << k.request.method;
      EXPECT_EQ(o.result.wire.received, o.down) << k.request.method;
    }
    EXPECT_EQ(proxy.connections(), keep_alive ? 1 : 5);
  }
}

TEST_F(BinaryTest, MalformedFramesGetFaults) {
  asio::io_context ioc;
  tcp::socket s(ioc);
  s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server_->port()));
  auto exchange = [&](const std::string& frame) {
    asio::write(s, asio::buffer(frame));
    std::array<unsigned char, 4> header;
    asio::read(s, asio::buffer(header));
    std::string payload(read_frame_length(header.data()), '\0');
    asio::read(s, asio::buffer(payload));
    Message m;
    std::string error;
    EXPECT_TRUE(decode_binary(payload, m, error)) << error;
    return m;
  };
  // A corrupted payload: a parse-error fault, and the connection goes on.
  Message m = exchange(std::string("\x02\x00\x00\x00\x00\x09", 6));
  EXPECT_EQ(m.fault_code, rpc::fault::parse_error);
  std::string frame;
  std::string error;
  ASSERT_TRUE(encode_binary_frame(standard_cases()[0].request, frame, error));
  m = exchange(frame);
  EXPECT_EQ(rpc::to_canonical_json(m), standard_cases()[0].expected);
  // A frame over the limit: a fault, then the server closes.
  unsigned char big[4];
  write_frame_length(static_cast<std::uint32_t>(kBinaryMaxFrame + 1), big);
  m = exchange(std::string(reinterpret_cast<char*>(big), 4));
  EXPECT_EQ(m.kind, MessageKind::fault);
  std::array<char, 16> rest;
  error_code ec;
  s.read_some(asio::buffer(rest), ec);
  EXPECT_EQ(ec, asio::error::eof);
}

}  // namespace
}  // namespace sb
