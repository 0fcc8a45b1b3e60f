#include "core/message_buffer.h"

#include <cstring>

namespace sb {

void MessageBuffer::assign(std::string_view bytes) {
  const std::size_t needed = bytes.size() + kPadding;
  if (!storage_ || capacity_ < needed) {
    storage_ = std::make_unique<char[]>(needed);
    capacity_ = needed;
  }
  if (!bytes.empty()) std::memcpy(storage_.get(), bytes.data(), bytes.size());
  // Zero the whole tail: in-situ parsers may have written past the previous contents.
  std::memset(storage_.get() + bytes.size(), 0, capacity_ - bytes.size());
  size_ = bytes.size();
}

}  // namespace sb
