// Messages as real stacks write them, decoded by every adapter of their format (issue 41's
// "decode that holds", issue 44's wrong answers): Axis 1 multiRef answers with fractional
// dateTimes, SOAP 1.2 encoding, a foreign namespace's operation, Ruby xmlrpc's CDATA and
// whitespace-only strings, JSON-RPC 1.0, params by name. Each case is written here after the
// stack's own test data; the real files are corpus/wild/'s.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/decode_fixture.h"

namespace sb {
namespace {

using test::decoded_by;
using test::expect_every_adapter_decodes;
using test::expect_every_adapter_refuses;

// Apache Axis 1 answers with multiRef elements and xsd:dateTime in milliseconds.
TEST(DecodeWild, AnAxisMultiRefAnswerWithAFractionalDateTime) {
  const std::string axis = R"(<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
 <soapenv:Body>
  <ns1:getEventResponse soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xmlns:ns1="http://example.org/events">
   <getEventReturn href="#id0"/>
  </ns1:getEventResponse>
  <multiRef id="id0" soapenc:root="0" soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xsi:type="ns2:Event" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:ns2="http://example.org/events">
   <at xsi:type="xsd:dateTime">2009-04-30T06:38:34.000Z</at>
   <local xsi:type="xsd:dateTime">2009-04-30T08:38:34.250+02:00</local>
   <name xsi:type="xsd:string">release</name>
  </multiRef>
 </soapenv:Body>
</soapenv:Envelope>)";
  EXPECT_GE(expect_every_adapter_decodes(
                Format::xml,
                {{axis, R"({"kind":"response","method":"getEvent","result":{"at":{"$dateTime":)"
                        R"("2009-04-30T06:38:34"},"local":{"$dateTime":"2009-04-30T06:38:34.25"},)"
                        R"("name":"release"}})"}}),
            10);
  std::string beyond = axis;
  beyond.replace(beyond.find("2009-04-30T06"), 4, "10000");
  EXPECT_GE(expect_every_adapter_refuses(
                Format::xml, beyond,
                "bad dateTime '10000-04-30T06:38:34.000Z': years after 9999 are not supported"),
            10);
}

const char* kSoap12 = R"(<?xml version="1.0"?>
<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope" xmlns:enc="http://www.w3.org/2003/05/soap-encoding" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
 <env:Body>
  <m:paletteResponse xmlns:m="http://example.org/colors" env:encodingStyle="http://www.w3.org/2003/05/soap-encoding">
   %BODY%
  </m:paletteResponse>
 </env:Body>
</env:Envelope>)";

std::string soap12(const std::string& body) {
  std::string s = kSoap12;
  s.replace(s.find("%BODY%"), 6, body);
  return s;
}

// SOAP 1.2 Part 2 section 3: arrays by enc:itemType / enc:arraySize (items of any name) are
// arrays, never a struct with one key repeated; enc:id / enc:ref are references in place.
TEST(DecodeWild, Soap12EncodedArraysAndReferences) {
  const std::string colors =
      soap12(R"(<m:colors enc:itemType="xs:string" enc:arraySize="3"><m:item>red</m:item>)"
             R"(<m:item>blue</m:item><m:item>green</m:item></m:colors>)");
  const std::string graph = soap12(
      R"(<m:result xsi:type="m:Pair"><a enc:id="p1" xsi:type="m:Point"><x xsi:type="xs:int">1</x>)"
      R"(</a><b enc:ref="p1"/><c enc:nodeType="array" enc:arraySize="*"><i xsi:type="xs:int">2)"
      R"(</i><i xsi:type="xs:boolean">true</i></c></m:result>)");
  EXPECT_GE(
      expect_every_adapter_decodes(
          Format::xml,
          {{colors, R"({"kind":"response","method":"palette","result":["red","blue","green"]})"},
           {graph, R"({"kind":"response","method":"palette","result":{"a":{"x":1},)"
                   R"("b":{"x":1},"c":[2,true]}})"}}),
      10);
  EXPECT_GE(
      expect_every_adapter_refuses(
          Format::xml, soap12(R"(<m:loop xsi:type="m:L" enc:id="l"><n enc:ref="l"/></m:loop>)"),
          "cyclic href #l"),
      10);
}

