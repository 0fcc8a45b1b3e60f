// The one typed-scalar closer of the XML decoders: character data to a Value, for SOAP (xsd
// spellings) and XML-RPC (its own tags) alike. The text forms themselves are codecs/scalars.h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "codecs/value.h"

namespace sb::rpc {

// Where the spellings differ: xsd admits INF/-INF/NaN doubles and true/false booleans;
// XML-RPC has neither.
enum class ScalarSyntax : std::uint8_t { xsd, xmlrpc };

// Converts `text`, the character data of a `kind` scalar written in `syntax`, into `out`
// (nil: Value()). True and `text` emptied (moved from for strings); false on bad text, both
// untouched.
bool text_to_scalar(Kind kind, ScalarSyntax syntax, std::string& text, Value& out);

// Why text_to_scalar refused `text`: "bad LABEL 'TEXT'"; for base64, whose text may be
// megabytes, "bad LABEL" followed by " in WHERE" when `where` is not empty.
std::string bad_scalar_message(Kind kind, std::string_view label, std::string_view text,
                               std::string_view where);

}  // namespace sb::rpc
