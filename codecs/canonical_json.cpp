#include "codecs/canonical_json.h"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "codecs/base64.h"

namespace sb::rpc {

void append_double(std::string& out, double d) {
  if (std::isnan(d)) {
    out += "NaN";
    return;
  }
  if (std::isinf(d)) {
    out += d < 0 ? "-Infinity" : "Infinity";
    return;
  }
  // Shortest round-trip digits in scientific form: [-]d[.ddd]e±XX. No heap: this runs once per
  // double on every encode.
  char sci[32];
  auto [sci_end, ec] = std::to_chars(sci, sci + sizeof sci, d, std::chars_format::scientific);
  (void)ec;  // 32 bytes always suffice for a double
  const char* p = sci;
  const bool negative = *p == '-';
  if (negative) ++p;
  char digits[20];
  int n = 0;
  for (; p != sci_end && *p != 'e'; ++p) {
    if (*p != '.') digits[n++] = *p;
  }
  int exponent = 0;
  std::from_chars(p + 1 + (p[1] == '+' ? 1 : 0), sci_end, exponent);
  const int decpt = exponent + 1;  // digits are 0.d1d2… × 10^decpt
  char buf[48];
  char* o = buf;
  if (negative) *o++ = '-';
  if (decpt > -4 && decpt <= 16) {  // CPython float_repr_style 'short', mode 'r'
    if (decpt <= 0) {
      *o++ = '0';
      *o++ = '.';
      for (int i = 0; i < -decpt; ++i) *o++ = '0';
      for (int i = 0; i < n; ++i) *o++ = digits[i];
    } else if (decpt >= n) {
      for (int i = 0; i < n; ++i) *o++ = digits[i];
      for (int i = n; i < decpt; ++i) *o++ = '0';
      *o++ = '.';
      *o++ = '0';
    } else {
      for (int i = 0; i < decpt; ++i) *o++ = digits[i];
      *o++ = '.';
      for (int i = decpt; i < n; ++i) *o++ = digits[i];
    }
  } else {
    *o++ = digits[0];
    if (n > 1) {
      *o++ = '.';
      for (int i = 1; i < n; ++i) *o++ = digits[i];
    }
    const int e = decpt - 1;
    *o++ = 'e';
    *o++ = e < 0 ? '-' : '+';
    const int a = e < 0 ? -e : e;
    if (a < 10) *o++ = '0';
    o = std::to_chars(o, buf + sizeof buf, a).ptr;
  }
  out.append(buf, static_cast<std::size_t>(o - buf));
}

std::string format_double(double d) {
  std::string s;
  append_double(s, d);
  return s;
}

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char esc[8];
          std::snprintf(esc, sizeof esc, "\\u%04x", static_cast<unsigned>(c));
          out += esc;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void append_canonical_json(std::string& out, const Value& v) {
  switch (v.kind()) {
    case Kind::nil:
      out += "null";
      break;
    case Kind::boolean:
      out += v.as_bool() ? "true" : "false";
      break;
    case Kind::integer:
      out += std::to_string(v.as_int());
      break;
    case Kind::floating:
      append_double(out, v.as_double());
      break;
    case Kind::string:
      append_json_string(out, v.text());
      break;
    case Kind::datetime:
      out += "{\"$dateTime\":";
      append_json_string(out, v.text());
      out += '}';
      break;
    case Kind::base64:
      out += "{\"$base64\":\"";
      out += base64_encode(v.text());
      out += "\"}";
      break;
    case Kind::array: {
      out += '[';
      bool first = true;
      for (const Value& item : v.items()) {
        if (!first) out += ',';
        first = false;
        append_canonical_json(out, item);
      }
      out += ']';
      break;
    }
    case Kind::structure: {
      out += '{';
      for (std::size_t i = 0; i < v.items().size(); ++i) {
        if (i > 0) out += ',';
        append_json_string(out, v.names()[i]);
        out += ':';
        append_canonical_json(out, v.items()[i]);
      }
      out += '}';
      break;
    }
  }
}

std::string to_canonical_json(const Message& m) {
  std::string out;
  switch (m.kind) {
    case MessageKind::call:
      out += "{\"kind\":\"call\",\"method\":";
      append_json_string(out, m.method);
      // By name, as sent: an object in document order (docs/service.md).
      out += m.param_names.empty() ? ",\"params\":[" : ",\"params\":{";
      for (std::size_t i = 0; i < m.params.size(); ++i) {
        if (i > 0) out += ',';
        if (!m.param_names.empty()) {
          append_json_string(out, m.param_names[i]);
          out += ':';
        }
        append_canonical_json(out, m.params[i]);
      }
      out += m.param_names.empty() ? "]}" : "}}";
      break;
    case MessageKind::response:
      out += "{\"kind\":\"response\",\"method\":";
      append_json_string(out, m.method);
      out += ",\"result\":";
      append_canonical_json(out, m.result);
      out += '}';
      break;
    case MessageKind::fault:
      out += "{\"kind\":\"fault\",\"code\":" + std::to_string(m.fault_code) + ",\"message\":";
      append_json_string(out, m.fault_message);
      out += '}';
      break;
    case MessageKind::batch:
      out += "{\"kind\":\"batch\",\"messages\":[";
      for (std::size_t i = 0; i < m.batch.size(); ++i) {
        if (i > 0) out += ',';
        out += to_canonical_json(m.batch[i]);
      }
      out += "]}";
      break;
  }
  return out;
}

}  // namespace sb::rpc
