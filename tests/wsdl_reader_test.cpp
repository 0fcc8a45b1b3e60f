// The WSDL reader (codecs/wsdl_reader.h through harness/wsdl_file.h): our own WSDL read back
// types every corpus message as the built-in contract does; the XML Schema subset (sequence,
// all, choice, element refs, nillable, repeated elements, simple types and restrictions, unions,
// extension, SOAP-ENC arrays) decodes as described; anything outside it is refused by name.
// tests/wsdl/test_user_wsdl.py does the same with WSDLs written by others (gSOAP, SOAP::Lite,
// a published service).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "codecs/canonical_json.h"
#include "codecs/wsdl.h"
#include "harness/wsdl_file.h"
#include "parsers/registry.h"
#include "tests/corpus_fixture.h"

namespace {

using testing::HasSubstr;

// Writes `text` to a temporary file and returns its path.
std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// Decodes `bytes` with `adapter` typed by `contract` (nullptr: the built-in service).
std::string decode(const std::string& adapter, const std::string& bytes,
                   const sb::rpc::Contract* contract, const std::string& method = {}) {
  auto a = sb::make_adapter(adapter);
  sb::MessageBuffer buf(bytes);
  sb::rpc::DecodeContext ctx;
  ctx.contract = contract;
  ctx.method = method;
  sb::rpc::Message m;
  sb::DecodeReport report;
  const sb::Status s = a->decode(buf, ctx, m, report);
  return s.ok() ? sb::rpc::to_canonical_json(m) : "error: " + s.describe();
}

// A WSDL 1.1 document with one document/literal SOAP operation `op` whose request wrapper holds
// `request` and response wrapper `response` (schema particles), plus `types` at schema level.
std::string doc_literal_wsdl(const std::string& types, const std::string& request,
                             const std::string& response) {
  return R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
    xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:t="urn:t" targetNamespace="urn:t">
  <types><xs:schema targetNamespace="urn:t" elementFormDefault="qualified">)" +
         types + R"(
    <xs:element name="op"><xs:complexType>)" +
         request + R"(</xs:complexType></xs:element>
    <xs:element name="opResponse"><xs:complexType>)" +
         response + R"(</xs:complexType></xs:element>
  </xs:schema></types>
  <message name="in"><part name="parameters" element="t:op"/></message>
  <message name="out"><part name="parameters" element="t:opResponse"/></message>
  <portType name="P"><operation name="op"><input message="t:in"/><output message="t:out"/></operation></portType>
  <binding name="B" type="t:P"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="op"><soap:operation soapAction="urn:t#op"/>
      <input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  </binding>
</definitions>)";
}

// A SOAP 1.1 envelope around `body`.
std::string envelope(const std::string& body) {
  return R"(<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><s:Body>)" +
         body + "</s:Body></s:Envelope>";
}

sb::rpc::Contract load(const std::string& name, const std::string& wsdl,
                       sb::rpc::WsdlReport* report = nullptr) {
  sb::rpc::WsdlReport local;
  return sb::load_wsdl({temp_file(name, wsdl)}, report != nullptr ? *report : local);
}