// A struct's members are distinct (SOAP 1.1 section 5.4.1): repeated elements with no array type
// are refused by name, never decoded to duplicate JSON keys.
TEST(DecodeWild, RepeatedMembersWithoutAnArrayTypeAreRefused) {
  const std::string colors =
      soap12(R"(<m:colors xsi:type="m:Colors"><item xsi:type="xs:string">red</item>)"
             R"(<item xsi:type="xs:string">blue</item></m:colors>)");
  EXPECT_GE(expect_every_adapter_refuses(
                Format::xml, colors,
                "<item> repeats in <m:colors>, which has no array type (soapenc:arrayType, "
                "enc:itemType)"),
            10);
}

// Axis2's quickstart answers addResponse in its own namespace, document/literal: the built-in
// contract's add is urn:soapbench's, so it does not type it; the one line says what would.
TEST(DecodeWild, AForeignNamespaceIsNotTypedByTheBuiltInContract) {
  const std::string axis2 =
      R"(<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.)"
      R"(xmlsoap.org/soap/envelope/"><soapenv:Body><ns:addResponse xmlns:ns="http://quickstart.)"
      R"(samples/xsd"><ns:return>7</ns:return></ns:addResponse></soapenv:Body></soapenv:Envelope>)";
  EXPECT_GE(expect_every_adapter_refuses(
                Format::xml, axis2,
                "error -32601: method not found: add in namespace 'http://quickstart.samples/xsd' "
                "(the contract's add is in 'urn:soapbench'), and its Body is literal (no "
                "encodingStyle names SOAP encoding): a literal message is typed by its WSDL "
                "(--wsdl FILE)"),
            10);
  std::string own = axis2;
  own.replace(own.find("http://quickstart.samples/xsd"), 29, "urn:soapbench");
  EXPECT_EQ(decoded_by(*find_adapter("libxml2/dom"), own),
            R"({"kind":"response","method":"add","result":7})");
}

// Ruby xmlrpc's own test data: a CDATA string and a whitespace-only one. Every adapter gives
// "test" and "   ": RapidXML's fastest mode (which skips CDATA) and the DOMs that drop
// whitespace-only text included (parsers/leaf_text.h).
TEST(DecodeWild, CdataAndWhitespaceOnlyStrings) {
  const std::string ruby =
      "<?xml version=\"1.0\"?>\n<methodResponse><params><param><value><array><data>\n"
      "<value><string><![CDATA[test]]></string></value>\n"
      "<value><string>   </string></value>\n"
      "<value><string>\n\t</string></value>\n"
      "<value>  </value>\n"
      "<value><string>a<![CDATA[ <b> ]]>c</string></value>\n"
      "<value><string>\n  <![CDATA[<x/>]]>\n  </string></value>\n"
      "<value><string> <!-- a comment --> </string></value>\n"
      "</data></array></value></param></params></methodResponse>";
  // Whitespace beside a CDATA section or a comment: pugixml's parse_ws_pcdata_single keeps
  // whitespace-only text only as an element's one child (spring-ws's SWS-502.xml).
  EXPECT_GE(expect_every_adapter_decodes(
                Format::xml, {{ruby, R"({"kind":"response","method":"","result":["test","   ",)"
                                     R"("\n\t","  ","a <b> c","\n  <x/>\n  ","  "]})"}}),
            10);
}

