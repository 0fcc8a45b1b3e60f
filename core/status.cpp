#include "core/status.h"

#include <string_view>

namespace sb {

namespace {

// Length of the valid UTF-8 sequence at s[i] (RFC 3629: no overlongs, no surrogates, at most
// U+10FFFF), 0 when the bytes there are not one.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // bounds of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > s.size() || byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  return n;
}

// Length of the longest valid UTF-8 prefix of s.
std::size_t valid_prefix(std::string_view s) {
  std::size_t i = 0;
  for (std::size_t n; i < s.size() && (n = utf8_sequence(s, i)) > 0;) i += n;
  return i;
}

// `text` with every byte that starts no valid UTF-8 sequence replaced by U+FFFD.
std::string valid_utf8(std::string text) {
  std::size_t i = valid_prefix(text);
  if (i == text.size()) return text;  // the usual case: unchanged
  std::string out = text.substr(0, i);
  while (i < text.size()) {
    const std::size_t n = utf8_sequence(text, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

}  // namespace

bool is_valid_utf8(std::string_view text) { return valid_prefix(text) == text.size(); }

Status::Status(StatusCode code, std::string reason, Location where)
    : code_(code), reason_(valid_utf8(std::move(reason))), where_(where) {}

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