// Each operation carries its binding for `soapbench call --wsdl`: SOAP version, style, use and
// the address of the port that exposes it; the first binding that defines an operation wins.
TEST(WsdlReader, OperationsCarryTheirBindingAndAddress) {
  const sb::rpc::Contract ours =
      load("ours-binding.wsdl", sb::rpc::generate_wsdl(sb::rpc::service_contract(), "http://h:1"));
  const sb::rpc::Operation* add = ours.find("add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->binding.soap_version, "1.1");
  EXPECT_EQ(add->binding.style, "document");
  EXPECT_EQ(add->binding.use, "literal");
  EXPECT_EQ(add->binding.address, "http://h:1/soap");
  EXPECT_EQ(add->soap_action, "urn:soapbench#add");

  const sb::rpc::Contract no_port = load("no-port.wsdl", doc_literal_wsdl("", "", ""));
  ASSERT_NE(no_port.find("op"), nullptr);
  EXPECT_EQ(no_port.find("op")->binding.address, "");

  std::string encoded = doc_literal_wsdl("", "", "");
  for (const auto& [from, to] :
       {std::pair<std::string, std::string>{"style=\"document\"", "style=\"rpc\""},
        {"use=\"literal\"", "use=\"encoded\""},
        {"</definitions>",
         "<service name=\"S\"><port name=\"p\" binding=\"t:B\">"
         "<soap:address location=\" http://e:2/x \"/></port></service></definitions>"}}) {
    encoded.replace(encoded.find(from), from.size(), to);
  }
  const sb::rpc::Contract rpc = load("rpc-encoded.wsdl", encoded);
  ASSERT_NE(rpc.find("op"), nullptr);
  EXPECT_EQ(rpc.find("op")->binding.style, "rpc");
  EXPECT_EQ(rpc.find("op")->binding.use, "encoded");
  EXPECT_EQ(rpc.find("op")->binding.address, "http://e:2/x");
}

// Our WSDL, read back, types every message of the corpus (every family: SOAP by the bindings'
// schema, XML-RPC and JSON-RPC by the operations' params) to the manifest's values.
TEST(WsdlReader, OurWsdlTypesTheWholeCorpusAsTheBuiltInContract) {
  sb::rpc::WsdlReport report;
  const sb::rpc::Contract contract =
      load("ours.wsdl", sb::rpc::generate_wsdl(sb::rpc::service_contract(), "http://h"), &report);
  EXPECT_THAT(report.refused, testing::IsEmpty());
  EXPECT_EQ(contract.operations().size(), sb::rpc::service_contract().operations().size());
  std::size_t checked = 0;
  for (const sb::CorpusEntry& e : sb::test::corpus().entries()) {
    if (e.hostile) continue;
    const std::string bytes = sb::test::corpus().read(e);
    const std::string adapter(sb::default_adapter(e.format == sb::Format::json));
    const std::string json = decode(adapter, bytes, &contract, e.operation);
    EXPECT_TRUE(e.canonical_matches(json)) << e.path << ": " << json.substr(0, 300);
    ++checked;
  }
  EXPECT_GT(checked, 500u);
}

TEST(WsdlReader, SequenceChoiceAllRefsAndRepeatedElements) {
  const std::string types = R"(
    <xs:element name="note" type="xs:string"/>
    <xs:simpleType name="Colour"><xs:restriction base="xs:string">
      <xs:enumeration value="red"/></xs:restriction></xs:simpleType>
    <xs:simpleType name="Small"><xs:restriction base="xs:short"><xs:maxInclusive value="9"/></xs:restriction></xs:simpleType>
    <xs:complexType name="Base"><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType>
    <xs:complexType name="Line"><xs:complexContent><xs:extension base="t:Base"><xs:sequence>
      <xs:element name="qty" type="t:Small"/>
      <xs:choice><xs:element name="sku" type="xs:string"/><xs:element name="ean" type="xs:long"/></xs:choice>
    </xs:sequence></xs:extension></xs:complexContent></xs:complexType>
    <xs:complexType name="Meta"><xs:all><xs:element name="b" type="xs:boolean"/><xs:element name="a" type="xs:double"/></xs:all></xs:complexType>)";
  const std::string request = R"(<xs:sequence>
      <xs:element name="colour" type="t:Colour"/>
      <xs:element name="line" type="t:Line" maxOccurs="unbounded"/>
      <xs:element ref="t:note" minOccurs="0"/>
      <xs:element name="meta" type="t:Meta" nillable="true"/>
      <xs:element name="when" type="xs:dateTime"/></xs:sequence>)";
  const sb::rpc::Contract c =
      load("subset.wsdl", doc_literal_wsdl(types, request, "<xs:sequence/>"));
  const std::string call = envelope(R"(<op xmlns="urn:t"><colour>red</colour>
      <line><id>1</id><qty>2</qty><sku>A-1</sku></line><line><id>2</id><qty>3</qty><ean>40000000000001</ean></line>
      <note>fragile &amp; heavy</note><meta><a>1.5</a><b>true</b></meta><when>2024-05-06T07:08:09Z</when></op>)");
  const std::string want =
      R"({"kind":"call","method":"op","params":["red",[{"id":1,"qty":2,"sku":"A-1"},{"id":2,"qty":3,"ean":"40000000000001"}],"fragile & heavy",{"a":1.5,"b":true},{"$dateTime":"2024-05-06T07:08:09"}]})";
  for (const char* adapter : {"pugixml/dom", "libxml2/sax", "expat/sax"}) {
    EXPECT_EQ(decode(adapter, call, &c), want) << adapter;
  }
  // nillable: xsi:nil gives null; a wrong scalar is refused with the schema's type name.
  EXPECT_THAT(
      decode(
          "pugixml/dom",
          envelope(
              R"(<op xmlns="urn:t"><colour>red</colour><line><id>1</id><qty>2</qty></line><meta xsi:nil="true"/><when>2024-05-06T07:08:09</when></op>)"),
          &c),
      HasSubstr(R"(["red",[{"id":1,"qty":2}],null,{"$dateTime")"));
  EXPECT_THAT(
      decode("pugixml/dom",
             envelope(
                 R"(<op xmlns="urn:t"><colour>red</colour><when>2024-05-06T07:08:09</when></op>)"),
             &c),
      HasSubstr("missing parameter line of op"));
  EXPECT_THAT(
      decode("pugixml/dom",
             envelope(R"(<op xmlns="urn:t"><colour>red</colour><line><id>x</id></line></op>)"), &c),
      HasSubstr("bad int 'x'"));
}

