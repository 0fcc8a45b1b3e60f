// The WSDL reader's second half: each SOAP 1.1 / 1.2 binding's operations read into Operations
// (soap:binding and soap:operation style, soap:body use and namespace, SOAPAction, the port's
// soap:address), their messages typed through the schemas codecs/wsdl_reader.cpp indexed.
#include <string>
#include <utility>
#include <vector>

#include "codecs/wsdl_reader_detail.h"

namespace sb::rpc::wsdl_detail {

constexpr std::size_t kMaxParams = 64;  // SoapDecoder tracks the params seen in 64 bits

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
        op.params.push_back({p.name, p.type, p.optional, p.repeated, p.ns});
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
    op.result_ns = parts.front().ns;
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

}  // namespace sb::rpc::wsdl_detail
