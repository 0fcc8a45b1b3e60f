// RpcServer's HTTP rules and limits (413, 400 on malformed or smuggling HTTP, 431, Host, the
// absolute form, the header and idle timeouts, crowding, 503, stop), each held while other
// clients keep being served; driven by the Beast client of tests/server_fixture.h.
#include <gtest/gtest.h>

#include <sstream>

#include "tests/server_fixture.h"

namespace sb {
namespace {

using namespace server_test;

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
  config.limits.max_connections = 1000;
  Server s(config);
  ASSERT_EQ(config.limits.header_timeout,
            10s);  // the default the flood would otherwise hold slots for
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
  config.limits.header_timeout = 300ms;
  config.limits.idle_timeout = 500ms;
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
  config.limits.max_connections = 2;
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

// Clients that ask for large answers and never read them: once more than
// max_queued_answer_bytes of answers wait for them, new requests get 503 instead of more answers
// held in memory; once those clients are gone, requests are served again.
TEST(Server, AnswersNobodyReadsAreBounded) {
  ServerConfig config = quick_config();
  config.max_queued_answer_bytes = 8 * 1024 * 1024;
  Server s(config);
  const Message respond = make_call(
      "respond",
      {Value::integer(static_cast<std::int32_t>(rpc::kMaxRespondWords)), Value::integer(0)});
  std::ostringstream call;
  call << post(Family::xmlrpc, encode(respond, Family::xmlrpc));
  std::vector<std::unique_ptr<Conn>> sleepers;  // send, never read
  const Message add = make_call("add", {Value::integer(2), Value::integer(3)});
  auto status = [&] {
    Conn c(s.server.port());
    return c.send(post(Family::xmlrpc, encode(add, Family::xmlrpc))).result_int();
  };
  int got = 200;
  const Clock::time_point t0 = Clock::now();
  while (got != 503 && Clock::now() - t0 < 5s) {
    sleepers.push_back(std::make_unique<Conn>(s.server.port()));
    sleepers.back()->write_raw(call.str());
    std::this_thread::sleep_for(100ms);
    got = status();
  }
  EXPECT_EQ(got, 503) << sleepers.size() << " answers of about 6 MB nobody reads";
  EXPECT_GE(sleepers.size(), 2u);
  sleepers.clear();
  const Clock::time_point t1 = Clock::now();
  while (got != 200 && Clock::now() - t1 < 5s) {
    std::this_thread::sleep_for(50ms);
    got = status();
  }
  EXPECT_EQ(got, 200);
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
