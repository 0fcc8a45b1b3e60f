// WSDL 1.1 from the service contract. The document must describe the corpus messages exactly
// (docs/service.md "Wire formats"), which shapes three decisions:
// - Struct members and array items are qualified in document/literal but unqualified in the
//   rpc styles, and rpc/encoded arrays are SOAP-ENC arrays while literal arrays are plain
//   `item` sequences. One schema type cannot be all of that, so each style gets its own type
//   family in urn:soapbench: rpc/encoded keeps the contract's names (`Person`, `ArrayOfInt`)
//   because its xsi:type attributes name them on the wire (xsi:type="ns1:Person"); the literal
//   families, whose type names never reach the wire, take a suffix (`PersonDocLit`,
//   `PersonRpcLit`).
// - Messages and port types differ per style for the same reason (element vs type parts, and
//   different part types), so each style has its own; the two document/literal bindings share
//   theirs.
// - Service faults carry `OPNS:fault/code` in their detail (code unqualified) in every family,
//   so every operation declares one literal fault message.
// - SOAP-ENC is imported with a schemaLocation on the server itself (served_schema()):
//   with none, consumers such as zeep fetch the namespace URI from the internet.
// - complex's PersonIn.birthdate is the one simple type of ours, tns:dateTimeOrString, a union of
//   xsd:dateTime and xsd:string shared by every style (its values carry built-in xsi:types).
#include "codecs/wsdl.h"

#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace sb::rpc {

