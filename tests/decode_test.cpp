// The decode level: every adapter decodes every corpus file to exactly the manifest's
// canonical JSON, and detects the file's family.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "codecs/canonical_json.h"
#include "parsers/registry.h"
#include "tests/corpus_fixture.h"

namespace sb {
namespace {

using test::corpus;

struct AdapterFamily {
  std::string adapter;  // registry name
  std::string family;   // protocol family
};

std::vector<AdapterFamily> adapter_families() {
  std::vector<AdapterFamily> out;
  for (const AdapterEntry& e : adapters()) {
    if (e.info().digest_exempt) continue;  // no entity decoding: values legitimately differ
    for (const std::string& f : test::families()) {
      if ((f == "jsonrpc") == (e.info().format == Format::json)) out.push_back({e.info().name, f});
    }
  }
  return out;
}

class DecodeTest : public testing::TestWithParam<AdapterFamily> {};

TEST_P(DecodeTest, CanonicalEqualsManifest) {
  std::unique_ptr<Adapter> adapter = make_adapter(GetParam().adapter);
  ASSERT_TRUE(adapter);
  MessageBuffer buffer;
  rpc::Message message;
  int checked = 0;
  for (const CorpusEntry& e : corpus().entries()) {
    if (e.hostile || e.family != GetParam().family) continue;
    buffer.assign(corpus().read(e));
    rpc::DecodeContext context;
    context.method = e.operation;  // responses of XML-RPC / JSON-RPC need it
    DecodeReport report;
    Status s = adapter->decode(buffer, context, message, report);
    ASSERT_TRUE(s.ok()) << e.path << ": " << s.describe();
    const std::string json = rpc::to_canonical_json(message);
    EXPECT_TRUE(e.canonical_matches(json)) << e.path << "\n  got:      " << json.substr(0, 300)
                                           << "\n  expected: " << e.canonical.substr(0, 300);
    // Detected family; SOAP faults do not show their style.
    if (e.direction != "fault" || !e.family.starts_with("soap11")) {
      EXPECT_EQ(rpc::family_name(report.family), e.family) << e.path;
    }
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(Corpus, DecodeTest, testing::ValuesIn(adapter_families()),
                         [](const testing::TestParamInfo<AdapterFamily>& p) {
                           std::string s = p.param.adapter + "__" + p.param.family;
                           for (char& c : s) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return s;
                         });

// Numbers with a zero significand outside RapidJSON's fast path: RapidJSON 1.1.0 (full precision)
// returns garbage for them (-0e99 as -6.5e296, clz(0) under UBSan; found by fuzz.decode), which
// parsers/rapidjson_numbers.h corrects. Every JSON adapter must give the same zeros.
TEST(DecodeNumbersTest, ZeroSignificandWithAnyExponentIsZero) {
  const std::string message =
      R"({"jsonrpc":"2.0","method":"echoDoubles","params":[[1.5,-0e99,0e-30,0E+40,-0.0e300,)"
      R"(0.000000000000000000000000000000,-0.0000000000000000000000000e5,1e-300,-2.5E+300]],"id":1})";
  const std::string expected =
      R"({"kind":"call","method":"echoDoubles","params":[[1.5,-0.0,0.0,0.0,-0.0,0.0,-0.0,)"
      R"(1e-300,-2.5e+300]]})";
  int checked = 0;
  for (const AdapterEntry& entry : adapters()) {
    if (entry.info().format != Format::json) continue;
    // A digest-exempt JSON library keeps no int/double distinction: Qt 6 stores every integral
    // number as an integer, so -0.0 loses its sign (docs/findings.md).
    if (entry.info().digest_exempt) continue;
    std::unique_ptr<Adapter> adapter = entry.make(Limits{});
    for (int round = 0; round < 2; ++round) {  // in-situ adapters get a fresh copy each time
      MessageBuffer buffer(message);
      rpc::Message out;
      DecodeReport report;
      const Status s = adapter->decode(buffer, rpc::DecodeContext{}, out, report);
      ASSERT_TRUE(s.ok()) << entry.info().name << ": " << s.describe();
      EXPECT_EQ(rpc::to_canonical_json(out), expected) << entry.info().name;
    }
    // The corpus keeps the fuzz smoke's find as a hostile file (sbtools/corpusgen/hostile.py).
    const CorpusEntry* found = nullptr;
    for (const CorpusEntry& e : corpus().entries()) {
      if (e.path == "hostile/json/zero-significand-exponents.json") found = &e;
    }
    ASSERT_NE(found, nullptr);
    MessageBuffer buffer(corpus().read(*found));
    rpc::Message out;
    DecodeReport report;
    ASSERT_TRUE(adapter->decode(buffer, rpc::DecodeContext{}, out, report).ok());
    EXPECT_EQ(rpc::to_canonical_json(out),
              R"({"kind":"call","method":"echoDoubles","params":[[1.5,-0.0,0.0,0.0]]})")
        << entry.info().name;
    ++checked;
  }
  EXPECT_GE(checked, 5);
}

// Every adapter of `format` decodes each (message, canonical JSON) case to that JSON; returns how
// many adapters were checked.
int expect_every_adapter_decodes(Format format,
                                 const std::vector<std::pair<std::string, std::string>>& cases) {
  int checked = 0;
  for (const AdapterEntry& entry : adapters()) {
    if (entry.info().format != format) continue;
    std::unique_ptr<Adapter> adapter = entry.make(Limits{});
    for (const auto& [message, expected] : cases) {
      MessageBuffer buffer(message);
      rpc::Message out;
      DecodeReport report;
      const Status s = adapter->decode(buffer, rpc::DecodeContext{}, out, report);
      EXPECT_TRUE(s.ok()) << entry.info().name << ": " << s.describe();
      EXPECT_EQ(rpc::to_canonical_json(out), expected) << entry.info().name;
    }
    ++checked;
  }
  return checked;
}

// A fault's <detail> may carry another stack's own entries with text (Apache Axis adds its
// stackTrace and hostname): they are skipped, the fault still decodes, and the contract's code
// beside them is still read, by every XML adapter, in SOAP 1.1 and 1.2.
TEST(DecodeFaultTest, AnotherStacksDetailEntriesAreSkipped) {
  const std::string axis =
      R"(<?xml version="1.0" encoding="utf-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.)"
      R"(xmlsoap.org/soap/envelope/"><soapenv:Body><soapenv:Fault><faultcode>soapenv:Server.)"
      R"(userException</faultcode><faultstring>java.util.ConcurrentModificationException)"
      R"(</faultstring><detail><ns1:stackTrace xmlns:ns1="http://xml.apache.org/axis/">java.util.)"
      "ConcurrentModificationException\n\tat java.base/java.util.ArrayList.sort(ArrayList.java:"
      R"(1723)</ns1:stackTrace><ns2:hostname xmlns:ns2="http://xml.apache.org/axis/">h</ns2:)"
      R"(hostname><ns3:fault xmlns:ns3="urn:soapbench"><code>4</code></ns3:fault></detail>)"
      R"(</soapenv:Fault></soapenv:Body></soapenv:Envelope>)";
  const std::string soap12 =
      R"(<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope"><env:Body><env:Fault>)"
      R"(<env:Code><env:Value>env:Receiver</env:Value></env:Code><env:Reason><env:Text )"
      R"(xml:lang="en">boom</env:Text></env:Reason><env:Detail><t:trace xmlns:t="urn:x">at )"
      R"(<t:frame>f()</t:frame> line 2</t:trace></env:Detail></env:Fault></env:Body>)"
      R"(</env:Envelope>)";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {axis, R"({"kind":"fault","code":4,"message":"java.util.ConcurrentModificationException"})"},
      {soap12, R"({"kind":"fault","code":0,"message":"boom"})"},
  };
  EXPECT_GE(expect_every_adapter_decodes(Format::xml, cases), 10);
}

}  // namespace
// JSON objects are unordered: a struct typed by the contract comes out in the contract's member
// order whatever order the message (or the library: Qt sorts keys) has, for every JSON adapter.
TEST(DecodeStructOrderTest, JsonStructsTakeTheContractsMemberOrder) {
  const std::string message =
      R"({"jsonrpc":"2.0","method":"complex","params":[[{"weight":61.5,"name":"Ann","id":1,)"
      R"("children":[],"birthdate":"1965-03-21T00:00:00"}]],"id":1})";
  const std::string expected =
      R"({"kind":"call","method":"complex","params":[[{"id":1,"name":"Ann","weight":61.5,)"
      R"("birthdate":"1965-03-21T00:00:00","children":[]}]]})";
  EXPECT_GE(expect_every_adapter_decodes(Format::json, {{message, expected}}), 5);
}

}  // namespace sb
