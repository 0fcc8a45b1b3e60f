#include "codecs/xml_scalar.h"

#include <utility>

#include "codecs/base64.h"
#include "codecs/scalars.h"

namespace sb::rpc {

bool text_to_scalar(Kind kind, ScalarSyntax syntax, std::string& text, Value& out) {
  switch (kind) {
    case Kind::nil:
      out = Value();
      break;
    case Kind::string:
      out = Value::string(std::move(text));
      break;
    case Kind::integer: {
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
      auto d = parse_datetime(text);
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

std::string bad_scalar_message(Kind kind, std::string_view label, std::string_view text,
                               std::string_view where) {
  std::string message = "bad " + std::string(label);
  if (kind != Kind::base64) return message + " '" + std::string(text) + "'";
  if (!where.empty()) message += " in " + std::string(where);
  return message;
}

}  // namespace sb::rpc
