#include "codecs/xml_decode_session.h"

#include <utility>

namespace sb::rpc {

bool XmlDecodeSession::fail(int code, std::string message) {
  if (!error.failed()) error = DecodeError{code, std::move(message)};
  return false;
}

bool XmlDecodeSession::unexpected(std::string_view what, std::string_view where) {
  return fail(fault::parse_error, "unexpected " + std::string(what) + " in " + std::string(where));
}

}  // namespace sb::rpc
