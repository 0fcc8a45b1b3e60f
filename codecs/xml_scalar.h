// The one typed-scalar closer of the XML decoders: character data to a Value, for SOAP (xsd
// spellings) and XML-RPC (its own tags) alike. The text forms themselves are codecs/scalars.h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "codecs/base64.h"
#include "codecs/scalars.h"
#include "codecs/value.h"

namespace sb::rpc {

// Where the spellings differ: xsd admits INF/-INF/NaN doubles and true/false booleans;
// XML-RPC has neither, and writes dateTimes in its compact form (YYYYMMDDThh:mm:ss) or xsd's.
enum class ScalarSyntax : std::uint8_t { xsd, xmlrpc };

// Why text_to_scalar (below) refused `text`: "bad LABEL 'TEXT'" (for a dateTime followed by
// ": " and the grammar's reason, "years after 9999 are not supported"); for base64, whose text
// may be megabytes, "bad LABEL" followed by " in WHERE" when `where` is not empty.
std::string bad_scalar_message(Kind kind, ScalarSyntax syntax, std::string_view label,
                               std::string_view text, std::string_view where);

// Converts `text`, the character data of a `kind` scalar written in `syntax`, into `out`
// (nil: Value()). True and `text` emptied (moved from for strings); false on bad text, both
// untouched. Inline: it runs once per scalar, with `syntax` constant at every call site.
inline bool text_to_scalar(Kind kind, ScalarSyntax syntax, std::string& text, Value& out) {
  switch (kind) {
    case Kind::nil:
      out = Value();
      break;
    case Kind::string:
      out = Value::string(std::move(text));
      break;
    case Kind::integer: {
      // XML-RPC's int is a sign and digits (its spec's FAQ: no whitespace), unlike xsd:int.
      if (syntax == ScalarSyntax::xmlrpc && trim_xml_space(text).size() != text.size())
        return false;
      auto i = parse_int32(text);
      if (!i) return false;
      out = Value::integer(*i);
      break;
    }
    case Kind::floating: {
      auto d = parse_double(text, syntax == ScalarSyntax::xsd);
      if (!d) return false;
      out = Value::floating(*d);
      break;
    }
    case Kind::boolean: {
      auto b = syntax == ScalarSyntax::xsd ? parse_xsd_bool(text) : parse_xmlrpc_bool(text);
      if (!b) return false;
      out = Value::boolean(*b);
      break;
    }
    case Kind::datetime: {
      auto d = syntax == ScalarSyntax::xsd ? parse_xsd_datetime(text) : parse_datetime(text);
      if (!d) return false;
      out = Value::datetime(std::move(*d));
      break;
    }
    case Kind::base64: {
      auto b = base64_decode(text);
      if (!b) return false;
      out = Value::base64(std::move(*b));
      break;
    }
    default:  // containers are not scalars: nothing to convert
      break;
  }
  text.clear();
  return true;
}

}  // namespace sb::rpc
