#include "codecs/scalars.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "codecs/canonical_json.h"

namespace sb::rpc {

namespace {

bool is_xml_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

int two_digits(std::string_view s, std::size_t at) {
  return (s[at] - '0') * 10 + (s[at + 1] - '0');
}

}  // namespace

std::string_view trim_xml_space(std::string_view s) {
  while (!s.empty() && is_xml_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_xml_space(s.back())) s.remove_suffix(1);
  return s;
}

std::optional<std::int32_t> parse_int32(std::string_view text) {
  text = trim_xml_space(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return std::nullopt;
  std::int32_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_double(std::string_view text, bool allow_special) {
  text = trim_xml_space(text);
  if (allow_special) {
    if (text == "INF" || text == "+INF") return std::numeric_limits<double>::infinity();
    if (text == "-INF") return -std::numeric_limits<double>::infinity();
    if (text == "NaN") return std::numeric_limits<double>::quiet_NaN();
  }
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return std::nullopt;
  // from_chars would accept "inf"/"nan" spellings: only digits, sign, '.', 'e' are allowed here.
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E')) {
      return std::nullopt;
    }
  }
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<bool> parse_xmlrpc_bool(std::string_view text) {
  text = trim_xml_space(text);
  if (text == "1") return true;
  if (text == "0") return false;
  return std::nullopt;
}

std::optional<bool> parse_xsd_bool(std::string_view text) {
  text = trim_xml_space(text);
  if (text == "true" || text == "1") return true;
  if (text == "false" || text == "0") return false;
  return std::nullopt;
}

std::optional<std::string> parse_datetime(std::string_view text) {
  text = trim_xml_space(text);
  std::string out;
  if (text.size() >= 17 && text[8] == 'T' && all_digits(text.substr(0, 8))) {
    // XML-RPC: YYYYMMDDThh:mm:ss
    out = std::string(text.substr(0, 4)) + "-" + std::string(text.substr(4, 2)) + "-" +
          std::string(text.substr(6, 2)) + std::string(text.substr(8, 9));
    text.remove_prefix(17);
  } else if (text.size() >= 19) {
    out = std::string(text.substr(0, 19));
    text.remove_prefix(19);
  } else {
    return std::nullopt;
  }
  if (!text.empty() && text != "Z" && text != "+00:00" && text != "-00:00") return std::nullopt;
  // Shape YYYY-MM-DDThh:mm:ss with plausible fields.
  const std::string_view s = out;
  if (s.size() != 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
      s[16] != ':') {
    return std::nullopt;
  }
  if (!all_digits(s.substr(0, 4)) || !all_digits(s.substr(5, 2)) || !all_digits(s.substr(8, 2)) ||
      !all_digits(s.substr(11, 2)) || !all_digits(s.substr(14, 2)) ||
      !all_digits(s.substr(17, 2))) {
    return std::nullopt;
  }
  const int month = two_digits(s, 5), day = two_digits(s, 8), hour = two_digits(s, 11),
            minute = two_digits(s, 14), second = two_digits(s, 17);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  return out;
}

std::optional<std::string> parse_datetime_text(std::string_view text) {
  text = trim_xml_space(text);
  if (text.size() < 19 || text[10] != ' ') return parse_datetime(text);
  std::string iso(text);
  iso[10] = 'T';
  return parse_datetime(iso);
}

std::string datetime_to_xmlrpc(std::string_view c) {
  std::string out;
  out.reserve(17);
  out.append(c.substr(0, 4)).append(c.substr(5, 2)).append(c.substr(8, 2)).append(c.substr(10));
  return out;
}

void append_xsd_double(std::string& out, double d) {
  if (std::isnan(d)) {
    out += "NaN";
  } else if (std::isinf(d)) {
    out += d < 0 ? "-INF" : "INF";
  } else {
    append_double(out, d);
  }
}

}  // namespace sb::rpc
