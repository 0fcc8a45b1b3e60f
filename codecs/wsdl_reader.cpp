// Reading a user's WSDL 1.1 into a Contract. Three passes: index every document (definitions,
// imports, schema declarations), then type each SOAP binding's operations on demand
// (codecs/wsdl_bindings.cpp), memoizing every type node so recursive types (Person.children) and
// shared ones are built once. Typing throws Unsupported naming the construct; the operation is
// then refused, the others go on.
#include "codecs/wsdl_reader.h"

#include <map>
#include <set>
#include <utility>

#include "codecs/scalars.h"
#include "codecs/wsdl_reader_detail.h"
#include "codecs/xml_namespaces.h"
#include "codecs/xsd_types.h"

namespace sb::rpc {

namespace wsdl_detail {

constexpr std::string_view kWsdl20Ns = "http://www.w3.org/ns/wsdl";

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
  if ((uri == ns::soap11_enc || uri == ns::soap12_enc) && local == "Array") {
    return array_of(dynamic_type());
  }
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
      // SOAP 1.1's SOAP-ENC:Array, or SOAP 1.2's enc:Array (its items by the sequence's element).
      if ((uri == ns::soap11_enc || uri == ns::soap12_enc) && local == "Array") {
        return soapenc_array(*derivation, name);
      }
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
        out.push_back({m.name, m.type, m.repeated, true, m.ns});
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
          optional_all || optional(element), builder_.name(element_ns(element))};
}

std::string_view Reader::element_ns(const XmlNode& decl) const {
  // XML Schema 1.0 Part 1 §3.3.2: a global element (or a reference to one) is in its schema's
  // target namespace; a local one only when qualified, by form= or else elementFormDefault.
  if (const std::string_view ref = attr(decl, "ref"); !ref.empty()) {
    return target_namespace(global_element(decl, ref));
  }
  const XmlNode* schema = schema_of(decl);
  if (schema == nullptr || decl.parent == schema) return target_namespace(decl);
  std::string_view form = trim_xml_space(attr(decl, "form"));
  if (form.empty()) form = trim_xml_space(attr(*schema, "elementFormDefault"));
  return form == "qualified" ? target_namespace(decl) : std::string_view();
}

const Type* Reader::array_of(const Type& item) {
  Type& t = builder_.new_type(Kind::array, std::string(item.name) + "[]");
  t.element = &item;
  return &t;
}

StructDef& Reader::struct_of(const std::vector<Particle>& parts, std::string_view name) {
  StructDef& s = builder_.new_struct(name);
  for (const Particle& p : parts) s.members.push_back({p.name, p.type, p.repeated, p.ns});
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

}  // namespace wsdl_detail

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
  wsdl_detail::Reader reader(load, report);
  for (std::size_t i = 0; i < roots.size(); ++i) reader.add_definitions(*roots[i], paths[i]);
  return reader.build();
}

}  // namespace sb::rpc