namespace {

// WSDL 1.1 namespaces (the SOAP 1.2 binding is the W3C note's soap12 extension).
constexpr std::string_view kWsdlNs = "http://schemas.xmlsoap.org/wsdl/";
constexpr std::string_view kWsdlSoap11Ns = "http://schemas.xmlsoap.org/wsdl/soap/";
constexpr std::string_view kWsdlSoap12Ns = "http://schemas.xmlsoap.org/wsdl/soap12/";
constexpr std::string_view kHttpTransport = "http://schemas.xmlsoap.org/soap/http";

// One attribute of an element being written.
struct Attr {
  std::string_view name;   // qualified name as written
  std::string_view value;  // unescaped; empty means "leave the attribute out"
};

// A minimal pretty-printing XML writer: enough for a generated document whose names are all
// known to be valid; only text and attribute values are escaped.
class XmlWriter {
 public:
  XmlWriter() { out_ = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"; }

  // Opens <name …>; attributes with an empty value are left out (no attribute written here is
  // meaningful when empty, and it keeps optional attributes such as form= inline at call sites).
  void start(std::string_view name, std::initializer_list<Attr> attrs = {}) {
    start(name, std::span<const Attr>(attrs.begin(), attrs.size()));
  }

  // Opens <name …> with a computed attribute list.
  void start(std::string_view name, std::span<const Attr> attrs) {
    tag(name, attrs);
    out_ += ">\n";
    open_.emplace_back(name);
  }

  // Writes <name …/>.
  void empty(std::string_view name, std::initializer_list<Attr> attrs = {}) {
    tag(name, std::span<const Attr>(attrs.begin(), attrs.size()));
    out_ += "/>\n";
  }

  // Writes <name>text</name>.
  void text_element(std::string_view name, std::string_view text) {
    indent();
    out_ += '<';
    out_ += name;
    out_ += '>';
    escape(text, false);
    out_ += "</";
    out_ += name;
    out_ += ">\n";
  }

  // Writes <!-- text -->; callers pass fixed text without "--".
  void comment(std::string_view text) {
    indent();
    out_ += "<!-- ";
    out_ += text;
    out_ += " -->\n";
  }

  // Closes the innermost open element.
  void end() {
    std::string name = std::move(open_.back());
    open_.pop_back();
    indent();
    out_ += "</";
    out_ += name;
    out_ += ">\n";
  }

  // The document so far (every element must be closed).
  std::string finish() { return std::move(out_); }

 private:
  void tag(std::string_view name, std::span<const Attr> attrs) {
    indent();
    out_ += '<';
    out_ += name;
    for (const Attr& a : attrs) {
      if (a.value.empty()) continue;
      out_ += ' ';
      out_ += a.name;
      out_ += "=\"";
      escape(a.value, true);
      out_ += '"';
    }
  }

  void indent() { out_.append(2 * open_.size(), ' '); }

  // Escapes markup characters; in attributes also quotes and whitespace that normalisation
  // would otherwise turn into spaces (a base URL is user input).
  void escape(std::string_view s, bool attribute) {
    for (char c : s) {
      switch (c) {
        case '&':
          out_ += "&amp;";
          break;
        case '<':
          out_ += "&lt;";
          break;
        case '>':
          out_ += "&gt;";
          break;
        case '"':
          out_ += attribute ? "&quot;" : "\"";
          break;
        case '\n':
          out_ += attribute ? "&#10;" : "\n";
          break;
        case '\r':
          out_ += "&#13;";
          break;
        case '\t':
          out_ += attribute ? "&#9;" : "\t";
          break;
        default:
          out_ += c;
      }
    }
  }

  std::string out_;                // the document
  std::vector<std::string> open_;  // names of the open elements, outermost first
};

// The three SOAP styles of the corpus.
enum class Style { doc_literal, rpc_literal, rpc_encoded };

// What differs per style in the abstract part of the WSDL.
struct StyleDef {
  Style style;                   // which of the three
  std::string_view label;        // "DocLiteral": names messages, port types, bindings, ports
  std::string_view type_suffix;  // appended to the contract's struct/array names
  bool rpc;                      // rpc style: type parts; else one element part (wrapped)
};

constexpr StyleDef kDocLiteral{Style::doc_literal, "DocLiteral", "DocLit", false};
constexpr StyleDef kRpcLiteral{Style::rpc_literal, "RpcLiteral", "RpcLit", true};
constexpr StyleDef kRpcEncoded{Style::rpc_encoded, "RpcEncoded", "", true};
constexpr const StyleDef* kStyles[] = {&kDocLiteral, &kRpcLiteral, &kRpcEncoded};

// One binding and the port that exposes it.
struct BindingDef {
  const StyleDef* style;  // the style and its port type
  bool soap12;            // SOAP 1.2 envelope (soap12: extension elements)
  std::string_view port;  // port name; the binding is named port + "Binding"
};

// docs/service.md families: soap11-doc-literal, soap12-doc-literal, soap11-rpc-literal,
// soap11-rpc-encoded. Document/literal 1.1 comes first: consumers default to the first port.
constexpr BindingDef kBindings[] = {{&kDocLiteral, false, "SoapBenchDocLiteral11"},
                                    {&kDocLiteral, true, "SoapBenchDocLiteral12"},
                                    {&kRpcLiteral, false, "SoapBenchRpcLiteral11"},
                                    {&kRpcEncoded, false, "SoapBenchRpcEncoded11"}};

// An XML namespace used by operations, with the prefix the WSDL declares for it.
struct NsPrefix {
  std::string_view uri;  // namespace name
  std::string prefix;    // "tns" for the service namespace, then "ns1", "ns2", …
};

// Structs and arrays are schema types of ours; scalars are XML Schema built-ins.
bool is_named_type(const Type& t) { return t.kind == Kind::array || t.kind == Kind::structure; }

// Writes the WSDL for one contract; holds the namespace table the helpers share.
class WsdlBuilder {
 public:
  WsdlBuilder(const Contract& contract, std::string_view base_url)
      : contract_(contract), address_(base_url) {
    while (!address_.empty() && address_.back() == '/') address_.pop_back();
    address_ += "/soap";
    // The service namespace always comes first: it is the definitions' and the types' home.
    namespaces_.push_back({ns::service, "tns"});
    for (const Operation& op : contract_.operations()) {
      bool known = false;
      for (const NsPrefix& n : namespaces_) known = known || n.uri == op.ns;
      if (!known) namespaces_.push_back({op.ns, "ns" + std::to_string(namespaces_.size())});
    }
  }

