// The generated WSDL, read back with pugixml: well-formed, every operation in every binding,
// every port at the base URL. tests/wsdl/test_wsdl.py has a real WSDL consumer (zeep) read it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <pugixml.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "codecs/service_contract.h"
#include "codecs/wsdl.h"

namespace {

using sb::rpc::Operation;
using sb::rpc::service_contract;
using testing::ElementsAre;
using testing::ElementsAreArray;

// Parses `xml`, failing the test with pugixml's reason and offset when it is not well-formed.
void parse(pugi::xml_document& doc, const std::string& xml) {
  const pugi::xml_parse_result r = doc.load_buffer(xml.data(), xml.size());
  ASSERT_TRUE(r) << r.description() << " at offset " << r.offset;
}

// The `name` attributes of the children of `parent` called `element`.
// The WSDL's own schema (targetNamespace urn:soapbench) inside wsdl:types.
pugi::xml_node service_schema(const pugi::xml_document& doc) {
  return doc.document_element()
      .child("wsdl:types")
      .find_child_by_attribute("xsd:schema", "targetNamespace", "urn:soapbench");
}

std::vector<std::string> names_of(pugi::xml_node parent, const char* element) {
  std::vector<std::string> out;
  for (pugi::xml_node n : parent.children(element)) out.emplace_back(n.attribute("name").value());
  return out;
}

std::vector<std::string> contract_operation_names() {
  std::vector<std::string> out;
  for (const Operation& op : service_contract().operations()) out.emplace_back(op.name);
  return out;
}

TEST(Wsdl, ParsesWithDefinitionsRoot) {
  pugi::xml_document doc;
  parse(doc, sb::rpc::generate_wsdl(service_contract(), "http://127.0.0.1:8080"));
  const pugi::xml_node root = doc.document_element();
  EXPECT_STREQ(root.name(), "wsdl:definitions");
  EXPECT_STREQ(root.attribute("targetNamespace").value(), "urn:soapbench");
  EXPECT_STREQ(root.attribute("xmlns:wsdl").value(), "http://schemas.xmlsoap.org/wsdl/");
}

TEST(Wsdl, EveryBindingNamesEveryOperationInOrder) {
  pugi::xml_document doc;
  parse(doc, sb::rpc::generate_wsdl(service_contract(), "http://127.0.0.1:8080"));
  const pugi::xml_node root = doc.document_element();
  EXPECT_THAT(names_of(root, "wsdl:binding"),
              ElementsAre("SoapBenchDocLiteral11Binding", "SoapBenchDocLiteral12Binding",
                          "SoapBenchRpcLiteral11Binding", "SoapBenchRpcEncoded11Binding"));
  const std::vector<std::string> ops = contract_operation_names();
  for (pugi::xml_node binding : root.children("wsdl:binding")) {
    SCOPED_TRACE(binding.attribute("name").value());
    EXPECT_THAT(names_of(binding, "wsdl:operation"), ElementsAreArray(ops));
    for (pugi::xml_node op : binding.children("wsdl:operation")) {
      const std::string name = op.attribute("name").value();
      const Operation* contract_op = service_contract().find(name);
      ASSERT_NE(contract_op, nullptr) << name;
      const pugi::xml_node soap_op =
          op.child("soap:operation") ? op.child("soap:operation") : op.child("soap12:operation");
      EXPECT_EQ(soap_op.attribute("soapAction").value(), std::string(contract_op->ns) + "#" + name);
    }
  }
  for (pugi::xml_node port_type : root.children("wsdl:portType")) {
    SCOPED_TRACE(port_type.attribute("name").value());
    EXPECT_THAT(names_of(port_type, "wsdl:operation"), ElementsAreArray(ops));
  }
}

TEST(Wsdl, EveryPortAtTheBaseUrl) {
  pugi::xml_document doc;
  parse(doc, sb::rpc::generate_wsdl(service_contract(), "http://192.0.2.7:9090"));
  const pugi::xml_node service = doc.document_element().child("wsdl:service");
  EXPECT_STREQ(service.attribute("name").value(), "SoapBenchService");
  EXPECT_THAT(names_of(service, "wsdl:port"),
              ElementsAre("SoapBenchDocLiteral11", "SoapBenchDocLiteral12", "SoapBenchRpcLiteral11",
                          "SoapBenchRpcEncoded11"));
  for (pugi::xml_node port : service.children("wsdl:port")) {
    const pugi::xml_node address =
        port.child("soap:address") ? port.child("soap:address") : port.child("soap12:address");
    EXPECT_STREQ(address.attribute("location").value(), "http://192.0.2.7:9090/soap")
        << port.attribute("name").value();
  }
}

TEST(Wsdl, BaseUrlIsEscapedAndLosesTrailingSlash) {
  pugi::xml_document doc;
  const std::string wsdl =
      sb::rpc::generate_wsdl(service_contract(), "http://h.example/a?x=1&y=\"2\"/");
  parse(doc, wsdl);
  EXPECT_THAT(wsdl, testing::HasSubstr("http://h.example/a?x=1&amp;y=&quot;2&quot;/soap"));
  const pugi::xml_node port = doc.document_element().child("wsdl:service").child("wsdl:port");
  EXPECT_STREQ(port.child("soap:address").attribute("location").value(),
               "http://h.example/a?x=1&y=\"2\"/soap");
}

TEST(Wsdl, SchemaTypeForEveryStructAndArrayInEveryStyle) {
  pugi::xml_document doc;
  parse(doc, sb::rpc::generate_wsdl(service_contract(), "http://127.0.0.1:8080"));
  const pugi::xml_node schema = service_schema(doc);
  ASSERT_TRUE(schema);
  const std::vector<std::string> types = names_of(schema, "xsd:complexType");
  std::vector<std::string> expected;
  for (std::string_view suffix : {"", "RpcLit", "DocLit"}) {
    for (const sb::rpc::StructDef* s : service_contract().structs()) {
      expected.push_back(std::string(s->name) + std::string(suffix));
    }
    for (const sb::rpc::Type* a : service_contract().array_types()) {
      expected.push_back(std::string(a->name) + std::string(suffix));
    }
  }
  EXPECT_THAT(types, ElementsAreArray(expected));
}

TEST(Wsdl, WrapperElementsInTheOperationNamespace) {
  pugi::xml_document doc;
  parse(doc, sb::rpc::generate_wsdl(service_contract(), "http://127.0.0.1:8080"));
  const pugi::xml_node types = doc.document_element().child("wsdl:types");
  for (const Operation& op : service_contract().operations()) {
    SCOPED_TRACE(std::string(op.name));
    const std::string ns(op.ns);
    const pugi::xml_node schema =
        types.find_child_by_attribute("xsd:schema", "targetNamespace", ns.c_str());
    ASSERT_TRUE(schema);
    const std::string name(op.name);
    EXPECT_TRUE(schema.find_child_by_attribute("xsd:element", "name", name.c_str()));
    EXPECT_TRUE(schema.find_child_by_attribute("xsd:element", "name", (name + "Response").c_str()));
  }
}

// zeep and others fetch an import's schemaLocation, or with none the namespace URI itself: the
// SOAP-ENC schema comes from the server (GET /soap?xsd=soap-encoding), never from the internet.
TEST(Wsdl, SoapEncodingImportedFromTheServer) {
  pugi::xml_document doc;
  parse(doc, sb::rpc::generate_wsdl(service_contract(), "http://192.0.2.7:9090/"));
  const pugi::xml_node schema = service_schema(doc);
  const pugi::xml_node import = schema.find_child_by_attribute(
      "xsd:import", "namespace", "http://schemas.xmlsoap.org/soap/encoding/");
  ASSERT_TRUE(import);
  EXPECT_STREQ(import.attribute("schemaLocation").value(),
               "http://192.0.2.7:9090/soap?xsd=soap-encoding");
  pugi::xml_document enc;
  parse(enc, std::string(sb::rpc::served_schema("xsd=soap-encoding")));
  const pugi::xml_node root = enc.document_element();
  EXPECT_STREQ(root.attribute("targetNamespace").value(),
               "http://schemas.xmlsoap.org/soap/encoding/");
  EXPECT_TRUE(root.find_child_by_attribute("xsd:complexType", "name", "Array"));
  EXPECT_TRUE(root.find_child_by_attribute("xsd:attribute", "name", "arrayType"));
  // It imports the model group of its Array, also from the server.
  const std::string items(root.child("xsd:import").attribute("schemaLocation").value());
  ASSERT_TRUE(items.starts_with("?"));
  pugi::xml_document group;
  parse(group, std::string(sb::rpc::served_schema(items.substr(1))));
  EXPECT_TRUE(group.document_element().child("xsd:group"));
  EXPECT_TRUE(sb::rpc::served_schema("xsd=nothing").empty());
}

// complex's parameter takes a birthdate as a dateTime or a string (the classic client's
// str(datetime)); the result's Person keeps xsd:dateTime.
TEST(Wsdl, PersonInBirthdateIsDateTimeOrString) {
  pugi::xml_document doc;
  parse(doc, sb::rpc::generate_wsdl(service_contract(), "http://127.0.0.1:8080"));
  const pugi::xml_node schema = service_schema(doc);
  const pugi::xml_node simple =
      schema.find_child_by_attribute("xsd:simpleType", "name", "dateTimeOrString");
  ASSERT_TRUE(simple);
  EXPECT_STREQ(simple.child("xsd:union").attribute("memberTypes").value(),
               "xsd:dateTime xsd:string");
  for (const char* suffix : {"", "RpcLit", "DocLit"}) {
    SCOPED_TRACE(suffix);
    const pugi::xml_node in = schema.find_child_by_attribute(
        "xsd:complexType", "name", (std::string("PersonIn") + suffix).c_str());
    const pugi::xml_node out = schema.find_child_by_attribute(
        "xsd:complexType", "name", (std::string("Person") + suffix).c_str());
    EXPECT_STREQ(in.child("xsd:sequence")
                     .find_child_by_attribute("xsd:element", "name", "birthdate")
                     .attribute("type")
                     .value(),
                 "tns:dateTimeOrString");
    EXPECT_STREQ(out.child("xsd:sequence")
                     .find_child_by_attribute("xsd:element", "name", "birthdate")
                     .attribute("type")
                     .value(),
                 "xsd:dateTime");
  }
}

}  // namespace
