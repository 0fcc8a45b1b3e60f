#include "codecs/xml_scalar.h"

namespace sb::rpc {

std::string bad_scalar_message(Kind kind, std::string_view label, std::string_view text,
                               std::string_view where) {
  std::string message = "bad " + std::string(label);
  if (kind != Kind::base64) return message + " '" + std::string(text) + "'";
  if (!where.empty()) message += " in " + std::string(where);
  return message;
}

}  // namespace sb::rpc
