// What the two nlohmann/json adapters (nlohmann_dom, nlohmann_sax) share.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/message_buffer.h"
#include "core/status.h"

namespace sb {

// nlohmann/json's lexer takes a NUL byte where a token may start for the end of the input (it
// reads C strings too), so `{"a":1}` followed by `\0xyz` is accepted with the rest unread. No
// JSON text holds a raw NUL (it is no whitespace, and inside a string the library rejects it as
// a control character), so after a successful parse any NUL marks bytes the library never read:
// rejected, as the RapidJSON adapters reject what their NUL-terminated streams left unread.
inline Status nlohmann_rest_unread(const MessageBuffer& message) {
  const void* nul = std::memchr(message.data(), 0, message.size());
  if (nul == nullptr) return Status::success();
  const auto offset = static_cast<const char*>(nul) - message.data();
  return Status::malformed("NUL byte before the end of the message",
                           Location{.offset = static_cast<std::int64_t>(offset)});
}

}  // namespace sb
