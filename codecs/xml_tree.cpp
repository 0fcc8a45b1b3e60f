#include "codecs/xml_tree.h"

#include "codecs/scalars.h"
#include "codecs/xml_namespaces.h"

namespace sb::rpc {

const std::string* XmlNode::attribute(std::string_view name) const {
  for (const auto& [n, v] : attributes) {
    if (n == name) return &v;
  }
  return nullptr;
}

std::string_view XmlNode::local() const {
  std::string_view prefix;
  return local_part(qname, &prefix);
}

std::string_view XmlNode::uri() const {
  std::string_view prefix;
  local_part(qname, &prefix);
  return resolve(prefix);
}

std::string_view XmlNode::resolve(std::string_view prefix) const {
  if (prefix == "xml") return "http://www.w3.org/XML/1998/namespace";
  for (const XmlNode* n = this; n != nullptr; n = n->parent) {
    for (const auto& [name, value] : n->attributes) {
      const auto declared = declared_prefix(name);
      if (declared && *declared == prefix) return value;
    }
  }
  return {};
}

std::pair<std::string_view, std::string_view> XmlNode::resolve_qname(std::string_view value) const {
  std::string_view prefix;
  const std::string_view local = local_part(trim_xml_space(value), &prefix);
  return {resolve(prefix), local};
}

void link_parents(XmlNode& root) {
  for (XmlNode& child : root.children) {
    child.parent = &root;
    link_parents(child);
  }
}

}  // namespace sb::rpc
