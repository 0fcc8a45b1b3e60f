// A whole XML document read into codecs' element tree (codecs/xml_tree.h), for documents read
// whole rather than streamed: a user's WSDL and its schemas. pugixml reads it (the default XML
// adapter's library) under the same policy as the adapters: no DOCTYPE, nesting bounded.
#pragma once

#include <string_view>

#include "codecs/xml_tree.h"
#include "core/limits.h"
#include "core/status.h"

namespace sb {

// Parses `bytes` into `root` (its parents linked). A malformed document or one the policy refuses
// gives a Status naming the offset and the reason.
Status read_xml_tree(std::string_view bytes, rpc::XmlNode& root, const Limits& limits = {});

}  // namespace sb