  // The whole document.
  std::string build() {
    // Namespace declarations on the root: the schemas and bindings below inherit them.
    std::vector<std::string> decls;  // "xmlns:tns", "xmlns:ns1", …: kept alive for root_attrs
    for (const NsPrefix& n : namespaces_) decls.push_back("xmlns:" + n.prefix);
    std::vector<Attr> root_attrs = {
        {"name", "SoapBench"},           {"targetNamespace", ns::service},
        {"xmlns:wsdl", kWsdlNs},         {"xmlns:soap", kWsdlSoap11Ns},
        {"xmlns:soap12", kWsdlSoap12Ns}, {"xmlns:soapenc", ns::soap11_enc},
        {"xmlns:xsd", ns::xsd}};
    for (std::size_t i = 0; i < namespaces_.size(); ++i) {
      root_attrs.push_back({decls[i], namespaces_[i].uri});
    }
    w_.start("wsdl:definitions", root_attrs);
    w_.text_element("wsdl:documentation", documentation());
    write_types();
    for (const StyleDef* style : kStyles) write_messages(*style);
    write_fault_messages();
    for (const StyleDef* style : kStyles) write_port_type(*style);
    for (const BindingDef& b : kBindings) write_binding(b);
    write_service();
    w_.end();
    return w_.finish();
  }

 private:
  // The definitions' wsdl:documentation: what a reader of the WSDL needs to know first.
  static std::string documentation() {
    return "soapbench service, generated from codecs/service_contract.cpp (docs/service.md). "
           "All ports share one address: the server tells SOAP 1.1 from 1.2 by content type and "
           "the styles apart by the body. Schema types come in one family per style because "
           "their element forms differ: rpc/encoded uses the contract names (Person, ArrayOfInt), "
           "document/literal the suffix DocLit (qualified members), rpc/literal the suffix "
           "RpcLit (unqualified members).";
  }

  // The prefix declared on the root for an operation namespace.
  const std::string& prefix_of(std::string_view uri) const {
    for (const NsPrefix& n : namespaces_) {
      if (n.uri == uri) return n.prefix;
    }
    return namespaces_.front().prefix;  // unreachable: every operation namespace is listed
  }

  // The QName of a value type in `style`: XML Schema built-ins for scalars (tns:dateTimeOrString
  // for the union), else tns:NAME+suffix.
  static std::string type_qname(const Type& t, const StyleDef& style) {
    if (t.also != Kind::nil) return "tns:" + std::string(t.name);
    if (!is_named_type(t)) return "xsd:" + std::string(t.name);
    return "tns:" + std::string(t.name) + std::string(style.type_suffix);
  }

  // The form= of struct members and array items: the schema default is qualified (document/
  // literal); rpc accessors are unqualified. Empty means "no attribute".
  static std::string_view member_form(const StyleDef& style) {
    return style.rpc ? "unqualified" : "";
  }

  // wsdl:types: one xsd:schema per operation namespace, the service namespace first.
  void write_types() {
    w_.start("wsdl:types");
    for (const NsPrefix& n : namespaces_) write_schema(n);
    w_.end();
  }

  // The schema of one namespace: the named types (service namespace only), the document/literal
  // wrappers of the operations in it and its fault detail element.
  void write_schema(const NsPrefix& n) {
    const bool service = n.uri == ns::service;
    w_.start("xsd:schema", {{"targetNamespace", n.uri}, {"elementFormDefault", "qualified"}});
    if (service) {
      // soapenc:Array and soapenc:arrayType, served by the server itself (see the top).
      w_.empty("xsd:import",
               {{"namespace", ns::soap11_enc},
                {"schemaLocation", address_ + "?" + std::string(kSoapEncodingQuery)}});
    } else if (uses_service_types(n.uri)) {
      w_.empty("xsd:import", {{"namespace", ns::service}});
    }
    if (service) {
      write_union(datetime_or_string());
      w_.comment("rpc/encoded types: SOAP 1.1 Section 5, unqualified accessors");
      write_named_types(kRpcEncoded);
      w_.comment("rpc/literal types: unqualified members, arrays as item sequences");
      write_named_types(kRpcLiteral);
      w_.comment("document/literal types: qualified members, arrays as item sequences");
      write_named_types(kDocLiteral);
    }
    w_.comment("document/literal wrapped: request and response wrapper elements");
    for (const Operation& op : contract_.operations()) {
      if (op.ns == n.uri) write_wrappers(op);
    }
    w_.comment("service fault detail entry (SOAP Fault detail), every style");
    w_.start("xsd:element", {{"name", "fault"}});
    w_.start("xsd:complexType");
    w_.start("xsd:sequence");
    w_.empty("xsd:element", {{"name", "code"}, {"type", "xsd:int"}, {"form", "unqualified"}});
    w_.end();
    w_.end();
    w_.end();
    w_.end();
  }

