// XmlNode: a small element tree for documents read whole rather than streamed (a user's WSDL and
// its schemas, codecs/wsdl_reader.h). parsers/xml_tree_reader.h fills it with a parser library;
// names stay as written and prefixes resolve through the xmlns attributes in scope.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sb::rpc {

struct XmlNode {
  std::string qname;                                            // as written, "xsd:element"
  std::vector<std::pair<std::string, std::string>> attributes;  // as written, xmlns ones too
  std::vector<XmlNode> children;                                // child elements, in order
  std::string text;                                             // character data directly inside
  const XmlNode* parent = nullptr;  // set by link_parents(); nullptr at the root

  // The attribute named `qname` as written, or nullptr.
  const std::string* attribute(std::string_view qname) const;
  // The local part of the name.
  std::string_view local() const;
  // The namespace of the element's own name.
  std::string_view uri() const;
  // The namespace `prefix` is bound to here ("" when unbound; "xml" is predefined).
  std::string_view resolve(std::string_view prefix) const;
  // A QName-valued attribute's value (`tns:Person`) resolved here: (namespace, local part).
  std::pair<std::string_view, std::string_view> resolve_qname(std::string_view value) const;
};

// Sets every node's `parent` (call once the tree will no longer change).
void link_parents(XmlNode& root);

}  // namespace sb::rpc
