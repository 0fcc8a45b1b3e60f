// The WSDL reader's insides, shared by its two files and by nothing else: the Reader (the state
// of the three passes) and the small XML helpers both files use. wsdl_reader.cpp indexes the
// documents and types their schemas; wsdl_bindings.cpp reads the SOAP bindings into Operations.
// The public face is codecs/wsdl_reader.h.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codecs/scalars.h"
#include "codecs/service_contract.h"
#include "codecs/wsdl_reader.h"
#include "codecs/xml_tree.h"
#include "codecs/xsd_types.h"

namespace sb::rpc::wsdl_detail {

constexpr std::string_view kWsdlNs = "http://schemas.xmlsoap.org/wsdl/";
constexpr std::string_view kSoap11BindingNs = "http://schemas.xmlsoap.org/wsdl/soap/";
constexpr std::string_view kSoap12BindingNs = "http://schemas.xmlsoap.org/wsdl/soap12/";

// A construct outside the supported subset, named for the user.
struct Unsupported {
  std::string why;  // one line
};

using QName = std::pair<std::string, std::string>;  // (namespace, local name)

// One element of a sequence/all/choice, as members and params need it.
struct Particle {
  std::string_view name;     // element name
  const Type* type;          // its type; an array of it when repeated
  bool repeated;             // maxOccurs > 1
  bool optional;             // minOccurs = 0, or inside a choice
  std::string_view ns = {};  // its namespace in a message (element_ns); "" unqualified
};

inline bool is_xsd(const XmlNode& n, std::string_view local) {
  return n.local() == local && is_xsd_namespace(n.uri());
}

inline bool is_wsdl(const XmlNode& n, std::string_view local) {
  return n.local() == local && n.uri() == kWsdlNs;
}

inline std::string_view attr(const XmlNode& n, std::string_view name) {
  const std::string* v = n.attribute(name);
  return v == nullptr ? std::string_view() : std::string_view(*v);
}

// maxOccurs > 1 ("unbounded" included).
inline bool repeats(const XmlNode& n) {
  const std::string_view max = trim_xml_space(attr(n, "maxOccurs"));
  return !max.empty() && max != "0" && max != "1";
}

inline bool optional(const XmlNode& n) { return trim_xml_space(attr(n, "minOccurs")) == "0"; }

// The targetNamespace of the schema (or definitions) that holds `n`.
inline std::string_view target_namespace(const XmlNode& n) {
  for (const XmlNode* p = &n; p != nullptr; p = p->parent) {
    if (is_xsd(*p, "schema") || is_wsdl(*p, "definitions")) return attr(*p, "targetNamespace");
  }
  return {};
}

// The xsd:schema that holds `n`, or nullptr.
inline const XmlNode* schema_of(const XmlNode& n) {
  for (const XmlNode* p = &n; p != nullptr; p = p->parent) {
    if (is_xsd(*p, "schema")) return p;
  }
  return nullptr;
}

// The first child in XML Schema's namespace that is not an annotation, or nullptr.
inline const XmlNode* content_child(const XmlNode& n) {
  for (const XmlNode& c : n.children) {
    if (!is_xsd(c, "annotation")) return &c;
  }
  return nullptr;
}

// The SOAP binding extension element (soap:binding, soap:operation, soap:body) under `n`.
inline const XmlNode* soap_child(const XmlNode& n, std::string_view local,
                                 std::string_view soap_ns) {
  for (const XmlNode& c : n.children) {
    if (c.local() == local && c.uri() == soap_ns) return &c;
  }
  return nullptr;
}

class Reader {
 public:
  Reader(const WsdlLoader& load, WsdlReport& report) : load_(load), report_(report) {}

  // Indexes a WSDL document and everything it imports.
  void add_definitions(const XmlNode& root, const std::string& path);
  // Types every SOAP binding's operations.
  Contract build();

 private:
  void index_schema(const XmlNode& schema, const std::string& path);
  void index_import(const XmlNode& import, const std::string& path, bool wsdl);
  void index_service(const XmlNode& service);

  void read_binding(const XmlNode& binding, std::string_view soap_ns);
  Operation read_operation(const XmlNode& op, const XmlNode& port_op, std::string_view style,
                           std::string_view soap_ns);
  static std::string_view input_use(const XmlNode& op, std::string_view soap_ns);
  void document_messages(Operation& op, const XmlNode& port_op);
  void rpc_messages(Operation& op, const XmlNode& port_op);
  const XmlNode* complex_type_of(const XmlNode& decl) const;
  void set_result(Operation& op, const std::vector<Particle>& parts, std::string_view name);
  std::vector<const XmlNode*> parts_of(const XmlNode& port_op, std::string_view direction) const;
  const XmlNode& global_element(const XmlNode& at, std::string_view qname) const;
  std::string line_of(const Operation& op, std::string_view style) const;

  const Type* type_named(const XmlNode& at, std::string_view qname);
  const Type* type_node(const XmlNode& node, std::string_view name);
  const Type* build_complex(const XmlNode& node, std::string_view name);
  const Type* build_simple(const XmlNode& node, std::string_view name);
  const Type* build_union(const XmlNode& node, std::string_view name);
  const Type* soapenc_array(const XmlNode& restriction, std::string_view name);
  const Type* element_type(const XmlNode& decl);
  std::vector<Particle> particles(const XmlNode& complex_type, std::string_view owner);
  void collect(const XmlNode& group, std::string_view owner, bool optional_all,
               std::vector<Particle>& out);
  Particle particle(const XmlNode& element, bool optional_all);
  std::string_view element_ns(const XmlNode& decl) const;
  const Type* array_of(const Type& item);
  StructDef& struct_of(const std::vector<Particle>& parts, std::string_view name);

  const WsdlLoader& load_;      // reads imported documents
  WsdlReport& report_;          // what is said about the reading
  ContractBuilder builder_;     // owns the types made
  std::set<std::string> read_;  // documents indexed (by path)
  std::vector<std::pair<const XmlNode*, std::string_view>> bindings_;  // (binding, SOAP ns)
  std::map<QName, const XmlNode*> messages_, port_types_, elements_, types_;
  std::map<QName, std::string> addresses_;        // binding -> its first port's soap:address
  std::map<const XmlNode*, const Type*> memo_;    // type nodes built (or being built)
  std::map<const XmlNode*, std::string> failed_;  // type nodes outside the subset, why
  std::set<std::string> elements_seen_;           // call elements of the operations added
  std::set<std::string> notes_said_;              // lenient readings already noted
};

}  // namespace sb::rpc::wsdl_detail
