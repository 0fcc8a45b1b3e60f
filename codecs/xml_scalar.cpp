#include "codecs/xml_scalar.h"

namespace sb::rpc {

std::string bad_scalar_message(Kind kind, ScalarSyntax syntax, std::string_view label,
                               std::string_view text, std::string_view where) {
  std::string message = "bad " + std::string(label);
  if (kind == Kind::datetime) {
    std::string why;
    (void)(syntax == ScalarSyntax::xsd ? parse_xsd_datetime(text, &why)
                                       : parse_datetime(text, &why));
    return message + " '" + std::string(text) + "'" + (why.empty() ? "" : ": " + why);
  }
  if (kind != Kind::base64) return message + " '" + std::string(text) + "'";
  if (!where.empty()) message += " in " + std::string(where);
  return message;
}

}  // namespace sb::rpc