  // Whether an operation in `uri` has a struct/array param or result (its schema must import
  // the service namespace, where the named types live).
  bool uses_service_types(std::string_view uri) const {
    for (const Operation& op : contract_.operations()) {
      if (op.ns != uri) continue;
      if (is_named_type(*op.result)) return true;
      for (const Param& p : op.params) {
        if (is_named_type(*p.type)) return true;
      }
    }
    return false;
  }

  // A scalar that admits two kinds: the union of their built-in types, the type's own first.
  void write_union(const Type& t) {
    w_.comment("dateTime or string: what complex accepts as a birthdate (docs/service.md)");
    w_.start("xsd:simpleType", {{"name", t.name}});
    w_.empty("xsd:union", {{"memberTypes", "xsd:" + std::string(type_of(t.also).name) +
                                               " xsd:" + std::string(type_of(t.kind).name)}});
    w_.end();
  }

  // The struct and array types of one style family.
  void write_named_types(const StyleDef& style) {
    for (const StructDef* s : contract_.structs()) write_struct(*s, style);
    for (const Type* a : contract_.array_types()) write_array(*a, style);
  }

  // A struct: a sequence of its members in contract order (the order is part of the type).
  void write_struct(const StructDef& s, const StyleDef& style) {
    w_.start("xsd:complexType", {{"name", std::string(s.name) + std::string(style.type_suffix)}});
    w_.start("xsd:sequence");
    for (const Member& m : s.members) {
      w_.empty(
          "xsd:element",
          {{"name", m.name}, {"type", type_qname(*m.type, style)}, {"form", member_form(style)}});
    }
    w_.end();
    w_.end();
  }

  // An array: SOAP-ENC array in rpc/encoded, else a sequence of `item` elements.
  void write_array(const Type& a, const StyleDef& style) {
    const std::string name = std::string(a.name) + std::string(style.type_suffix);
    w_.start("xsd:complexType", {{"name", name}});
    if (style.style == Style::rpc_encoded) {
      // The usual SOAP-ENC array declaration (WSDL 1.1 §2.2): the member type lives only in
      // wsdl:arrayType; members carry xsi:type and their names do not matter (ours: `item`).
      w_.start("xsd:complexContent");
      w_.start("xsd:restriction", {{"base", "soapenc:Array"}});
      w_.empty("xsd:attribute", {{"ref", "soapenc:arrayType"},
                                 {"wsdl:arrayType", type_qname(*a.element, style) + "[]"}});
      w_.end();
      w_.end();
    } else {
      w_.start("xsd:sequence");
      w_.empty("xsd:element", {{"name", "item"},
                               {"type", type_qname(*a.element, style)},
                               {"minOccurs", "0"},
                               {"maxOccurs", "unbounded"},
                               {"form", member_form(style)}});
      w_.end();
    }
    w_.end();
  }

  // Document/literal wrapped: OP holds the params, OPResponse the `return` child (none for void).
  void write_wrappers(const Operation& op) {
    w_.start("xsd:element", {{"name", op.name}});
    w_.start("xsd:complexType");
    if (op.params.empty()) {
      w_.empty("xsd:sequence");
    } else {
      w_.start("xsd:sequence");
      for (const Param& p : op.params) {
        w_.empty("xsd:element", {{"name", p.name},
                                 {"type", type_qname(*p.type, kDocLiteral)},
                                 {"minOccurs", p.optional ? "0" : ""}});
      }
      w_.end();
    }
    w_.end();
    w_.end();
    w_.start("xsd:element", {{"name", std::string(op.name) + "Response"}});
    w_.start("xsd:complexType");
    if (op.result->kind == Kind::nil) {
      w_.empty("xsd:sequence");
    } else {
      w_.start("xsd:sequence");
      w_.empty("xsd:element", {{"name", "return"}, {"type", type_qname(*op.result, kDocLiteral)}});
      w_.end();
    }
    w_.end();
    w_.end();
  }

