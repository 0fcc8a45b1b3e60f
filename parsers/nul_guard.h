// The NUL check of the JSON adapters whose library stops at a NUL byte (nlohmann_dom,
// nlohmann_sax, jsoncpp_dom).
#pragma once

#include <cstdint>
#include <cstring>

#include "core/message_buffer.h"
#include "core/status.h"

namespace sb {

// nlohmann/json's lexer and JsonCpp's reader take a NUL byte where a token may start for the end
// of the input (both read C strings too), so `{"a":1}` followed by `\0xyz` is accepted with the
// rest unread. No JSON text holds a raw NUL (it is no whitespace, and inside a string it is a
// control character, which RFC 8259 forbids), so after a successful parse any NUL is rejected, as
// the RapidJSON adapters reject what their NUL-terminated streams left unread.
inline Status check_no_nul(const MessageBuffer& message) {
  const void* nul = std::memchr(message.data(), 0, message.size());
  if (nul == nullptr) return Status::success();
  const auto offset = static_cast<const char*>(nul) - message.data();
  return Status::malformed("NUL byte before the end of the message",
                           Location{.offset = static_cast<std::int64_t>(offset)});
}

}  // namespace sb
