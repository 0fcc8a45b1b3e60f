// The bytes of one message, NUL-terminated and zero-padded so that every library can read
// it without a copy (RapidXML and in-situ RapidJSON need the terminator, simdjson the padding).
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

namespace sb {

class MessageBuffer {
 public:
  // Zeroed bytes after the message; at least simdjson's SIMDJSON_PADDING (64).
  static constexpr std::size_t kPadding = 64;

  MessageBuffer() = default;
  explicit MessageBuffer(std::string_view bytes) { assign(bytes); }
  MessageBuffer(const MessageBuffer& other) { assign(other.view()); }
  MessageBuffer& operator=(const MessageBuffer& other) {
    if (this != &other) assign(other.view());
    return *this;
  }
  MessageBuffer(MessageBuffer&&) noexcept = default;
  MessageBuffer& operator=(MessageBuffer&&) noexcept = default;

  // Replaces the contents with a copy of bytes; reuses the storage when it is large enough.
  void assign(std::string_view bytes);

  char* data() { return storage_.get(); }
  const char* data() const { return storage_.get(); }
  std::size_t size() const { return size_; }
  // Bytes usable from data(): size() plus the zeroed padding.
  std::size_t capacity() const { return capacity_; }
  std::string_view view() const { return {storage_.get(), size_}; }

 private:
  std::unique_ptr<char[]> storage_;  // message + kPadding zero bytes
  std::size_t size_ = 0;             // message length
  std::size_t capacity_ = 0;         // allocated length (>= size_ + kPadding)
};

}  // namespace sb
