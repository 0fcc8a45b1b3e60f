#include "core/status.h"

namespace sb {

std::string Status::describe() const {
  std::string out;
  if (where_.line >= 0) {
    out = "line " + std::to_string(where_.line);
    if (where_.column >= 0) out += ", column " + std::to_string(where_.column);
    out += ": ";
  } else if (where_.offset >= 0) {
    out = "offset " + std::to_string(where_.offset) + ": ";
  }
  return out + reason_;
}

Status too_deep(std::size_t limit, Location where) {
  return Status::limit("nesting deeper than " + std::to_string(limit), where);
}

Status doctype_refused(Location where) {
  return Status::limit("DOCTYPE is not allowed in a SOAP/RPC message", where);
}

}  // namespace sb
