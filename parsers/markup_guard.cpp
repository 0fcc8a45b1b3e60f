#include "parsers/markup_guard.h"

#include <cstring>
#include <string>

namespace sb {

std::size_t markup_guard_threshold(const Limits& limits) {
  const std::size_t by_count = limits.max_attributes * 4;
  return by_count < limits.max_attribute_bytes ? by_count : limits.max_attribute_bytes;
}

Status check_markup_limits(std::string_view xml, const Limits& limits) {
  const char* const data = xml.data();
  const std::size_t size = xml.size();
  // Position just past `close` at or after `from`, or the end when it never comes.
  auto skip_past = [&](std::size_t from, std::string_view close) {
    const std::size_t at = xml.find(close, from);
    return at == std::string_view::npos ? size : at + close.size();
  };
  std::size_t pos = 0;
  while (pos < size) {
    const void* lt = std::memchr(data + pos, '<', size - pos);
    if (lt == nullptr) break;
    std::size_t i = static_cast<std::size_t>(static_cast<const char*>(lt) - data) + 1;
    if (i >= size) break;
    const std::string_view rest = xml.substr(i);
    if (rest.starts_with("!--")) {
      pos = skip_past(i + 3, "-->");
      continue;
    }
    if (rest.starts_with("![CDATA[")) {
      pos = skip_past(i + 8, "]]>");
      continue;
    }
    if (data[i] == '?') {
      pos = skip_past(i + 1, "?>");
      continue;
    }
    if (data[i] == '!' || data[i] == '/') {  // declarations and end tags carry no attributes
      pos = i;
      continue;
    }
    // A start tag: every attribute has exactly one quoted value.
    std::size_t attributes = 0;
    while (i < size && data[i] != '>') {
      const char c = data[i];
      if (c != '"' && c != '\'') {
        ++i;
        continue;
      }
      const void* close = std::memchr(data + i + 1, c, size - i - 1);
      if (close == nullptr) return Status::success();  // unterminated: the library rejects it
      const std::size_t end = static_cast<std::size_t>(static_cast<const char*>(close) - data);
      if (end - i - 1 > limits.max_attribute_bytes) {
        return Status::limit("an attribute value longer than " +
                             std::to_string(limits.max_attribute_bytes) + " bytes");
      }
      if (++attributes > limits.max_attributes) {
        return Status::limit("more than " + std::to_string(limits.max_attributes) +
                             " attributes on one element");
      }
      i = end + 1;
    }
    pos = i + 1;
  }
  return Status::success();
}

}  // namespace sb
