// The encoders (codecs/xml_encoder.h, json_encoder.h, harness/encoders.h): every encoder row writes
// every operation of every family it supports so that our decoders read back exactly the message
// that was written (random values with a fixed seed, and edge cases: tests/encode_messages.h),
// and the adapters behave as their registry rows say on what the encoders exposed. The writers
// alone: encode_writers_test.cpp; parsers we did not write: encode_foreign_test.cpp.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "codecs/canonical_json.h"
#include "harness/encoders.h"
#include "parsers/registry.h"
#include "tests/encode_messages.h"

namespace sb {
namespace {

using namespace encode_test;

// ---------------------------------------------------------------- decoding

// The adapters that read encoder output back: pugixml/dom plus one SAX adapter (XML), a DOM and a
// SAX adapter (JSON). SB_ENCODE_TEST_ALL_ADAPTERS=1 uses every adapter instead (exploration).
std::vector<std::string> decoders(bool json) {
  std::vector<std::string> out;
  if (std::getenv("SB_ENCODE_TEST_ALL_ADAPTERS") != nullptr) {
    for (const AdapterEntry& e : adapters()) {
      if (e.info().digest_exempt) continue;
      if ((e.info().format == Format::json) == json) out.push_back(e.info().name);
    }
    return out;
  }
  const std::vector<std::string> wanted =
      json ? std::vector<std::string>{"rapidjson/dom", "rapidjson/sax", "simdjson/dom"}
           : std::vector<std::string>{"pugixml/dom", "expat/sax", "libxml2/sax", "xerces/sax2"};
  for (const std::string& name : wanted) {
    if (find_adapter(name) != nullptr) out.push_back(name);
    if (out.size() == 2) break;
  }
  return out;
}

std::string describe(const Message& m) {
  std::string s = rpc::to_canonical_json(m);
  if (s.size() > 300) s = s.substr(0, 300) + "…";
  return s;
}

// The family a decoder can see in a document we wrote as f: SOAP 1.1 faults do not show their
// style, and a document/literal operation element without children looks like rpc/literal.
bool family_visible(const Message& m, Family f) {
  if (m.kind == MessageKind::fault) return !rpc::is_soap(f) || f == Family::soap12_doc_literal;
  if (f != Family::soap11_doc_literal) return true;
  const rpc::Operation* op = rpc::service_contract().find(m.method);
  if (m.kind == MessageKind::call) return !m.params.empty();
  return op != nullptr && op->result->kind != Kind::nil;
}

struct Case {
  std::string encoder;  // registry name
  Family family;        // family written
};

// Names the case in failure messages (instead of its bytes).
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.encoder << "/" << rpc::family_name(c.family);
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const EncoderEntry& e : encoders()) {
    for (Family f : rpc::kAllFamilies) {
      if (e.supports(f)) out.push_back({std::string(e.name), f});
    }
  }
  return out;
}

std::string case_name(const testing::TestParamInfo<Case>& p) {
  std::string s = p.param.encoder + "__" + std::string(rpc::family_name(p.param.family));
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return s;
}

// Encodes m, decodes it with every decoder, and checks both the message and its canonical JSON.
void expect_round_trip(Encoder& encoder, Family f, const Message& m,
                       const std::vector<std::unique_ptr<Adapter>>& readers) {
  std::string bytes;
  std::string error;
  ASSERT_TRUE(encoder.encode(m, f, bytes, error)) << error << "\nmessage: " << describe(m);
  const std::string expected = rpc::to_canonical_json(m);
  MessageBuffer buffer;
  for (const auto& reader : readers) {
    buffer.assign(bytes);
    rpc::DecodeContext context;
    context.method = m.method;  // XML-RPC and JSON-RPC responses do not name their method
    Message decoded;
    DecodeReport report;
    Status s = reader->decode(buffer, context, decoded, report);
    ASSERT_TRUE(s.ok()) << reader->info().name << ": " << s.describe()
                        << "\nmessage: " << describe(m) << "\nbytes: " << bytes.substr(0, 2000);
    EXPECT_TRUE(decoded == m) << reader->info().name << "\nwrote: " << describe(m)
                              << "\nread:  " << describe(decoded);
    EXPECT_EQ(rpc::to_canonical_json(decoded), expected) << reader->info().name;
    if (family_visible(m, f)) {
      EXPECT_EQ(rpc::family_name(report.family), rpc::family_name(f))
          << reader->info().name << ": " << describe(m);
    }
  }
}

