#include "codecs/scalars.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "codecs/canonical_json.h"

namespace sb::rpc {

namespace {

bool is_xml_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

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
