// Reading a user's WSDL 1.1 into a Contract. Three passes: index every document (definitions,
// imports, schema declarations), then type each SOAP binding's operations on demand, memoizing
// every type node so recursive types (Person.children) and shared ones are built once. Typing
// throws Unsupported naming the construct; the operation is then refused, the others go on.
#include "codecs/wsdl_reader.h"

#include <map>
#include <set>
#include <utility>

#include "codecs/scalars.h"
#include "codecs/xml_namespaces.h"
#include "codecs/xsd_types.h"

namespace sb::rpc {

namespace {

constexpr std::string_view kWsdlNs = "http://schemas.xmlsoap.org/wsdl/";
constexpr std::string_view kWsdl20Ns = "http://www.w3.org/ns/wsdl";
constexpr std::string_view kSoap11BindingNs = "http://schemas.xmlsoap.org/wsdl/soap/";
constexpr std::string_view kSoap12BindingNs = "http://schemas.xmlsoap.org/wsdl/soap12/";
constexpr std::size_t kMaxParams = 64;  // SoapDecoder tracks the params seen in 64 bits

// A construct outside the supported subset, named for the user.
struct Unsupported {
  std::string why;  // one line
};

using QName = std::pair<std::string, std::string>;  // (namespace, local name)

// One element of a sequence/all/choice, as members and params need it.
struct Particle {
  std::string_view name;  // element name
  const Type* type;       // its type; an array of it when repeated
  bool repeated;          // maxOccurs > 1
  bool optional;          // minOccurs = 0, or inside a choice
};

bool is_xsd(const XmlNode& n, std::string_view local) {
  return n.local() == local && is_xsd_namespace(n.uri());
}

bool is_wsdl(const XmlNode& n, std::string_view local) {
  return n.local() == local && n.uri() == kWsdlNs;
}

std::string_view attr(const XmlNode& n, std::string_view name) {
  const std::string* v = n.attribute(name);
  return v == nullptr ? std::string_view() : std::string_view(*v);
}

// maxOccurs > 1 ("unbounded" included).
bool repeats(const XmlNode& n) {
  const std::string_view max = trim_xml_space(attr(n, "maxOccurs"));
  return !max.empty() && max != "0" && max != "1";
}

bool optional(const XmlNode& n) { return trim_xml_space(attr(n, "minOccurs")) == "0"; }

// The targetNamespace of the schema (or definitions) that holds `n`.
std::string_view target_namespace(const XmlNode& n) {
  for (const XmlNode* p = &n; p != nullptr; p = p->parent) {
    if (is_xsd(*p, "schema") || is_wsdl(*p, "definitions")) return attr(*p, "targetNamespace");
  }
  return {};
}

// The first child in XML Schema's namespace that is not an annotation, or nullptr.
const XmlNode* content_child(const XmlNode& n) {
  for (const XmlNode& c : n.children) {
    if (!is_xsd(c, "annotation")) return &c;
  }
  return nullptr;
}

// The SOAP binding extension element (soap:binding, soap:operation, soap:body) under `n`.
const XmlNode* soap_child(const XmlNode& n, std::string_view local, std::string_view soap_ns) {
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

void Reader::add_definitions(const XmlNode& root, const std::string& path) {
  if (!read_.insert(path).second) return;
  if (root.uri() == kWsdl20Ns) {
    throw WsdlError(path + ": WSDL 2.0 (" + std::string(kWsdl20Ns) +
                    ") is not supported: WSDL 1.1 only");
  }
  if (!is_wsdl(root, "definitions")) {
    throw WsdlError(path + ": not a WSDL 1.1 document (root element <" + root.qname +
                    "> in namespace '" + std::string(root.uri()) + "')");
  }
  const std::string_view tns = attr(root, "targetNamespace");
  for (const XmlNode& c : root.children) {
    const QName key{std::string(tns), std::string(attr(c, "name"))};
    if (is_wsdl(c, "import")) {
      index_import(c, path, true);
    } else if (is_wsdl(c, "types")) {
      for (const XmlNode& s : c.children) {
        if (is_xsd(s, "schema")) index_schema(s, path);
      }
    } else if (is_wsdl(c, "message")) {
      messages_[key] = &c;
    } else if (is_wsdl(c, "portType")) {
      port_types_[key] = &c;
    } else if (is_wsdl(c, "service")) {
      index_service(c);
    } else if (is_wsdl(c, "binding")) {
      for (std::string_view soap_ns : {kSoap11BindingNs, kSoap12BindingNs}) {
        if (soap_child(c, "binding", soap_ns) != nullptr) bindings_.emplace_back(&c, soap_ns);
      }
      if (soap_child(c, "binding", kSoap11BindingNs) == nullptr &&
          soap_child(c, "binding", kSoap12BindingNs) == nullptr) {
        report_.notes.push_back("binding " + std::string(attr(c, "name")) +
                                " is not a SOAP binding (HTTP GET/POST, MIME): skipped");
      }
    }
  }
}

void Reader::index_import(const XmlNode& import, const std::string& path, bool wsdl) {
  const std::string_view ns = attr(import, "namespace");
  const std::string_view location = attr(import, wsdl ? "location" : "schemaLocation");
  if (location.empty() || is_xsd_namespace(ns) || ns == ns::soap11_enc) return;  // known ones
  if (location.find("://") != std::string_view::npos) {
    report_.notes.push_back(path + ": " + std::string(import.local()) + " of '" + std::string(ns) +
                            "' from " + std::string(location) +
                            " not fetched (the suite never fetches): its types are unknown");
    return;
  }
  const XmlNode& doc = load_(path, std::string(location));
  const std::string where = path + " -> " + std::string(location);
  if (wsdl) {
    add_definitions(doc, where);
  } else if (is_xsd(doc, "schema")) {
    if (read_.insert(where).second) index_schema(doc, where);
  } else {
    throw WsdlError(where + ": not an XML Schema document (root <" + doc.qname + ">)");
  }
}

void Reader::index_service(const XmlNode& service) {
  for (const XmlNode& port : service.children) {
    if (!is_wsdl(port, "port")) continue;
    const auto [uri, local] = port.resolve_qname(attr(port, "binding"));
    for (std::string_view soap_ns : {kSoap11BindingNs, kSoap12BindingNs}) {
      if (const XmlNode* a = soap_child(port, "address", soap_ns)) {
        addresses_.emplace(QName{std::string(uri), std::string(local)},
                           std::string(trim_xml_space(attr(*a, "location"))));
      }
    }
  }
}

void Reader::index_schema(const XmlNode& schema, const std::string& path) {
  const std::string tns(attr(schema, "targetNamespace"));
  for (const XmlNode& c : schema.children) {
    if (is_xsd(c, "import") || is_xsd(c, "include")) {
      index_import(c, path, false);
      continue;
    }
    const QName key{tns, std::string(attr(c, "name"))};
    if (is_xsd(c, "element")) {
      elements_[key] = &c;
    } else if (is_xsd(c, "complexType") || is_xsd(c, "simpleType")) {
      types_[key] = &c;
    }
  }
}

// ------------------------------------------------------------------------------ typing

const Type* Reader::type_named(const XmlNode& at, std::string_view qname) {
  const auto [uri, local] = at.resolve_qname(qname);
  if (uri == ns::soap11_enc && local == "Array") return array_of(dynamic_type());
  if (is_xsd_namespace(uri) || uri == ns::soap11_enc) {
    if (const Type* t = xsd_builtin(local)) return t;
    if (is_xsd_any(local)) return &dynamic_type();
  }
  // gSOAP 2.8 writes type="ArrayOfint" where the default namespace is XML Schema's (or WSDL's,
  // in a part), which declare no such type: the document's own type of that name is meant.
  if ((is_xsd_namespace(uri) || uri == kWsdlNs) && qname.find(':') == std::string_view::npos) {
    auto own = types_.find({std::string(target_namespace(at)), std::string(local)});
    if (own != types_.end()) {
      if (notes_said_.insert(std::string(local)).second) {
        report_.notes.push_back("type=\"" + std::string(local) +
                                "\" has no prefix in a namespace without types (XML Schema's or "
                                "WSDL's): read as the document's own type " +
                                std::string(local));
      }
      return type_node(*own->second, local);
    }
  }
  if (is_xsd_namespace(uri) || uri == ns::soap11_enc) {
    throw Unsupported{"unknown XML Schema type " + std::string(local)};
  }
  auto it = types_.find({std::string(uri), std::string(local)});
  if (it == types_.end()) {
    throw Unsupported{"type {" + std::string(uri) + "}" + std::string(local) +
                      " is not declared in the WSDL's schemas"};
  }
  return type_node(*it->second, local);
}

const Type* Reader::type_node(const XmlNode& node, std::string_view name) {
  if (auto f = failed_.find(&node); f != failed_.end()) throw Unsupported{f->second};
  if (auto m = memo_.find(&node); m != memo_.end()) return m->second;
  try {
    return is_xsd(node, "simpleType") ? build_simple(node, name) : build_complex(node, name);
  } catch (const Unsupported& u) {
    failed_[&node] = u.why;
    throw;
  }
}

const Type* Reader::build_complex(const XmlNode& node, std::string_view name) {
  const std::string where = "complexType " + std::string(name);
  if (trim_xml_space(attr(node, "mixed")) == "true") {
    throw Unsupported{"mixed content (text between elements) in " + where};
  }
  const XmlNode* content = nullptr;
  for (const XmlNode& c : node.children) {
    if (is_xsd(c, "annotation") || is_xsd(c, "anyAttribute")) continue;
    if (is_xsd(c, "attribute") || is_xsd(c, "attributeGroup")) {
      throw Unsupported{"attributes (<xsd:" + std::string(c.local()) + "> in " + where +
                        "): the value model has no place for them"};
    }
    content = &c;
  }
  if (content != nullptr && is_xsd(*content, "simpleContent")) {
    throw Unsupported{"simpleContent (text with attributes) in " + where};
  }
  if (content != nullptr && is_xsd(*content, "complexContent")) {
    const XmlNode* derivation = content_child(*content);
    if (derivation != nullptr && is_xsd(*derivation, "restriction")) {
      const auto [uri, local] = derivation->resolve_qname(attr(*derivation, "base"));
      if (uri == ns::soap11_enc && local == "Array") return soapenc_array(*derivation, name);
      throw Unsupported{"complexContent restriction of " + std::string(local) + " in " + where};
    }
    if (derivation == nullptr || !is_xsd(*derivation, "extension")) {
      throw Unsupported{"an empty complexContent in " + where};
    }
  }
  // The array convention (SOAP-ENC's literal twin, .NET's ArrayOfX, ours): one element that
  // repeats and nothing else. A one-member struct of a repeated element reads the same way.
  if (content != nullptr && (is_xsd(*content, "sequence") || is_xsd(*content, "all"))) {
    const XmlNode* only = content_child(*content);
    if (only != nullptr && is_xsd(*only, "element") && repeats(*only) &&
        content->children.size() - (only - content->children.data()) == 1 && !repeats(*content)) {
      Type& t = builder_.new_type(Kind::array, name);
      memo_[&node] = &t;
      t.element = element_type(*only);
      return &t;
    }
  }
  Type& t = builder_.new_type(Kind::structure, name);
  memo_[&node] = &t;
  t.structure = &struct_of(particles(node, name), name);
  return &t;
}

const Type* Reader::soapenc_array(const XmlNode& restriction, std::string_view name) {
  Type& t = builder_.new_type(Kind::array, name);
  memo_[restriction.parent->parent] = &t;
  t.element = &dynamic_type();
  for (const XmlNode& c : restriction.children) {
    if (is_xsd(c, "attribute")) {
      for (const auto& [an, av] : c.attributes) {
        std::string_view prefix;
        const std::string_view local = local_part(an, &prefix);
        if (local != "arrayType" || c.resolve(prefix) != kWsdlNs) continue;
        const std::string_view item = std::string_view(av).substr(0, av.find('['));
        if (std::string_view(av).find("][") != std::string_view::npos) {
          throw Unsupported{"a multi-dimensional SOAP-ENC array (" + av + ") in complexType " +
                            std::string(name)};
        }
        t.element = type_named(c, item);
      }
    } else if (is_xsd(c, "sequence") || is_xsd(c, "all")) {
      if (const XmlNode* e = content_child(c); e != nullptr && is_xsd(*e, "element")) {
        t.element = element_type(*e);
      }
    }
  }
  return &t;
}

const Type* Reader::build_simple(const XmlNode& node, std::string_view name) {
  const XmlNode* d = content_child(node);
  if (d == nullptr) throw Unsupported{"an empty simpleType " + std::string(name)};
  if (is_xsd(*d, "list")) {
    throw Unsupported{"xsd:list (a whitespace-separated list) in simpleType " + std::string(name)};
  }
  if (is_xsd(*d, "union")) return build_union(*d, name);
  if (!is_xsd(*d, "restriction")) {
    throw Unsupported{"<xsd:" + std::string(d->local()) + "> in simpleType " + std::string(name)};
  }
  // Typed by its base; the facets (enumeration, pattern, bounds) are not checked.
  const Type* base = nullptr;
  if (const std::string_view b = attr(*d, "base"); !b.empty()) {
    base = type_named(*d, b);
  } else if (const XmlNode* inner = content_child(*d); inner && is_xsd(*inner, "simpleType")) {
    base = type_node(*inner, name);
  }
  if (base == nullptr || base->kind == Kind::array || base->kind == Kind::structure) {
    throw Unsupported{"simpleType " + std::string(name) + " restricts no simple type"};
  }
  Type& t = builder_.new_type(base->kind, name);
  t.also = base->also;
  memo_[&node] = &t;
  return &t;
}

const Type* Reader::build_union(const XmlNode& node, std::string_view name) {
  std::vector<const Type*> members;
  std::string_view list = attr(node, "memberTypes");
  while (!(list = trim_xml_space(list)).empty()) {
    const std::size_t end = list.find_first_of(" \t\r\n");
    members.push_back(type_named(node, list.substr(0, end)));
    list = end == std::string_view::npos ? std::string_view() : list.substr(end);
  }
  for (const XmlNode& c : node.children) {
    if (is_xsd(c, "simpleType")) members.push_back(type_node(c, name));
  }
  // One kind, or a kind and string (ours: dateTime or string): read as the string.
  Kind kind = members.empty() ? Kind::string : members.front()->kind;
  Kind also = Kind::nil;
  for (const Type* m : members) {
    if (m->kind == kind || m->kind == also) continue;
    if (also == Kind::nil && (kind == Kind::string || m->kind == Kind::string)) {
      also = kind == Kind::string ? m->kind : kind;
      kind = Kind::string;
      continue;
    }
    throw Unsupported{"a union of " + std::string(kind_name(kind)) + " and " +
                      std::string(kind_name(m->kind)) + " in simpleType " + std::string(name)};
  }
  Type& t = builder_.new_type(kind, name);
  t.also = also;
  return &t;
}

const Type* Reader::element_type(const XmlNode& decl) {
  if (const std::string_view ref = attr(decl, "ref"); !ref.empty()) {
    return element_type(global_element(decl, ref));
  }
  if (const std::string_view type = attr(decl, "type"); !type.empty()) {
    return type_named(decl, type);
  }
  for (const XmlNode& c : decl.children) {
    if (is_xsd(c, "complexType") || is_xsd(c, "simpleType")) {
      return type_node(c, attr(decl, "name"));
    }
  }
  return &dynamic_type();  // no type: xsd:anyType, each value typed by its xsi:type
}

std::vector<Particle> Reader::particles(const XmlNode& complex_type, std::string_view owner) {
  std::vector<Particle> out;
  for (const XmlNode& c : complex_type.children) {
    if (is_xsd(c, "complexContent")) {
      const XmlNode& ext = *content_child(c);  // build_complex checked: an extension
      const Type* base = type_named(ext, attr(ext, "base"));
      if (base->kind != Kind::structure || base->dynamic) {
        throw Unsupported{"complexType " + std::string(owner) + " extends " +
                          std::string(base->name) + ", which is not a struct"};
      }
      for (const Member& m : base->structure->members) {
        out.push_back({m.name, m.type, m.repeated, true});
      }
      for (const XmlNode& g : ext.children) {
        if (is_xsd(g, "attribute") || is_xsd(g, "attributeGroup")) {
          throw Unsupported{"attributes in the extension of complexType " + std::string(owner)};
        }
        if (!is_xsd(g, "annotation")) collect(g, owner, false, out);
      }
    } else if (!is_xsd(c, "annotation") && !is_xsd(c, "anyAttribute")) {
      collect(c, owner, false, out);
    }
  }
  return out;
}

void Reader::collect(const XmlNode& group, std::string_view owner, bool optional_all,
                     std::vector<Particle>& out) {
  const bool choice = is_xsd(group, "choice");
  if (!is_xsd(group, "sequence") && !is_xsd(group, "all") && !choice) {
    throw Unsupported{"<xsd:" + std::string(group.local()) + "> in " + std::string(owner) +
                      (group.local() == "any" ? " (wildcard content)" : "")};
  }
  if (repeats(group)) {
    throw Unsupported{"a repeated <xsd:" + std::string(group.local()) + "> group in " +
                      std::string(owner)};
  }
  const bool all_optional = optional_all || choice || optional(group);
  for (const XmlNode& c : group.children) {
    if (is_xsd(c, "annotation")) continue;
    if (is_xsd(c, "element")) {
      out.push_back(particle(c, all_optional));
    } else if (is_xsd(c, "group")) {
      throw Unsupported{"a model group reference (<xsd:group ref>) in " + std::string(owner)};
    } else {
      collect(c, owner, all_optional, out);
    }
  }
}

Particle Reader::particle(const XmlNode& element, bool optional_all) {
  std::string_view name = attr(element, "name");
  if (const std::string_view ref = attr(element, "ref"); !ref.empty()) {
    name = attr(global_element(element, ref), "name");
  }
  const Type* type = element_type(element);
  const bool repeated = repeats(element);
  return {builder_.name(name), repeated ? array_of(*type) : type, repeated,
          optional_all || optional(element)};
}

const Type* Reader::array_of(const Type& item) {
  Type& t = builder_.new_type(Kind::array, std::string(item.name) + "[]");
  t.element = &item;
  return &t;
}

StructDef& Reader::struct_of(const std::vector<Particle>& parts, std::string_view name) {
  StructDef& s = builder_.new_struct(name);
  for (const Particle& p : parts) s.members.push_back({p.name, p.type, p.repeated});
  return s;
}

const XmlNode& Reader::global_element(const XmlNode& at, std::string_view qname) const {
  const auto [uri, local] = at.resolve_qname(qname);
  auto it = elements_.find({std::string(uri), std::string(local)});
  if (it == elements_.end()) {
    throw Unsupported{"element {" + std::string(uri) + "}" + std::string(local) +
                      " is not declared in the WSDL's schemas"};
  }
  return *it->second;
}

// -------------------------------------------------------------------------- operations

Contract Reader::build() {
  if (bindings_.empty()) throw WsdlError("no SOAP 1.1 or 1.2 binding");
  for (const auto& [binding, soap_ns] : bindings_) read_binding(*binding, soap_ns);
  return builder_.finish();
}

void Reader::read_binding(const XmlNode& binding, std::string_view soap_ns) {
  const std::string bname(attr(binding, "name"));
  const auto [pt_uri, pt_local] = binding.resolve_qname(attr(binding, "type"));
  auto pt = port_types_.find({std::string(pt_uri), std::string(pt_local)});
  if (pt == port_types_.end()) {
    report_.notes.push_back("binding " + bname + ": its portType " + std::string(pt_local) +
                            " is not declared: skipped");
    return;
  }
  std::string_view style = attr(*soap_child(binding, "binding", soap_ns), "style");
  if (style.empty()) style = "document";
  auto address = addresses_.find({std::string(target_namespace(binding)), bname});
  const Operation::Binding how{soap_ns == kSoap12BindingNs ? "1.2" : "1.1",
                               {},
                               {},
                               address == addresses_.end() ? "" : builder_.name(address->second)};
  std::size_t duplicates = 0;
  for (const XmlNode& op : binding.children) {
    if (!is_wsdl(op, "operation")) continue;
    const XmlNode* port_op = nullptr;
    for (const XmlNode& p : pt->second->children) {
      if (is_wsdl(p, "operation") && attr(p, "name") == attr(op, "name")) port_op = &p;
    }
    if (port_op == nullptr) {
      report_.refused.push_back(std::string(attr(op, "name")) + ": not in portType " +
                                std::string(pt_local));
      continue;
    }
    std::string_view op_style = style;
    const XmlNode* soap_op = soap_child(op, "operation", soap_ns);
    if (soap_op != nullptr && !attr(*soap_op, "style").empty()) op_style = attr(*soap_op, "style");
    try {
      Operation o = read_operation(op, *port_op, op_style, soap_ns);
      o.binding = how;
      o.binding.style = op_style == "rpc" ? "rpc" : "document";
      o.binding.use = input_use(op, soap_ns);
      if (!elements_seen_.insert(std::string(o.call_element())).second) {
        ++duplicates;
        continue;
      }
      report_.operations.push_back(line_of(o, op_style));
      builder_.add(std::move(o));
    } catch (const Unsupported& u) {
      const std::string name(attr(op, "name"));
      if (!elements_seen_.insert(name).second) continue;
      report_.refused.push_back(name + ": " + u.why);
      builder_.refuse(name, u.why);
    }
  }
  if (duplicates > 0) {
    report_.notes.push_back("binding " + bname + ": " + std::to_string(duplicates) +
                            " operations already read from an earlier binding");
  }
}

Operation Reader::read_operation(const XmlNode& op, const XmlNode& port_op, std::string_view style,
                                 std::string_view soap_ns) {
  Operation o{builder_.name(attr(op, "name")), {}, {}, &type_of(Kind::nil)};
  if (const XmlNode* soap_op = soap_child(op, "operation", soap_ns)) {
    o.soap_action = builder_.name(attr(*soap_op, "soapAction"));
  }
  if (style == "rpc") {
    // The operation element's namespace: the input body's namespace= (WSDL 1.1 §3.5).
    for (const XmlNode& c : op.children) {
      const XmlNode* body = is_wsdl(c, "input") ? soap_child(c, "body", soap_ns) : nullptr;
      if (body != nullptr) o.ns = builder_.name(attr(*body, "namespace"));
    }
    rpc_messages(o, port_op);
  } else if (style == "document") {
    document_messages(o, port_op);
  } else {
    throw Unsupported{"binding style '" + std::string(style) + "'"};
  }
  if (o.params.size() > kMaxParams) {
    throw Unsupported{std::to_string(o.params.size()) + " parameters (at most " +
                      std::to_string(kMaxParams) + ")"};
  }
  return o;
}

std::string_view Reader::input_use(const XmlNode& op, std::string_view soap_ns) {
  for (const XmlNode& c : op.children) {
    const XmlNode* body = is_wsdl(c, "input") ? soap_child(c, "body", soap_ns) : nullptr;
    if (body != nullptr && trim_xml_space(attr(*body, "use")) == "encoded") return "encoded";
  }
  return "literal";
}

std::vector<const XmlNode*> Reader::parts_of(const XmlNode& port_op,
                                             std::string_view direction) const {
  std::vector<const XmlNode*> parts;
  for (const XmlNode& c : port_op.children) {
    if (!is_wsdl(c, direction)) continue;
    const auto [uri, local] = c.resolve_qname(attr(c, "message"));
    auto m = messages_.find({std::string(uri), std::string(local)});
    if (m == messages_.end()) {
      throw Unsupported{"message " + std::string(local) + " is not declared"};
    }
    for (const XmlNode& p : m->second->children) {
      if (is_wsdl(p, "part")) parts.push_back(&p);
    }
  }
  return parts;
}

void Reader::document_messages(Operation& op, const XmlNode& port_op) {
  for (const bool response : {false, true}) {
    const std::vector<const XmlNode*> parts = parts_of(port_op, response ? "output" : "input");
    if (parts.empty()) {
      if (!response) throw Unsupported{"a document-style input message with no part"};
      continue;  // one-way, or a response with an empty Body
    }
    if (parts.size() > 1) {
      throw Unsupported{"a document-style message of " + std::to_string(parts.size()) +
                        " parts (the Body holds one element; WS-I Basic Profile R2201)"};
    }
    const std::string_view element = attr(*parts.front(), "element");
    if (element.empty()) {
      throw Unsupported{"a document-style part with type= (document style names an element)"};
    }
    const XmlNode& decl = global_element(*parts.front(), element);
    const std::string_view name = builder_.name(attr(decl, "name"));
    const XmlNode* wrapper = complex_type_of(decl);
    if (wrapper == nullptr) {
      throw Unsupported{"document/literal bare: element " + std::string(name) + " holds a " +
                        std::string(element_type(decl)->name) + ", not a wrapper of parameters"};
    }
    element_type(decl);  // refuses what the wrapper's type cannot be
    const std::vector<Particle> children = particles(*wrapper, name);
    if (!response) {
      op.ns = builder_.name(target_namespace(decl));
      op.request_element = name == op.name ? std::string_view() : name;
      for (const Particle& p : children) {
        op.params.push_back({p.name, p.type, p.optional, p.repeated});
      }
    } else {
      op.response_element = name;
      set_result(op, children, name);
    }
  }
}

const XmlNode* Reader::complex_type_of(const XmlNode& decl) const {
  if (const std::string_view type = attr(decl, "type"); !type.empty()) {
    auto [uri, local] = decl.resolve_qname(type);
    if ((is_xsd_namespace(uri) || uri == kWsdlNs) && type.find(':') == std::string_view::npos) {
      uri = target_namespace(decl);  // gSOAP's unprefixed type names (type_named)
    }
    auto t = types_.find({std::string(uri), std::string(local)});
    return t != types_.end() && is_xsd(*t->second, "complexType") ? t->second : nullptr;
  }
  for (const XmlNode& c : decl.children) {
    if (is_xsd(c, "complexType")) return &c;
  }
  return nullptr;
}

void Reader::rpc_messages(Operation& op, const XmlNode& port_op) {
  for (const bool response : {false, true}) {
    std::vector<Particle> parts;
    for (const XmlNode* p : parts_of(port_op, response ? "output" : "input")) {
      const std::string_view type = attr(*p, "type");
      const Type* t = !type.empty() ? type_named(*p, type)
                                    : element_type(global_element(*p, attr(*p, "element")));
      parts.push_back({builder_.name(attr(*p, "name")), t, false, false});
    }
    if (!response) {
      for (const Particle& p : parts) op.params.push_back({p.name, p.type});
    } else {
      set_result(op, parts, builder_.name(std::string(op.name) + "Response"));
    }
  }
}

void Reader::set_result(Operation& op, const std::vector<Particle>& parts, std::string_view name) {
  if (parts.empty()) return;  // void
  if (parts.size() == 1) {
    op.result = parts.front().type;
    op.result_repeated = parts.front().repeated;
    op.result_optional = parts.front().optional;
    return;
  }
  Type& t = builder_.new_type(Kind::structure, name);
  t.structure = &struct_of(parts, name);
  op.result = &t;
  op.result_members = true;
}

std::string Reader::line_of(const Operation& op, std::string_view style) const {
  std::string line = std::string(op.name) + "  " + std::string(style) + "  call <" +
                     std::string(op.call_element()) + ">(";
  for (std::size_t i = 0; i < op.params.size(); ++i) {
    const Param& p = op.params[i];
    line += (i > 0 ? ", " : "") + std::string(p.name) + ": " + describe_type(*p.type) +
            (p.optional ? "?" : "");
  }
  line += ") -> ";
  if (op.result->kind == Kind::nil && !op.result->dynamic) return line + "void";
  line += op.result_members ? "<" + std::string(op.result->name) + "> " : "";
  return line + describe_type(*op.result) + (op.result_optional ? "?" : "");
}

}  // namespace

std::string describe_type(const Type& t) {
  if (t.kind == Kind::array && t.element != nullptr) {
    const std::string items = describe_type(*t.element) + "[]";
    return t.name.ends_with("[]") ? items : std::string(t.name) + " (" + items + ")";
  }
  if (t.kind == Kind::structure && t.structure != nullptr && !t.dynamic) {
    std::string s = std::string(t.name) + " {";
    for (std::size_t i = 0; i < t.structure->members.size(); ++i) {
      s += (i > 0 ? ", " : "") + std::string(t.structure->members[i].name);
    }
    return s + "}";
  }
  return std::string(t.name);
}

Contract read_wsdl(const std::vector<const XmlNode*>& roots, const std::vector<std::string>& paths,
                   const WsdlLoader& load, WsdlReport& report) {
  Reader reader(load, report);
  for (std::size_t i = 0; i < roots.size(); ++i) reader.add_definitions(*roots[i], paths[i]);
  return reader.build();
}

}  // namespace sb::rpc
