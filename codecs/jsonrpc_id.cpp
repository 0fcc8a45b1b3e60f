// Scanning for one top-level member of a JSON object without building a tree: strings are skipped
// with their escapes, containers by depth, so an "id" inside params is never taken.
#include "codecs/jsonrpc_id.h"

#include <algorithm>
#include <charconv>
#include <string>

namespace sb::rpc {

namespace {

constexpr std::size_t npos = std::string_view::npos;

bool json_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::size_t skip_ws(std::string_view s, std::size_t i) {
  while (i < s.size() && json_ws(s[i])) ++i;
  return i;
}

// From the opening quote at s[i]: the index just past the closing quote, or npos.
std::size_t skip_string(std::string_view s, std::size_t i) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
    } else if (s[i] == '"') {
      return i + 1;
    }
  }
  return npos;
}

// From the first byte of a value at s[i]: the index just past it, or npos.
std::size_t skip_value(std::string_view s, std::size_t i) {
  if (i >= s.size()) return npos;
  if (s[i] == '"') return skip_string(s, i);
  if (s[i] == '{' || s[i] == '[') {
    std::size_t depth = 0;
    while (i < s.size()) {
      const char c = s[i];
      if (c == '"') {
        i = skip_string(s, i);
        if (i == npos) return npos;
        continue;
      }
      if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (--depth == 0) return i + 1;
      }
      ++i;
    }
    return npos;
  }
  std::size_t j = i;  // a number or a literal: up to the next delimiter
  while (j < s.size() && s[j] != ',' && s[j] != '}' && s[j] != ']' && !json_ws(s[j])) ++j;
  return j == i ? npos : j;
}

// Whether the raw (still escaped) key equals the ASCII string `want`.
bool key_is(std::string_view raw, std::string_view want) {
  if (raw.find('\\') == npos) return raw == want;
  std::string decoded;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != '\\') {
      decoded += raw[i];
      continue;
    }
    if (++i >= raw.size()) return false;
    switch (raw[i]) {
      case 'u': {
        unsigned cp = 0;
        if (i + 4 >= raw.size()) return false;
        const auto r = std::from_chars(raw.data() + i + 1, raw.data() + i + 5, cp, 16);
        if (r.ptr != raw.data() + i + 5 || cp >= 0x80) return false;  // want is ASCII
        decoded += static_cast<char>(cp);
        i += 4;
        break;
      }
      case 'b':
        decoded += '\b';
        break;
      case 'f':
        decoded += '\f';
        break;
      case 'n':
        decoded += '\n';
        break;
      case 'r':
        decoded += '\r';
        break;
      case 't':
        decoded += '\t';
        break;
      default:
        decoded += raw[i];
        break;  // \" \\ \/
    }
  }
  return decoded == want;
}

// Fast path: the value of the object's last member when that member is `key` (JSON-RPC clients
// usually write "id" last), scanning back from the end; nullopt when it is not (or unsure).
std::optional<std::string_view> last_member_if(std::string_view s, std::string_view key) {
  std::size_t j = s.size();
  while (j > 0 && json_ws(s[j - 1])) --j;
  if (j == 0 || s[j - 1] != '}') return std::nullopt;
  --j;
  while (j > 0 && json_ws(s[j - 1])) --j;
  if (j == 0) return std::nullopt;
  const std::size_t value_end = j;
  // Index of the unescaped quote that opens the string whose closing quote is at s[close].
  auto opening_quote = [&](std::size_t close) -> std::size_t {
    for (std::size_t k = close; k-- > 0;) {
      if (s[k] != '"') continue;
      std::size_t slashes = 0;
      while (k - slashes > 0 && s[k - slashes - 1] == '\\') ++slashes;
      if (slashes % 2 == 0) return k;
    }
    return npos;
  };
  std::size_t value_begin;
  if (s[j - 1] == '"') {
    if (j < 2) return std::nullopt;
    value_begin = opening_quote(j - 1);
    if (value_begin == npos) return std::nullopt;
  } else {
    if (s[j - 1] == '}' || s[j - 1] == ']') return std::nullopt;  // a container: slow path
    value_begin = j;
    while (value_begin > 0 && s[value_begin - 1] != ':' && s[value_begin - 1] != ',' &&
           s[value_begin - 1] != '{' && s[value_begin - 1] != '[' && !json_ws(s[value_begin - 1]))
      --value_begin;
  }
  std::size_t k = value_begin;
  while (k > 0 && json_ws(s[k - 1])) --k;
  if (k == 0 || s[k - 1] != ':') return std::nullopt;
  --k;
  while (k > 0 && json_ws(s[k - 1])) --k;
  if (k < 2 || s[k - 1] != '"') return std::nullopt;
  const std::size_t key_begin = opening_quote(k - 1);
  if (key_begin == npos) return std::nullopt;
  std::size_t before = key_begin;
  while (before > 0 && json_ws(s[before - 1])) --before;
  if (before == 0 || (s[before - 1] != ',' && s[before - 1] != '{')) return std::nullopt;
  if (!key_is(s.substr(key_begin + 1, k - 1 - key_begin - 1), key)) return std::nullopt;
  return s.substr(value_begin, value_end - value_begin);
}