TEST(WsdlReader, ResponsesOneRepeatedOptionalOrSeveralChildren) {
  const sb::rpc::Contract several =
      load("several.wsdl", doc_literal_wsdl("", "<xs:sequence/>", R"(<xs:sequence>
        <xs:element name="total" type="xs:int"/><xs:element name="label" type="xs:string"/></xs:sequence>)"));
  EXPECT_EQ(
      decode("pugixml/dom",
             envelope(R"(<opResponse xmlns="urn:t"><total>3</total><label>x</label></opResponse>)"),
             &several),
      R"({"kind":"response","method":"op","result":{"total":3,"label":"x"}})");
  const sb::rpc::Contract repeated = load(
      "repeated.wsdl",
      doc_literal_wsdl(
          "", "<xs:sequence/>",
          R"(<xs:sequence><xs:element name="r" type="xs:int" minOccurs="0" maxOccurs="unbounded"/></xs:sequence>)"));
  EXPECT_EQ(
      decode("pugixml/dom", envelope(R"(<opResponse xmlns="urn:t"><r>1</r><r>2</r></opResponse>)"),
             &repeated),
      R"({"kind":"response","method":"op","result":[1,2]})");
  EXPECT_EQ(decode("pugixml/dom", envelope(R"(<opResponse xmlns="urn:t"/>)"), &repeated),
            R"({"kind":"response","method":"op","result":[]})");
}

// Element qualification (XML Schema 1.0 Part 1 section 3.3.2): a local element is in the
// schema's namespace when elementFormDefault (or its form=) says "qualified", else in none; a
// ref= takes the global element's. A document/literal message that puts an element elsewhere does
// not fit the WSDL: refused, naming the element and both namespaces, never typed as if it did.
TEST(WsdlReader, DocumentLiteralElementsAreInTheNamespaceTheirSchemaGives) {
  const std::string person =
      R"(<xs:complexType name="P"><xs:sequence><xs:element name="n" type="xs:string"/>)"
      R"(<xs:element name="age" type="xs:int" form="unqualified"/></xs:sequence></xs:complexType>)"
      R"(<xs:element name="id" type="xs:int"/>)";
  const sb::rpc::Contract qualified = load(
      "qualified.wsdl",
      doc_literal_wsdl(person,
                       R"(<xs:sequence><xs:element name="p" type="t:P"/><xs:element ref="t:id"/>)"
                       R"(</xs:sequence>)",
                       R"(<xs:sequence><xs:element name="r" type="xs:int"/></xs:sequence>)"));
  const std::string fits =
      envelope(R"(<t:op xmlns:t="urn:t"><t:p><t:n>x</t:n><age>3</age></t:p><t:id>7</t:id></t:op>)");
  EXPECT_EQ(decode("expat/sax", fits, &qualified),
            R"({"kind":"call","method":"op","params":[{"n":"x","age":3},7]})");
  // The same values with <age> qualified, which form="unqualified" keeps out of urn:t.
  const std::string qualified_age = envelope(
      R"(<t:op xmlns:t="urn:t"><t:p><t:n>x</t:n><t:age>3</t:age></t:p><t:id>7</t:id></t:op>)");
  EXPECT_EQ(decode("expat/sax", qualified_age, &qualified),
            "error: the WSDL does not fit the message: <age> is in namespace "
            "'urn:t', its schema puts it in no namespace (elementFormDefault / form=)");
  // A param in another namespace than its schema's (a default namespace on the wrapper).
  const std::string foreign_param =
      envelope(R"(<t:op xmlns:t="urn:t"><p xmlns="urn:other"><n>x</n></p><t:id>7</t:id></t:op>)");
  EXPECT_NE(decode("pugixml/dom", foreign_param, &qualified)
                .find("<p> is in namespace 'urn:other', its schema puts it in namespace 'urn:t'"),
            std::string::npos);

  // elementFormDefault absent: local elements unqualified; a message that qualifies them
  // (node-soap's Dummy samples, SOAP::Lite's document/literal) is refused.
  std::string unqualified_wsdl =
      doc_literal_wsdl("", R"(<xs:sequence><xs:element name="a" type="xs:int"/></xs:sequence>)",
                       R"(<xs:sequence><xs:element name="r" type="xs:int"/></xs:sequence>)");
  const std::string form_default = R"( elementFormDefault="qualified")";
  unqualified_wsdl.erase(unqualified_wsdl.find(form_default), form_default.size());
  const sb::rpc::Contract unqualified = load("unqualified.wsdl", unqualified_wsdl);
  EXPECT_EQ(decode("expat/sax", envelope(R"(<t:op xmlns:t="urn:t"><a>1</a></t:op>)"), &unqualified),
            R"({"kind":"call","method":"op","params":[1]})");
  EXPECT_EQ(decode("expat/sax", envelope(R"(<op xmlns="urn:t"><a>1</a></op>)"), &unqualified),
            "error: the WSDL does not fit the message: <a> is in namespace "
            "'urn:t', its schema puts it in no namespace (elementFormDefault / form=)");
  EXPECT_NE(
      decode("libxml2/sax",
             envelope(R"(<t:opResponse xmlns:t="urn:t"><t:r>1</t:r></t:opResponse>)"), &unqualified)
          .find("<r> is in namespace 'urn:t', its schema puts it in no namespace"),
      std::string::npos);
}

TEST(WsdlReader, SoapEncodingArraysAndRecursiveTypes) {
  const std::string wsdl = R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
    xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema"
    xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"
    xmlns:t="urn:t" targetNamespace="urn:t">
  <types><xsd:schema targetNamespace="urn:t">
    <xsd:complexType name="Node"><xsd:sequence><xsd:element name="v" type="xsd:int"/>
      <xsd:element name="kids" type="t:Nodes"/></xsd:sequence></xsd:complexType>
    <xsd:complexType name="Nodes"><xsd:complexContent><xsd:restriction base="soapenc:Array">
      <xsd:attribute ref="soapenc:arrayType" wsdl:arrayType="t:Node[]"/></xsd:restriction></xsd:complexContent></xsd:complexType>
  </xsd:schema></types>
  <message name="in"><part name="tree" type="t:Node"/></message><message name="out"><part name="n" type="xsd:int"/></message>
  <portType name="P"><operation name="count"><input message="t:in"/><output message="t:out"/></operation></portType>
  <binding name="B" type="t:P"><soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="count"><soap:operation soapAction=""/>
      <input><soap:body use="encoded" namespace="urn:t" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></input>
      <output><soap:body use="encoded" namespace="urn:t" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></output></operation>
  </binding></definitions>)";
  const sb::rpc::Contract c = load("encoded.wsdl", wsdl);
  const std::string call = envelope(R"(<t:count xmlns:t="urn:t"><tree><v>1</v><kids>
      <item><v>2</v><kids/></item><item><v>3</v><kids/></item></kids></tree></t:count>)");
  EXPECT_EQ(
      decode("libxml2/dom", call, &c),
      R"({"kind":"call","method":"count","params":[{"v":1,"kids":[{"v":2,"kids":[]},{"v":3,"kids":[]}]}]})");
}

