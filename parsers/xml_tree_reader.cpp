#include "parsers/xml_tree_reader.h"

#include <pugixml.hpp>

namespace sb {

namespace {

// Copies pugixml's element `from` into `to`, depth-first without recursion limits beyond `depth`.
Status copy_element(pugi::xml_node from, rpc::XmlNode& to, std::size_t depth,
                    const Limits& limits) {
  if (depth > limits.max_depth) return too_deep(limits.max_depth);
  to.qname = from.name();
  for (pugi::xml_attribute a = from.first_attribute(); a; a = a.next_attribute()) {
    to.attributes.emplace_back(a.name(), a.value());
  }
  for (pugi::xml_node c = from.first_child(); c; c = c.next_sibling()) {
    if (c.type() == pugi::node_element) {
      Status s = copy_element(c, to.children.emplace_back(), depth + 1, limits);
      if (!s.ok()) return s;
    } else if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) {
      to.text += c.value();
    }
  }
  return Status::success();
}

}  // namespace

Status read_xml_tree(std::string_view bytes, rpc::XmlNode& root, const Limits& limits) {
  pugi::xml_document doc;
  const pugi::xml_parse_result r =
      doc.load_buffer(bytes.data(), bytes.size(), pugi::parse_default | pugi::parse_doctype);
  if (!r) return Status::malformed(r.description(), Location{.offset = r.offset});
  for (pugi::xml_node n = doc.first_child(); n; n = n.next_sibling()) {
    if (n.type() == pugi::node_doctype && !limits.allow_doctype) return doctype_refused();
  }
  const pugi::xml_node element = doc.document_element();
  if (!element) return Status::malformed("no root element");
  root = rpc::XmlNode();
  Status s = copy_element(element, root, 1, limits);
  if (s.ok()) rpc::link_parents(root);
  return s;
}

}  // namespace sb
