#include "codecs/xml_namespaces.h"

namespace sb::rpc {

std::string_view local_part(std::string_view qname, std::string_view* prefix) {
  const std::size_t colon = qname.find(':');
  if (colon == std::string_view::npos) {
    *prefix = {};
    return qname;
  }
  *prefix = qname.substr(0, colon);
  return qname.substr(colon + 1);
}

std::optional<std::string_view> declared_prefix(std::string_view attribute_qname) {
  if (attribute_qname == "xmlns") return std::string_view();
  if (attribute_qname.starts_with("xmlns:")) return attribute_qname.substr(6);
  return std::nullopt;
}

std::string_view declared_in(XmlAttributes attributes, std::string_view prefix) {
  for (auto it = attributes.rbegin(); it != attributes.rend(); ++it) {  // the last one wins
    if (declared_prefix(it->qname) == prefix) return it->value;
  }
  return {};
}

void XmlNamespaces::push(XmlAttributes attributes) {
  for (const XmlAttribute& a : attributes) {
    if (const auto prefix = declared_prefix(a.qname)) {
      bindings_.push_back({std::string(*prefix), std::string(a.value)});
    }
  }
}

std::string_view XmlNamespaces::resolve(std::string_view prefix) const {
  for (auto it = bindings_.rbegin(); it != bindings_.rend(); ++it) {
    if (it->prefix == prefix) return it->uri;
  }
  return {};
}

std::string_view XmlNamespaces::attribute_uri(std::string_view qname,
                                              std::string_view* local) const {
  std::string_view prefix;
  *local = local_part(qname, &prefix);
  return prefix.empty() ? std::string_view() : resolve(prefix);  // unprefixed: no namespace
}

}  // namespace sb::rpc