// SOAP 1.2 rpc/encoded (the SOAP 1.2 interop rounds' WSDL,
// corpus/wild/axis1/wsdl/soap12-test.wsdl): an array by restriction of enc:Array, and a response
// whose first child is rpc:result, which names the return accessor (SOAP 1.2 Part 2 section 4.2.3)
// and is no result of its own.
TEST(WsdlReader, Soap12RpcResultAndEncArrays) {
  const std::string wsdl = R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
    xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:xsd="http://www.w3.org/2001/XMLSchema"
    xmlns:enc="http://www.w3.org/2003/05/soap-encoding" xmlns:t="urn:t" targetNamespace="urn:t">
  <types><xsd:schema targetNamespace="urn:t">
    <xsd:import namespace="http://www.w3.org/2003/05/soap-encoding"/>
    <xsd:complexType name="ArrayOfstring"><xsd:complexContent><xsd:restriction base="enc:Array">
      <xsd:sequence><xsd:element name="item" type="xsd:string" minOccurs="0" maxOccurs="unbounded"/>
      </xsd:sequence><xsd:attributeGroup ref="enc:arrayAttributes"/></xsd:restriction>
    </xsd:complexContent></xsd:complexType>
  </xsd:schema></types>
  <message name="in"><part name="inputStringArray" type="t:ArrayOfstring"/></message>
  <message name="out"><part name="return" type="xsd:int"/></message>
  <portType name="P"><operation name="countItems"><input message="t:in"/><output message="t:out"/></operation></portType>
  <binding name="B" type="t:P"><soap12:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="countItems"><soap12:operation soapAction=""/>
      <input><soap12:body use="encoded" namespace="urn:t" encodingStyle="http://www.w3.org/2003/05/soap-encoding"/></input>
      <output><soap12:body use="encoded" namespace="urn:t" encodingStyle="http://www.w3.org/2003/05/soap-encoding"/></output></operation>
  </binding></definitions>)";
  const sb::rpc::Contract c = load("soap12-rpc.wsdl", wsdl);
  const std::string head =
      R"(<e:Envelope xmlns:e="http://www.w3.org/2003/05/soap-envelope"><e:Body>)";
  const std::string call = head +
                           R"(<t:countItems xmlns:t="urn:t" e:encodingStyle="http://www.w3.org/)"
                           R"(2003/05/soap-encoding"><inputStringArray><item>a</item><item>b)"
                           R"(</item></inputStringArray></t:countItems></e:Body></e:Envelope>)";
  EXPECT_EQ(decode("libxml2/dom", call, &c),
            R"({"kind":"call","method":"countItems","params":[["a","b"]]})");
  const std::string response =
      head +
      R"(<t:countItemsResponse xmlns:t="urn:t" e:encodingStyle="http://www.w3.org/2003/05/)"
      R"(soap-encoding"><r:result xmlns:r="http://www.w3.org/2003/05/soap-rpc">return</r:result>)"
      R"(<return>2</return></t:countItemsResponse></e:Body></e:Envelope>)";
  EXPECT_EQ(decode("libxml2/dom", response, &c),
            R"({"kind":"response","method":"countItems","result":2})");
}