std::vector<std::unique_ptr<Adapter>> make_readers(Family f) {
  std::vector<std::unique_ptr<Adapter>> readers;
  for (const std::string& name : decoders(f == Family::jsonrpc)) {
    readers.push_back(make_adapter(name));
  }
  return readers;
}

class EncodeRoundTrip : public testing::TestWithParam<Case> {};

// (1) + (4): encode -> decode is the identity, canonical JSON included.
TEST_P(EncodeRoundTrip, EveryOperationRandomAndEdge) {
  std::unique_ptr<Encoder> encoder = make_encoder(GetParam().encoder);
  ASSERT_TRUE(encoder);
  const auto readers = make_readers(GetParam().family);
  ASSERT_GE(readers.size(), 2U) << "need a DOM and a streaming adapter to read back";
  for (const Message& m : all_messages()) {
    SCOPED_TRACE(describe(m));
    expect_round_trip(*encoder, GetParam().family, m, readers);
    if (HasFatalFailure()) return;
  }
}

// (2): NaN and the infinities are refused where the wire has no spelling for them (XML-RPC,
// JSON-RPC) and round-trip through every SOAP family (xsd:double NaN, INF, -INF).
TEST_P(EncodeRoundTrip, NanAndInfinity) {
  std::unique_ptr<Encoder> encoder = make_encoder(GetParam().encoder);
  ASSERT_TRUE(encoder);
  const Family f = GetParam().family;
  const auto readers = make_readers(f);
  for (double special : {std::numeric_limits<double>::quiet_NaN(), HUGE_VAL, -HUGE_VAL}) {
    const Message messages[] = {call("echoDoubles", {doubles({1.0, special})}),
                                response("getRate", Value::floating(special))};
    for (const Message& m : messages) {
      SCOPED_TRACE(describe(m));
      if (rpc::is_soap(f)) {
        expect_round_trip(*encoder, f, m, readers);
      } else {
        std::string bytes;
        std::string error;
        EXPECT_FALSE(encoder->encode(m, f, bytes, error));
        EXPECT_NE(error.find("NaN or infinity"), std::string::npos) << error;
      }
    }
  }
}

// CR survives as &#13; (direct, libxml2, Xerces); writers whose library writes it raw (parsers
// would read LF) refuse it with a reason instead of corrupting the string.
TEST_P(EncodeRoundTrip, CarriageReturnSurvivesOrIsRefused) {
  std::unique_ptr<Encoder> encoder = make_encoder(GetParam().encoder);
  ASSERT_TRUE(encoder);
  const Family f = GetParam().family;
  const Message m = call("concat", {Value::string("a\r\nb"), Value::string("\r")});
  const bool refuses =
      f != Family::jsonrpc && (GetParam().encoder == "pugixml" || GetParam().encoder == "tinyxml2");
  if (!refuses) {
    expect_round_trip(*encoder, f, m, make_readers(f));
    return;
  }
  std::string bytes;
  std::string error;
  EXPECT_FALSE(encoder->encode(m, f, bytes, error));
  EXPECT_NE(error.find("CR"), std::string::npos) << error;
}

// Strings that are only whitespace are data (<string> </string> is " "). Read back by the
// streaming adapter here, by every adapter below (WhitespaceOnlyStringsDecodeAsSent).
const Message& whitespace_only() {
  static const Message m = call("echoStrings", {strings({" ", "\t\n ", "  ", "\n"})});
  return m;
}