  // "addDocLiteralRequest": unique per style, since part types differ per style.
  static std::string message_name(const Operation& op, const StyleDef& style, bool response) {
    return std::string(op.name) + std::string(style.label) + (response ? "Response" : "Request");
  }

  // Request and response messages of every operation in one style.
  void write_messages(const StyleDef& style) {
    for (const Operation& op : contract_.operations()) {
      const std::string& prefix = prefix_of(op.ns);
      w_.start("wsdl:message", {{"name", message_name(op, style, false)}});
      if (!style.rpc) {
        w_.empty("wsdl:part",
                 {{"name", "parameters"}, {"element", prefix + ":" + std::string(op.name)}});
      } else {
        // WSDL 1.1 parts cannot be optional: an optional trailing param (concat's s3) is an
        // ordinary part here; only document/literal can say minOccurs="0".
        for (const Param& p : op.params) {
          w_.empty("wsdl:part", {{"name", p.name}, {"type", type_qname(*p.type, style)}});
        }
      }
      w_.end();
      w_.start("wsdl:message", {{"name", message_name(op, style, true)}});
      if (!style.rpc) {
        w_.empty("wsdl:part", {{"name", "parameters"},
                               {"element", prefix + ":" + std::string(op.name) + "Response"}});
      } else if (op.result->kind != Kind::nil) {
        w_.empty("wsdl:part", {{"name", "return"}, {"type", type_qname(*op.result, style)}});
      }
      w_.end();
    }
  }

  // One fault message per operation: the detail entry lives in the operation's namespace.
  void write_fault_messages() {
    for (const Operation& op : contract_.operations()) {
      w_.start("wsdl:message", {{"name", std::string(op.name) + "Fault"}});
      w_.empty("wsdl:part", {{"name", "fault"}, {"element", prefix_of(op.ns) + ":fault"}});
      w_.end();
    }
  }

  // "SoapBenchDocLiteralPortType".
  static std::string port_type_name(const StyleDef& style) {
    return "SoapBench" + std::string(style.label) + "PortType";
  }

  // One port type per style; rpc operations list parameterOrder for rpc-minded consumers.
  void write_port_type(const StyleDef& style) {
    w_.start("wsdl:portType", {{"name", port_type_name(style)}});
    for (const Operation& op : contract_.operations()) {
      std::string order;
      if (style.rpc) {
        for (const Param& p : op.params) {
          if (!order.empty()) order += ' ';
          order += p.name;
        }
      }
      w_.start("wsdl:operation", {{"name", op.name}, {"parameterOrder", order}});
      w_.empty("wsdl:input", {{"message", "tns:" + message_name(op, style, false)}});
      w_.empty("wsdl:output", {{"message", "tns:" + message_name(op, style, true)}});
      w_.empty("wsdl:fault",
               {{"name", "fault"}, {"message", "tns:" + std::string(op.name) + "Fault"}});
      w_.end();
    }
    w_.end();
  }