// Whether `t` is a JSON number token (RFC 8259 grammar).
bool json_number(std::string_view t) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    return i > start;
  };
  if (i < t.size() && t[i] == '-') ++i;
  if (i < t.size() && t[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < t.size() && t[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == t.size();
}

}  // namespace

std::optional<std::string_view> json_top_level_member(std::string_view s, std::string_view key) {
  if (auto fast = last_member_if(s, key)) return fast;
  std::size_t i = skip_ws(s, 0);
  if (i >= s.size() || s[i] != '{') return std::nullopt;
  i = skip_ws(s, i + 1);
  std::optional<std::string_view> found;
  if (i < s.size() && s[i] == '}') return found;
  for (;;) {
    if (i >= s.size() || s[i] != '"') return found;
    const std::size_t key_end = skip_string(s, i);
    if (key_end == npos) return found;
    const std::string_view k = s.substr(i + 1, key_end - i - 2);
    i = skip_ws(s, key_end);
    if (i >= s.size() || s[i] != ':') return found;
    i = skip_ws(s, i + 1);
    const std::size_t value_end = skip_value(s, i);
    if (value_end == npos) return found;
    if (key_is(k, key)) found = s.substr(i, value_end - i);
    i = skip_ws(s, value_end);
    if (i >= s.size() || s[i] != ',') return found;
    i = skip_ws(s, i + 1);
  }
}

JsonRpcId find_jsonrpc_id(std::string_view body) {
  JsonRpcId id;
  const std::optional<std::string_view> raw = json_top_level_member(body, "id");
  if (!raw) return id;
  id.present = true;
  const std::string_view t = *raw;
  bool valid = t == "null" || json_number(t);
  if (!valid && t.size() >= 2 && t.front() == '"' && t.back() == '"') {
    valid = std::none_of(t.begin(), t.end(),
                         [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  }
  if (!valid) return id;  // objects, arrays, booleans: answered with null
  id.raw = t;
  std::int64_t n = 0;
  if (json_number(t) && t.find_first_of(".eE") == npos) {
    const auto r = std::from_chars(t.data(), t.data() + t.size(), n);
    if (r.ec == std::errc() && r.ptr == t.data() + t.size() && !(n == 0 && t.front() == '-')) {
      id.number = n;
    }
  }
  return id;
}

std::optional<std::vector<std::string_view>> json_array_items(std::string_view s) {
  std::size_t i = skip_ws(s, 0);
  if (i >= s.size() || s[i] != '[') return std::nullopt;
  std::vector<std::string_view> items;
  i = skip_ws(s, i + 1);
  if (i < s.size() && s[i] == ']')
    return skip_ws(s, i + 1) == s.size() ? std::optional(items) : std::nullopt;
  for (;;) {
    const std::size_t end = skip_value(s, i);
    if (end == npos) return std::nullopt;
    items.push_back(s.substr(i, end - i));
    i = skip_ws(s, end);
    if (i < s.size() && s[i] == ',') {
      i = skip_ws(s, i + 1);
      continue;
    }
    if (i < s.size() && s[i] == ']' && skip_ws(s, i + 1) == s.size()) return items;
    return std::nullopt;
  }
}

bool json_is_array(std::string_view s) {
  const std::size_t i = skip_ws(s, 0);
  return i < s.size() && s[i] == '[';
}

}  // namespace sb::rpc
