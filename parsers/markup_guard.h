// A linear pre-scan of XML markup that enforces Limits' per-element attribute bounds before
// a library sees the message. Used at the decode level only by adapters whose library is
// superlinear in attributes per element (tinyxml2, libxml2) or multiplies a long attribute value
// in memory (Xerces-C++, Expat): AdapterInfo::decode_markup_guard. The others enforce the same
// bounds in the codec, from the events.
#pragma once

#include <string_view>

#include "core/limits.h"
#include "core/status.h"

namespace sb {

// Smallest message that can break a bound: shorter ones skip the scan (each attribute needs at
// least 4 bytes, ` a=""` less its leading space, and a value needs its own bytes).
std::size_t markup_guard_threshold(const Limits& limits);

// Status::limit naming the bound when one start tag holds more than limits.max_attributes
// attributes or an attribute value longer than limits.max_attribute_bytes; ok otherwise. Quote
// aware; comments, CDATA sections, processing instructions and declarations are skipped. Not a
// parser: malformed markup is left for the library to reject.
Status check_markup_limits(std::string_view xml, const Limits& limits);

}  // namespace sb
