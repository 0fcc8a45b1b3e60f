// XmlNamespaces: the namespace declarations in scope while an XML decoder streams (a stack
// truncated as elements close), and the qname helpers that go with it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/events.h"

namespace sb::rpc {

// The local part of `qname`; its prefix ("" when unprefixed) goes to *prefix.
std::string_view local_part(std::string_view qname, std::string_view* prefix);

// The prefix an attribute declares ("" for xmlns), or nullopt when it declares none.
std::optional<std::string_view> declared_prefix(std::string_view attribute_qname);

// The namespace `attributes` themselves bind `prefix` to ("" when unbound): what resolving
// against an empty scope after push(attributes) gives, without copying anything.
std::string_view declared_in(XmlAttributes attributes, std::string_view prefix);

class XmlNamespaces {
 public:
  // Forgets every declaration.
  void clear() { bindings_.clear(); }
  // The scope's size, to truncate() back to when the element that pushed closes.
  std::size_t mark() const { return bindings_.size(); }
  // Drops the declarations made after `mark`.
  void truncate(std::size_t mark) { bindings_.resize(mark); }

  // Brings the namespace declarations among `attributes` into scope.
  void push(XmlAttributes attributes);
  // The namespace `prefix` is bound to ("" when unbound).
  std::string_view resolve(std::string_view prefix) const;
  // The namespace of an attribute (unprefixed: none); its local part goes to *local.
  std::string_view attribute_uri(std::string_view qname, std::string_view* local) const;

 private:
  struct Binding {
    std::string prefix;  // "" for the default namespace
    std::string uri;     // bound namespace
  };

  std::vector<Binding> bindings_;  // declarations in scope, innermost last
};

}  // namespace sb::rpc