  // A binding: style, transport, and per operation soapAction, body use and rpc namespace.
  void write_binding(const BindingDef& b) {
    const StyleDef& style = *b.style;
    const std::string_view soap = b.soap12 ? "soap12" : "soap";
    const std::string el_binding = std::string(soap) + ":binding";
    const std::string el_operation = std::string(soap) + ":operation";
    const std::string el_body = std::string(soap) + ":body";
    const std::string el_fault = std::string(soap) + ":fault";
    const bool encoded = style.style == Style::rpc_encoded;
    w_.start("wsdl:binding",
             {{"name", std::string(b.port) + "Binding"}, {"type", "tns:" + port_type_name(style)}});
    w_.empty(el_binding,
             {{"style", style.rpc ? "rpc" : "document"}, {"transport", kHttpTransport}});
    for (const Operation& op : contract_.operations()) {
      w_.start("wsdl:operation", {{"name", op.name}});
      w_.empty(el_operation, {{"soapAction", std::string(op.ns) + "#" + std::string(op.name)}});
      for (const char* direction : {"wsdl:input", "wsdl:output"}) {
        w_.start(direction);
        w_.empty(el_body, {{"use", encoded ? "encoded" : "literal"},
                           {"encodingStyle", encoded ? ns::soap11_enc : ""},
                           {"namespace", style.rpc ? op.ns : ""}});
        w_.end();
      }
      // The fault detail entry is literal in every family (only its code carries xsi:type in
      // rpc/encoded, which literal allows), so the fault is literal even in the encoded binding.
      w_.start("wsdl:fault", {{"name", "fault"}});
      w_.empty(el_fault, {{"name", "fault"}, {"use", "literal"}});
      w_.end();
      w_.end();
    }
    w_.end();
  }

  // The one service: a port per binding, all at the same address.
  void write_service() {
    w_.start("wsdl:service", {{"name", "SoapBenchService"}});
    for (const BindingDef& b : kBindings) {
      w_.start("wsdl:port",
               {{"name", b.port}, {"binding", "tns:" + std::string(b.port) + "Binding"}});
      w_.empty(b.soap12 ? "soap12:address" : "soap:address", {{"location", address_}});
      w_.end();
    }
    w_.end();
  }

  const Contract& contract_;          // the service described
  std::string address_;               // base URL + "/soap"
  std::vector<NsPrefix> namespaces_;  // service namespace first, then other operation namespaces
  XmlWriter w_;                       // the output
};

}  // namespace

std::string_view served_schema(std::string_view query) {
  // zeep fetches the SOAP-ENC namespace URI for every reference to a SOAP-ENC name made in a
  // document that did not import that namespace, the SOAP-ENC schema itself included (which
  // cannot import its own namespace). So this schema refers to none of its own names: the one
  // reference soapenc:Array needs, its model group (which zeep reads as "a SOAP-ENC array"),
  // lives in a namespace of ours, imported by a location relative to this document's.
  static constexpr std::string_view kEncoding = R"(<?xml version="1.0" encoding="UTF-8"?>
<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema"
            xmlns:items="urn:soapbench:soap-encoding-items"
            targetNamespace="http://schemas.xmlsoap.org/soap/encoding/">
  <xsd:import namespace="urn:soapbench:soap-encoding-items"
              schemaLocation="?xsd=soap-encoding-items"/>
  <xsd:attribute name="root">
    <xsd:simpleType>
      <xsd:restriction base="xsd:boolean"><xsd:pattern value="0|1"/></xsd:restriction>
    </xsd:simpleType>
  </xsd:attribute>
  <xsd:attribute name="arrayType" type="xsd:string"/>
  <xsd:attribute name="offset" type="xsd:string"/>
  <xsd:complexType name="Array">
    <xsd:group ref="items:Array" minOccurs="0"/>
    <xsd:attribute name="arrayType" type="xsd:string" form="qualified"/>
    <xsd:attribute name="offset" type="xsd:string" form="qualified"/>
    <xsd:attribute name="id" type="xsd:ID"/>
    <xsd:attribute name="href" type="xsd:anyURI"/>
    <xsd:anyAttribute namespace="##other" processContents="lax"/>
  </xsd:complexType>
</xsd:schema>
)";
  static constexpr std::string_view kItems = R"(<?xml version="1.0" encoding="UTF-8"?>
<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema"
            targetNamespace="urn:soapbench:soap-encoding-items">
  <xsd:group name="Array">
    <xsd:sequence>
      <xsd:any namespace="##any" minOccurs="0" maxOccurs="unbounded" processContents="lax"/>
    </xsd:sequence>
  </xsd:group>
</xsd:schema>
)";
  if (query == kSoapEncodingQuery) return kEncoding;
  if (query == "xsd=soap-encoding-items") return kItems;
  return {};
}

std::string generate_wsdl(const Contract& contract, std::string_view base_url) {
  return WsdlBuilder(contract, base_url).build();
}

}  // namespace sb::rpc