// Line ends read as "\n" (XML 1.0 section 2.11), RapidXML's text included, which keeps "\r\n" as
// written (Axis2's SOAP 1.2 test replies are CRLF files).
TEST(DecodeWild, LineEndsAreNormalised) {
  const std::string fault =
      "<?xml version='1.0' ?>\r\n<env:Envelope xmlns:env=\"http://www.w3.org/2003/05/soap-"
      "envelope\">\r\n<env:Body>\r\n<env:Fault>\r\n<env:Code><env:Value>env:Sender</env:Value>"
      "</env:Code>\r\n<env:Reason>\r\n<env:Text xml:lang=\"en-US\">\r\n  not boolean\r\n"
      "</env:Text>\r\n</env:Reason>\r\n</env:Fault>\r\n</env:Body>\r\n</env:Envelope>\r\n";
  EXPECT_GE(
      expect_every_adapter_decodes(
          Format::xml, {{fault, R"({"kind":"fault","code":0,"message":"\n  not boolean\n"})"}}),
      10);
}

// An attribute's prefix bound to no namespace is not namespace-well-formed (Namespaces in XML
// 1.0 section 5): node-soap's multiCall response writes SOAP-ENC:arrayType with only
// SOAP-ENV-ENC declared. Refused by every adapter, never typed as if it were bound.
TEST(DecodeWild, AnAttributePrefixBoundToNoNamespaceIsRefused) {
  const std::string magento =
      R"(<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/" )"
      R"(xmlns:ns1="urn:Magento" xmlns:xsd="http://www.w3.org/2001/XMLSchema" )"
      R"(xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" SOAP-ENV:encodingStyle=)"
      R"("http://schemas.xmlsoap.org/soap/encoding/"><SOAP-ENV:Body><ns1:multiCallResponse>)"
      R"(<multiCallReturn SOAP-ENC:arrayType="xsd:ur-type[1]" xsi:type="ns1:FixedArray">)"
      R"(<item xsi:type="xsd:boolean">true</item></multiCallReturn></ns1:multiCallResponse>)"
      R"(</SOAP-ENV:Body></SOAP-ENV:Envelope>)";
  EXPECT_GE(expect_every_adapter_refuses(Format::xml, magento, "SOAP-ENC"), 10);
}

// JSON-RPC 1.0 (jsonrpc.org/specification_v1): no "jsonrpc" member, params an array, a response
// carries result and error, one of them null.
TEST(DecodeWild, JsonRpc10) {
  EXPECT_GE(expect_every_adapter_decodes(
                Format::json,
                {{R"({"method":"echo","params":["Hello JSON-RPC"],"id":1})",
                  R"({"kind":"call","method":"echo","params":["Hello JSON-RPC"]})"},
                 {R"({"result":"Hello JSON-RPC","error":null,"id":1})",
                  R"({"kind":"response","method":"","result":"Hello JSON-RPC"})"},
                 {R"({"result":null,"error":{"code":-32601,"message":"no such method"},"id":2})",
                  R"({"kind":"fault","code":-32601,"message":"no such method"})"},
                 {R"({"method":"add","params":[2,3],"id":null})",
                  R"({"kind":"call","method":"add","params":[2,3]})"},
                 // 1.0 leaves the error's form to the stack: a code that is no integer and an
                 // error given as text are another stack's, so no code (0).
                 {R"({"result":null,"error":{"code":"E42","message":"busy"},"id":3})",
                  R"({"kind":"fault","code":0,"message":"busy"})"},
                 {R"({"id":4,"error":"no such method","result":null})",
                  R"({"kind":"fault","code":0,"message":"no such method"})"}}),
            5);
  EXPECT_GE(expect_every_adapter_refuses(
                Format::json, R"({"jsonrpc":"2.0","error":{"code":"E42","message":"busy"},"id":3})",
                "error.code must be an integer"),
            5);
  EXPECT_GE(expect_every_adapter_refuses(Format::json,
                                         R"({"jsonrpc":"2.0","error":"no such method","id":4})",
                                         "\"error\" must be an object"),
            5);
  EXPECT_GE(
      expect_every_adapter_refuses(Format::json, R"({"method":"add","params":{"a":1},"id":1})",
                                   "JSON-RPC 1.0 params are an array"),
      5);
  EXPECT_GE(expect_every_adapter_refuses(Format::json,
                                         R"({"jsonrpc":"2.0","result":1,"error":null,"id":1})",
                                         "\"error\" must be an object"),
            5);
  EXPECT_GE(
      expect_every_adapter_refuses(
          Format::json, R"({"jsonrpc":"2.0","result":1,"error":{"code":1,"message":"x"},"id":1})",
          "holds \"result\" or \"error\", not both"),
      5);
}

