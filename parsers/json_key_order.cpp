#include "parsers/json_key_order.h"

#include <cstring>

namespace sb {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// A byte of a number or of true/false/null: anything else outside a string is structure, or a
// byte JSON does not have there (then the order is not read).
bool is_literal_byte(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
         c == '+' || c == '.';
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The four hex digits at s[at..at+4) as a number, or -1.
long hex4(std::string_view s, std::size_t at) {
  if (at + 4 > s.size()) return -1;
  long v = 0;
  for (std::size_t i = at; i < at + 4; ++i) {
    const int d = hex_digit(s[i]);
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

void append_utf8(std::string& out, unsigned long c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// JSON's escapes (RFC 8259 section 7) of s[at..], the '\\' at s[at]; false on another one.
bool unescape_one(std::string_view s, std::size_t& at, std::string& out) {
  if (at + 1 >= s.size()) return false;
  const char e = s[at + 1];
  at += 2;
  switch (e) {
    case '"':
    case '\\':
    case '/':
      out += e;
      return true;
    case 'b':
      out += '\b';
      return true;
    case 'f':
      out += '\f';
      return true;
    case 'n':
      out += '\n';
      return true;
    case 'r':
      out += '\r';
      return true;
    case 't':
      out += '\t';
      return true;
    case 'u': {
      long c = hex4(s, at);
      if (c < 0) return false;
      at += 4;
      if (c >= 0xD800 && c <= 0xDBFF) {  // a surrogate pair's high half: its low half follows
        const long low =
            at + 1 < s.size() && s[at] == '\\' && s[at + 1] == 'u' ? hex4(s, at + 2) : -1;
        if (low < 0xDC00 || low > 0xDFFF) return false;
        c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
        at += 6;
      } else if (c >= 0xDC00 && c <= 0xDFFF) {
        return false;
      }
      append_utf8(out, static_cast<unsigned long>(c));
      return true;
    }
    default:
      return false;
  }
}

// Past the string whose opening quote is at s[at]; npos when it does not end. Quotes are found
// with memchr; one is the end unless an odd number of backslashes escapes it.
std::size_t skip_string(std::string_view s, std::size_t at) {
  for (std::size_t i = at + 1; i < s.size();) {
    const void* q = std::memchr(s.data() + i, '"', s.size() - i);
    if (q == nullptr) return std::string_view::npos;
    const std::size_t quote = static_cast<const char*>(q) - s.data();
    std::size_t backslashes = 0;
    while (quote - backslashes > at + 1 && s[quote - backslashes - 1] == '\\') ++backslashes;
    if (backslashes % 2 == 0) return quote + 1;
    i = quote + 1;
  }
  return std::string_view::npos;
}

}  // namespace

bool JsonKeyOrder::read_key(std::string_view json, std::size_t& at, std::string_view& out) {
  const std::size_t end = skip_string(json, at);
  if (end == std::string_view::npos) return false;
  const std::string_view raw = json.substr(at + 1, end - at - 2);
  at = end;
  if (raw.find('\\') == std::string_view::npos) {
    out = raw;
    return true;
  }
  std::string& text = unescaped_.emplace_back();
  for (std::size_t i = 0; i < raw.size();) {
    if (raw[i] != '\\') {
      text += raw[i++];
    } else if (!unescape_one(raw, i, text)) {
      return false;
    }
  }
  out = text;
  return true;
}

bool JsonKeyOrder::read(std::string_view json) {
  keys_.clear();
  object_first_.clear();
  object_count_.clear();
  ordered_.clear();
  unescaped_.clear();
  numbers_.clear();
  // Open containers: the object's number, or -1 for an array; whether a key comes next.
  struct Open {
    long object;
    bool key_next;
  };
  std::vector<Open> open;
  // A UTF-8 byte order mark before the text: Qt's fromJson skips it, so the order must too
  // (read as a literal, it hid the first object, and the walk asked for objects never read).
  const std::size_t bom = json.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  for (std::size_t i = bom; i < json.size();) {
    const char c = json[i];
    if (is_space(c) || c == ':') {
      ++i;
    } else if (c == '{') {
      open.push_back({static_cast<long>(object_count_.size()), true});
      object_count_.push_back(0);
      ++i;
    } else if (c == '[') {
      open.push_back({-1, false});
      ++i;
    } else if (c == '}' || c == ']') {
      if (open.empty()) return false;
      open.pop_back();
      ++i;
    } else if (c == ',') {
      if (!open.empty()) open.back().key_next = open.back().object >= 0;
      ++i;
    } else if (c == '"' && !open.empty() && open.back().key_next) {
      std::string_view key;
      if (!read_key(json, i, key)) return false;
      const auto object = static_cast<std::uint32_t>(open.back().object);
      keys_.push_back({object, key});
      ++object_count_[object];
      open.back().key_next = false;
    } else if (c == '"') {
      i = skip_string(json, i);
      if (i == std::string_view::npos) return false;
    } else {
      const std::size_t start = i;
      bool fraction = false;
      while (i < json.size() && is_literal_byte(json[i])) {
        fraction = fraction || json[i] == '.' || json[i] == 'e' || json[i] == 'E';
        ++i;  // a number or literal
      }
      if (c == '-' || (c >= '0' && c <= '9')) {
        numbers_.push_back(static_cast<std::uint8_t>((fraction ? 1 : 0) | (c == '-' ? 2 : 0)));
      }
      if (i == start) return false;  // a byte JSON does not have here
    }
  }
  // Group the keys by object, keeping document order within each (a counting sort).
  object_first_.resize(object_count_.size());
  std::uint32_t at = 0;
  for (std::size_t o = 0; o < object_count_.size(); ++o) {
    object_first_[o] = at;
    at += object_count_[o];
  }
  ordered_.resize(keys_.size());
  std::vector<std::uint32_t> next(object_first_);
  for (const Key& k : keys_) ordered_[next[k.object]++] = k.text;
  return open.empty();
}

}  // namespace sb
