// The one set of policy limits every adapter and codec enforces (docs/architecture.md "The
// adapter contract"; docs/conformance.md "Hostile input and limits"). Parsers read the first five;
// the SOAP codec also bounds reference expansion.
#pragma once

#include <cstddef>

namespace sb {

struct Limits {
  std::size_t max_depth = 256;  // deepest element / container nesting accepted
  bool allow_doctype = false;   // SOAP 1.1 §3 forbids DTDs; true only to record library behaviour
  std::size_t max_attributes = 1024;           // attributes on one element (decode level)
  std::size_t max_attribute_bytes = 1u << 20;  // one attribute value as written (decode level)
  std::size_t max_members = 1024;  // members of one JSON object, and messages of one JSON-RPC
                                   // batch (decode level; the server's batches too)
  std::size_t max_reference_expansions = 100000;  // SOAP href/id resolutions per message
};

}  // namespace sb
