// Messages typed without our contract: SOAP rpc/encoded by each value's xsi:type (and
// soapenc:arrayType, multi-references included), and JSON-RPC batches, which decode as a batch
// of messages when the caller asks for one (compare, decode) and stay refused by the server.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "codecs/canonical_json.h"
#include "parsers/registry.h"

namespace {

using testing::HasSubstr;

std::string decode(const std::string& adapter, const std::string& bytes, bool batch = false) {
  auto a = sb::make_adapter(adapter);
  sb::MessageBuffer buf(bytes);
  sb::rpc::DecodeContext ctx;
  ctx.batch = batch;
  sb::rpc::Message m;
  sb::DecodeReport report;
  const sb::Status s = a->decode(buf, ctx, m, report);
  return s.ok() ? sb::rpc::to_canonical_json(m)
                : "error " + std::to_string(report.fault_code) + ": " + s.describe();
}

const char* kEnvelope = R"(<?xml version="1.0"?>
<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"
  xmlns:E="http://schemas.xmlsoap.org/soap/encoding/" xmlns:xsi="http://www.w3.org/1999/XMLSchema-instance"
  xmlns:xsd="http://www.w3.org/1999/XMLSchema" S:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">
<S:Body>%BODY%</S:Body></S:Envelope>)";

std::string envelope(const std::string& body) {
  std::string s = kEnvelope;
  s.replace(s.find("%BODY%"), 6, body);
  return s;
}

TEST(SchemalessSoap, RpcEncodedOutsideTheContractIsTypedByXsiType) {
  const std::string call = envelope(R"(<m:SubmitOrder xmlns:m="urn:shop">
    <order xsi:type="m:Order"><id xsi:type="xsd:int">42</id><price xsi:type="xsd:double">9.5</price>
      <paid xsi:type="xsd:boolean">true</paid><when xsi:type="xsd:dateTime">2001-02-03T04:05:06</when>
      <blob xsi:type="E:base64">aGk=</blob><ref xsi:type="xsd:long">9007199254740993</ref>
      <lines xsi:type="E:Array" E:arrayType="xsd:int[2]"><i>1</i><i>2</i></lines>
      <tags E:arrayType="xsd:anyType[2]"><t xsi:type="xsd:string">a</t><t xsi:type="xsd:int">7</t></tags>
    </order><note xsi:type="xsd:string">x &amp; y</note></m:SubmitOrder>)");
  const std::string want =
      R"({"kind":"call","method":"SubmitOrder","params":[{"id":42,"price":9.5,"paid":true,"when":{"$dateTime":"2001-02-03T04:05:06"},"blob":{"$base64":"aGk="},"ref":"9007199254740993","lines":[1,2],"tags":["a",7]},"x & y"]})";
  for (const sb::AdapterEntry& a : sb::adapters()) {
    if (a.info().format != sb::Format::xml || !a.info().expands_entities) continue;
    EXPECT_EQ(decode(a.info().name, call), want) << a.info().name;
  }
}

TEST(SchemalessSoap, MultiReferencesAndResponsesWithOutParameters) {
  const std::string call = envelope(R"(<m:link xmlns:m="urn:x"><a href="#p"/><b href="#p"/></m:link>
    <m:Pair id="p" xsi:type="m:Pair" xmlns:m="urn:x"><x xsi:type="xsd:int">1</x></m:Pair>)");
  EXPECT_EQ(decode("pugixml/dom", call),
            R"({"kind":"call","method":"link","params":[{"x":1},{"x":1}]})");
  const std::string response = envelope(R"(<m:splitResponse xmlns:m="urn:x">
    <return xsi:type="xsd:int">3</return><rest xsi:type="xsd:string">tail</rest></m:splitResponse>)");
  EXPECT_EQ(decode("libxml2/sax", response),
            R"({"kind":"response","method":"split","result":{"return":3,"rest":"tail"}})");
}

// A value with no type to read it by is never guessed: the message is "method not found"
// (what a server answers for an operation it does not have), naming the element.
TEST(SchemalessSoap, ValuesWithoutXsiTypeAreRefusedByName) {
  const std::string literal =
      envelope(R"(<m:SubmitOrder xmlns:m="urn:shop"><id>42</id></m:SubmitOrder>)");
  const std::string got = decode("pugixml/dom", literal);
  EXPECT_THAT(got, HasSubstr("error -32601"));
  EXPECT_THAT(got, HasSubstr("method not found: SubmitOrder"));
  EXPECT_THAT(got, HasSubstr("<id> carries no xsi:type"));
  EXPECT_THAT(
      decode("pugixml/dom", envelope(R"(<m:f xmlns:m="u"><v xsi:type="xsd:frob">1</v></m:f>)")),
      HasSubstr("unknown XML Schema type"));
}

TEST(JsonRpcBatch, DecodesAsABatchWhenAskedAndIsRefusedOtherwise) {
  const std::string batch = R"([{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1},)"
                            R"({"jsonrpc":"2.0","method":"SubmitOrder","params":{"id":7},"id":2},)"
                            R"({"jsonrpc":"2.0","result":"ok","id":3}])";
  for (const sb::AdapterEntry& a : sb::adapters()) {
    if (a.info().format != sb::Format::json) continue;
    EXPECT_EQ(decode(a.info().name, batch, true),
              R"({"kind":"batch","messages":[{"kind":"call","method":"add","params":[1,2]},)"
              R"({"kind":"call","method":"SubmitOrder","params":{"id":7}},)"
              R"({"kind":"response","method":"","result":"ok"}]})")
        << a.info().name;
    EXPECT_THAT(decode(a.info().name, batch), HasSubstr("batch requests are not supported"));
  }
  EXPECT_THAT(decode("rapidjson/dom", "[]", true), HasSubstr("an empty batch"));
  EXPECT_THAT(decode("rapidjson/dom", "[1]", true), HasSubstr("a batch holds message objects"));
  EXPECT_THAT(decode("rapidjson/dom", R"([{"jsonrpc":"2.0","method":"add","params":[1]}])", true),
              HasSubstr("batch message 1: add takes 2 params"));
}

}  // namespace