TEST_P(EncodeRoundTrip, WhitespaceOnlyStringsThroughStreamingAdapter) {
  std::unique_ptr<Encoder> encoder = make_encoder(GetParam().encoder);
  ASSERT_TRUE(encoder);
  const Family f = GetParam().family;
  std::vector<std::unique_ptr<Adapter>> readers = make_readers(f);
  readers.erase(readers.begin());  // the DOM reader
  expect_round_trip(*encoder, f, whitespace_only(), readers);
}

// Every XML adapter decodes whitespace-only strings as written, those whose library drops such
// text too (AdapterInfo::decode_restores_text, parsers/leaf_text.h): never as "".
TEST_P(EncodeRoundTrip, WhitespaceOnlyStringsDecodeAsSent) {
  const Family f = GetParam().family;
  if (!rpc::is_xml(f)) GTEST_SKIP() << "JSON strings have no whitespace-only text nodes";
  std::unique_ptr<Encoder> encoder = make_encoder(GetParam().encoder);
  ASSERT_TRUE(encoder);
  std::string bytes;
  std::string error;
  ASSERT_TRUE(encoder->encode(whitespace_only(), f, bytes, error)) << error;
  MessageBuffer buffer;
  for (const AdapterEntry& a : adapters()) {
    if (a.info().format != Format::xml) continue;
    buffer.assign(bytes);
    rpc::DecodeContext context;
    Message decoded;
    DecodeReport report;
    ASSERT_TRUE(a.make({})->decode(buffer, context, decoded, report).ok()) << a.info().name;
    EXPECT_EQ(rpc::to_canonical_json(decoded), rpc::to_canonical_json(whitespace_only()))
        << a.info().name;
  }
}