// Outside the subset: the operation is refused with the construct named; the others go on.
TEST(WsdlReader, UnsupportedConstructsAreNamed) {
  struct Case {
    std::string request;  // the request wrapper's content
    std::string named;    // what the refusal must say
  };
  const Case cases[] = {
      {R"(<xs:sequence><xs:element name="a" type="xs:int"/></xs:sequence><xs:attribute name="v" type="xs:int"/>)",
       "attributes (<xsd:attribute> in complexType op)"},
      {"<xs:sequence><xs:any/></xs:sequence>", "<xsd:any> in op (wildcard content)"},
      {R"(<xs:sequence><xs:element name="l"><xs:simpleType><xs:list itemType="xs:int"/></xs:simpleType></xs:element></xs:sequence>)",
       "xsd:list"},
      {R"(<xs:sequence><xs:group ref="t:g"/></xs:sequence>)", "model group reference"},
      {R"(<xs:simpleContent><xs:extension base="xs:string"/></xs:simpleContent>)", "simpleContent"},
      {R"(<xs:sequence maxOccurs="unbounded"><xs:element name="a" type="xs:int"/></xs:sequence>)",
       "a repeated <xsd:sequence> group"},
  };
  for (const Case& c : cases) {
    sb::rpc::WsdlReport report;
    const sb::rpc::Contract contract =
        load("bad.wsdl", doc_literal_wsdl("", c.request, "<xs:sequence/>"), &report);
    ASSERT_EQ(report.refused.size(), 1u) << c.named;
    EXPECT_THAT(report.refused[0], HasSubstr(c.named));
    EXPECT_THAT(std::string(contract.refusal("op")), HasSubstr(c.named));
    EXPECT_THAT(decode("pugixml/dom", envelope(R"(<op xmlns="urn:t"/>)"), &contract),
                HasSubstr("operation op cannot be typed: "));
  }
}

TEST(WsdlReader, DocumentsItCannotReadAtAll) {
  sb::rpc::WsdlReport report;
  EXPECT_THAT(
      [&] {
        try {
          sb::load_wsdl(
              {temp_file("w20.wsdl", R"(<description xmlns="http://www.w3.org/ns/wsdl"/>)")},
              report);
        } catch (const std::exception& e) {
          return std::string(e.what());
        }
        return std::string();
      }(),
      HasSubstr("WSDL 2.0"));
  EXPECT_THROW(sb::load_wsdl({temp_file("broken.wsdl", "<definitions")}, report),
               std::runtime_error);
  EXPECT_THROW(sb::load_wsdl({testing::TempDir() + "/no-such.wsdl"}, report), std::runtime_error);
}

}  // namespace
