// RpcServer (harness/server/http_server.h) in-process on 127.0.0.1, driven by a small Beast client
// (tests/server_fixture.h): every family answers, X-Parser picks the adapter, faults stay
// protocol faults on a live connection, the WSDL names the real port, getChain is passed through
// byte for byte, Server-Timing, TLS resumes sessions. The HTTP rules and limits:
// tests/server_limits_test.cpp.
#include <gtest/gtest.h>

#include "tests/server_fixture.h"

namespace sb {
namespace {

using namespace server_test;

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

}  // namespace
}  // namespace sb