// Text no XML 1.0 document can carry is an error in XML families; JSON escapes control
// characters; malformed UTF-8 is an error everywhere.
TEST_P(EncodeRoundTrip, UnrepresentableTextIsAnError) {
  std::unique_ptr<Encoder> encoder = make_encoder(GetParam().encoder);
  ASSERT_TRUE(encoder);
  const Family f = GetParam().family;
  std::string bytes;
  std::string error;
  for (const char* bad : {"\xff", "a\xc3", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80"}) {
    EXPECT_FALSE(encoder->encode(call("sendString", {Value::string(bad)}), f, bytes, error))
        << "accepted malformed UTF-8";
    EXPECT_FALSE(error.empty());
  }
  const Message control = call("sendString", {Value::string(std::string("a\x01\x00z", 4))});
  const Message nonchar = call("sendString", {Value::string("\xef\xbf\xbf")});  // U+FFFF
  if (f == Family::jsonrpc) {
    expect_round_trip(*encoder, f, control, make_readers(f));
    expect_round_trip(*encoder, f, nonchar, make_readers(f));
  } else {
    EXPECT_FALSE(encoder->encode(control, f, bytes, error));
    EXPECT_NE(error.find("U+0001"), std::string::npos) << error;
    EXPECT_FALSE(encoder->encode(nonchar, f, bytes, error));
    EXPECT_NE(error.find("U+FFFF"), std::string::npos) << error;
  }
}

// Messages the contract says cannot exist are refused by the SOAP encoders (they type values by
// it); XML-RPC and JSON-RPC write whatever the values are.
TEST_P(EncodeRoundTrip, ContractViolations) {
  std::unique_ptr<Encoder> encoder = make_encoder(GetParam().encoder);
  ASSERT_TRUE(encoder);
  const Family f = GetParam().family;
  std::string bytes;
  std::string error;
  EXPECT_FALSE(encoder->encode(call("", {}), f, bytes, error));
  EXPECT_FALSE(error.empty());
  if (!rpc::is_soap(f)) return;
  const struct {
    Message m;
    const char* reason;
  } bad[] = {
      {call("noSuchMethod", {}), "method not found"},
      {call("add", {Value::integer(1)}), "missing parameter b"},
      {call("add", {Value::integer(1), Value::integer(2), Value::integer(3)}), "takes 2"},
      {call("add", {Value::integer(1), Value::string("2")}), "expected int, got string"},
      {response("sendInt", Value::integer(1)), "returns void"},
      {response("complex", array_of({Value::integer(1)})), "expected Person"},
      {call("now", {}), ""},  // fine: no params
  };
  for (const auto& b : bad) {
    const bool ok = encoder->encode(b.m, f, bytes, error);
    if (*b.reason == '\0') {
      EXPECT_TRUE(ok) << error;
    } else {
      EXPECT_FALSE(ok) << describe(b.m);
      EXPECT_NE(error.find(b.reason), std::string::npos) << error;
    }
  }
  Value stranger = Value::structure();
  stranger.add_member("nickname", Value::string("x"));
  EXPECT_FALSE(encoder->encode(call("complex", {array_of({stranger})}), f, bytes, error));
  EXPECT_NE(error.find("unknown member nickname of Person"), std::string::npos) << error;
}

INSTANTIATE_TEST_SUITE_P(Encoders, EncodeRoundTrip, testing::ValuesIn(cases()), case_name);

// ---------------------------------------------------------------- known adapter issues

// Adapter bugs the encoders exposed (parsers/, not codecs/): disabled until fixed; run them with
// --gtest_also_run_disabled_tests. Each names the adapter and the input it misreads.

// Whitespace-only text is a library fact recorded in each registry row (keeps_whitespace_text):
// RapidXML, tinyxml2 and Qt's DOM drop it, with no option to keep it, and pugixml's default mode
// does. The decode level delivers it all the same (pugixml by parse_ws_pcdata_single, the others
// by decode_restores_text), in every XML family, the fastest mode included.
TEST(EncodeWhitespaceOnlyStrings, EveryXmlAdapterDecodesThemAsSent) {
  std::unique_ptr<Encoder> encoder = make_encoder("direct");
  for (const AdapterEntry& a : adapters()) {
    if (a.info().format != Format::xml) continue;
    std::unique_ptr<Adapter> adapter = a.make({});
    for (Family f : rpc::kAllFamilies) {
      if (!rpc::is_xml(f)) continue;
      std::string bytes;
      std::string error;
      ASSERT_TRUE(encoder->encode(whitespace_only(), f, bytes, error)) << error;
      MessageBuffer buf(bytes);
      Message got;
      DecodeReport report;
      ASSERT_TRUE(adapter->decode(buf, {}, got, report).ok()) << a.info().name;
      ASSERT_EQ(got.params.size(), 1u);
      const std::vector<Value>& items = got.params[0].items();
      ASSERT_EQ(items.size(), 4u) << a.info().name;
      for (std::size_t i = 0; i < items.size(); ++i) {
        EXPECT_EQ(items[i].text(), whitespace_only().params[0].items()[i].text())
            << a.info().name << " " << rpc::family_name(f);
      }
    }
  }
}

// simdjson 3.0.1's ondemand get_number() reads a double written with 19 or more significant
// digits as 0.0 (simdjson issue #2099); the adapter reads numbers with get_double() instead. Every
// JSON adapter must read such text (RapidJSON's writer produces it) exactly.
TEST(EncodeLongDoubles, EveryJsonAdapterReadsThem) {
  std::vector<std::unique_ptr<Adapter>> readers;
  for (const AdapterEntry& a : adapters()) {
    if (a.info().format == Format::json) readers.push_back(a.make({}));
  }
  ASSERT_FALSE(readers.empty());
  for (const EncoderEntry& e : encoders()) {
    if (!e.supports(Family::jsonrpc)) continue;
    Encoder encoder(e);
    expect_round_trip(encoder, Family::jsonrpc,
                      call("echoDoubles", {doubles({123456789012345680.0, 1e20, 1e22, 0.1})}),
                      readers);
  }
}

}  // namespace
}  // namespace sb