// Params by name stay by name, in the order sent: Qt's JSON (which sorts an object's keys)
// included. The contract still types them and names what is missing or unknown.
TEST(DecodeWild, NamedParamsStayNamedInTheOrderSent) {
  EXPECT_GE(
      expect_every_adapter_decodes(
          Format::json,
          {{R"({"jsonrpc":"2.0","method":"eth_getBalance","params":{"block":1,"address":"0x1"},"id":1})",
            R"({"kind":"call","method":"eth_getBalance","params":{"block":1,"address":"0x1"}})"},
           {R"({"jsonrpc":"2.0","method":"getRate","params":{"country2":"us","country1":"eu"},"id":1})",
            R"({"kind":"call","method":"getRate","params":{"country2":"us","country1":"eu"}})"},
           {R"({"jsonrpc":"2.0","result":{"zeta":1.0,"alpha":{"b":-0.0,"a":[2,3.5]}},"id":1})",
            R"({"kind":"response","method":"","result":{"zeta":1.0,"alpha":{"b":-0.0,"a":[2,3.5]}}})"}}),
      5);
  EXPECT_GE(expect_every_adapter_refuses(
                Format::json, R"({"jsonrpc":"2.0","method":"add","params":{"b":2},"id":1})",
                "missing parameter a of add"),
            5);
  EXPECT_GE(
      expect_every_adapter_refuses(
          Format::json, R"({"jsonrpc":"2.0","method":"add","params":{"a":1,"b":2,"c":3},"id":1})",
          "unknown parameter c of add"),
      5);
}

// A UTF-8 byte order mark before a JSON text (RFC 8259 section 8.1: a parser may ignore it):
// each adapter reads the message as sent or refuses it, never answers otherwise. Qt's fromJson
// skips it, so Qt's decode must find the members' order behind it (it read the mark as a literal
// and, on a fuzzed message, walked objects it never read: AddressSanitizer's use-after-free).
TEST(DecodeWild, AByteOrderMarkIsReadAsSentOrRefused) {
  const std::string sent =
      R"({"jsonrpc":"2.0","method":"eth_getBalance","params":{"block":1,"address":"0x1"},"id":1})";
  const std::string expected =
      R"({"kind":"call","method":"eth_getBalance","params":{"block":1,"address":"0x1"}})";
  int read = 0;
  for (const AdapterEntry& entry : adapters()) {
    if (entry.info().format != Format::json) continue;
    const std::string got = decoded_by(entry, "\xEF\xBB\xBF" + sent);
    if (got.starts_with("error ")) continue;
    EXPECT_EQ(got, expected) << entry.info().name;
    ++read;
  }
  for (const AdapterEntry& entry : adapters()) {
    if (entry.info().name == "qt6-json/dom") {
      EXPECT_EQ(decoded_by(entry, "\xEF\xBB\xBF" + sent), expected);
      // Bytes JSON does not have where a literal stands: the order is not guessed.
      EXPECT_THAT(
          decoded_by(entry,
                     R"({"jsonrpc":"2.0","method":"m","params":{"b":1,"a":tru\xC3\xA9},"id":1})"),
          testing::StartsWith("error "));
    }
  }
  EXPECT_GE(read, 1);
}

}  // namespace
}  // namespace sb
