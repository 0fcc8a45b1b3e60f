// The encoders' writers alone: the encoder table, the direct XML and JSON writers' escaping and
// refusals, and the wire shape each family's encoder writes.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "codecs/canonical_json.h"
#include "codecs/json_encoder.h"
#include "codecs/xml_encoder.h"
#include "harness/encoders.h"
#include "tests/encode_messages.h"

namespace sb {
namespace {

using namespace encode_test;

// ---------------------------------------------------------------- writers

TEST(EncodeTable, RowsAndLookup) {
  ASSERT_NE(find_encoder("direct"), nullptr);
  for (Family f : rpc::kAllFamilies) EXPECT_TRUE(find_encoder("direct")->supports(f));
  EXPECT_EQ(find_encoder("nope"), nullptr);
  std::string out;
  EXPECT_NE(encode_message("nope", call("add", {}), Family::xmlrpc, out), "");
  EXPECT_EQ(encode_message("direct", call("add", {Value::integer(2), Value::integer(3)}),
                           Family::jsonrpc, out),
            "");
  EXPECT_EQ(out, R"({"jsonrpc":"2.0","method":"add","params":[2,3],"id":1})");
  for (const EncoderEntry& e : encoders()) {
    if (e.name == "rapidjson") {
      EXPECT_NE(encode_message(e.name, call("add", {}), Family::xmlrpc, out), "");
    }
  }
}

TEST(EncodeDirectXmlWriter, Escaping) {
  rpc::DirectXmlWriter w;
  w.reset();
  w.start_element("a");
  w.attribute("x", "t\tl\nc\r\"<&>'");
  w.text("c\rl\n]]>&<\"'\t");
  w.start_element("e");
  w.end_element();
  w.start_element("f");
  w.text("");
  w.end_element();
  w.end_element();
  std::string out;
  ASSERT_TRUE(w.finish(out)) << w.error();
  EXPECT_EQ(
      out,
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
      "<a x=\"t&#9;l&#10;c&#13;&quot;&lt;&amp;>'\">c&#13;l\n]]&gt;&amp;&lt;\"'\t<e/><f/></a>");
}

TEST(EncodeDirectXmlWriter, RefusesWhatXmlCannotCarry) {
  rpc::DirectXmlWriter w;
  std::string out;
  const struct {
    std::string text;
    const char* reason;
  } cases[] = {
      {std::string("a\0b", 3), "control character U+0000 at byte 1"},
      {"\x1f", "U+001F at byte 0"},
      {"ok\xef\xbf\xbe", "U+FFFE at byte 2"},
      {"\xe0\x80\x80", "invalid UTF-8 at byte 0"},  // overlong
      {"\xed\xbf\xbf", "invalid UTF-8 at byte 0"},  // surrogate
      {"\x80", "invalid UTF-8 at byte 0"},
      {"ab\xe4\xb8", "invalid UTF-8 at byte 2"},  // truncated
  };
  for (const auto& c : cases) {
    w.reset();
    w.start_element("a");
    w.text(c.text);
    w.end_element();
    EXPECT_FALSE(w.finish(out));
    EXPECT_NE(std::string(w.error()).find(c.reason), std::string::npos) << w.error();
    w.reset();
    w.start_element("a");
    w.attribute("v", c.text);
    w.end_element();
    EXPECT_FALSE(w.finish(out)) << "attribute";
  }
  w.reset();
  w.start_element("a");
  EXPECT_FALSE(w.finish(out));  // unclosed
  w.reset();
  w.start_element("a");
  w.text("\xf0\x9f\x98\x80\xc2\x80\xef\xbf\xbd");  // emoji, U+0080, U+FFFD: all fine
  w.end_element();
  EXPECT_TRUE(w.finish(out)) << w.error();
}

TEST(EncodeDirectJsonWriter, EscapingAndErrors) {
  rpc::DirectJsonWriter w;
  std::string out;
  w.reset();
  w.start_object();
  w.key("k\"");
  w.start_array();
  w.string_value(std::string("a\0\x1f\"\\/\x7f中", 10));
  w.int_value(INT64_MIN);
  w.double_value(1e16);
  w.double_value(-0.0);
  w.bool_value(true);
  w.null_value();
  w.start_object();
  w.end_object();
  w.end_array();
  w.end_object();
  ASSERT_TRUE(w.finish(out)) << w.error();
  EXPECT_EQ(out,
            "{\"k\\\"\":[\"a\\u0000\\u001f\\\"\\\\/\x7f中\",-9223372036854775808,1e+16,-0.0,"
            "true,null,{}]}");
  w.reset();
  w.start_array();
  w.double_value(std::nan(""));
  w.end_array();
  EXPECT_FALSE(w.finish(out));
  w.reset();
  w.start_array();
  w.string_value("\xc3");
  w.end_array();
  EXPECT_FALSE(w.finish(out));
  EXPECT_NE(std::string(w.error()).find("invalid UTF-8"), std::string::npos);
}

TEST(EncodeDirect, WireShapes) {
  std::string out;
  std::string error;
  rpc::DirectXmlWriter x;
  ASSERT_TRUE(rpc::encode_xml(call("add", {Value::integer(2), Value::integer(3)}),
                              Family::soap11_rpc_encoded, x, out, error))
      << error;
  EXPECT_EQ(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
            "<SOAP-ENV:Envelope xmlns:SOAP-ENV=\"http://schemas.xmlsoap.org/soap/envelope/\" "
            "xmlns:SOAP-ENC=\"http://schemas.xmlsoap.org/soap/encoding/\" "
            "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
            "xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><SOAP-ENV:Body>"
            "<ns1:add xmlns:ns1=\"urn:soapbench\" "
            "SOAP-ENV:encodingStyle=\"http://schemas.xmlsoap.org/soap/encoding/\">"
            "<a xsi:type=\"xsd:int\">2</a><b xsi:type=\"xsd:int\">3</b></ns1:add>"
            "</SOAP-ENV:Body></SOAP-ENV:Envelope>");
  ASSERT_TRUE(rpc::encode_xml(response("echoInts", ints({1, 2})), Family::soap11_rpc_encoded, x,
                              out, error));
  EXPECT_NE(out.find("<return xsi:type=\"SOAP-ENC:Array\" SOAP-ENC:arrayType=\"xsd:int[2]\">"
                     "<item xsi:type=\"xsd:int\">1</item>"),
            std::string::npos)
      << out;
  ASSERT_TRUE(rpc::encode_xml(fault(rpc::fault::invalid_params, "bad"), Family::soap12_doc_literal,
                              x, out, error));
  EXPECT_NE(out.find("<env:Fault><env:Code><env:Value>env:Sender</env:Value></env:Code>"
                     "<env:Reason><env:Text xml:lang=\"en\">bad</env:Text></env:Reason>"
                     "<env:Detail><ns1:fault xmlns:ns1=\"urn:soapbench\"><code>-32602</code>"),
            std::string::npos)
      << out;
  ASSERT_TRUE(rpc::encode_xml(fault(4, "d"), Family::soap11_doc_literal, x, out, error));
  EXPECT_NE(out.find("<faultcode>soap:Server</faultcode><faultstring>d</faultstring>"),
            std::string::npos)
      << out;
  ASSERT_TRUE(
      rpc::encode_xml(call("sendString", {Value()}), Family::soap11_doc_literal, x, out, error));
  EXPECT_NE(out.find("<sendString xmlns=\"urn:soapbench\"><s xmlns:xsi=\"" +
                     std::string(rpc::ns::xsi) + "\" xsi:nil=\"true\"/></sendString>"),
            std::string::npos)
      << out;
  ASSERT_TRUE(rpc::encode_xml(response("sendInt", Value()), Family::xmlrpc, x, out, error));
  EXPECT_EQ(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><methodResponse><params><param><value>"
            "<nil/></value></param></params></methodResponse>");
  rpc::DirectJsonWriter j;
  rpc::JsonRpcOptions options;
  options.id = 42;
  ASSERT_TRUE(rpc::encode_json(fault(4, "division by zero"), j, out, error, options));
  EXPECT_EQ(out, R"({"jsonrpc":"2.0","error":{"code":4,"message":"division by zero"},"id":42})");
  ASSERT_TRUE(
      rpc::encode_json(response("now", Value::datetime("1998-07-17T14:08:55")), j, out, error));
  EXPECT_EQ(out, R"({"jsonrpc":"2.0","result":"1998-07-17T14:08:55","id":1})");
  EXPECT_FALSE(rpc::encode_json(response("now", Value::datetime("1998-07-17")), j, out, error));
  EXPECT_FALSE(
      rpc::encode_xml(response("now", Value::datetime("1998")), Family::xmlrpc, x, out, error));
}

}  // namespace
}  // namespace sb
