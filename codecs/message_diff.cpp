#include "codecs/message_diff.h"

#include <algorithm>
#include <string_view>

#include "codecs/canonical_json.h"

namespace sb::rpc {

namespace {

std::string shown(const Value& v) {
  std::string s;
  append_canonical_json(s, v);
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

std::string quoted(std::string_view s) {
  std::string out;
  append_json_string(out, s.size() > 60 ? std::string(s.substr(0, 57)) + "..." : std::string(s));
  return out;
}

// The path and values of the first difference of `a` from `b` under `path`, or "".
std::string diff(const Value& a, const Value& b, const std::string& path) {
  if (a == b) return "";
  const bool containers =
      a.kind() == b.kind() && (a.kind() == Kind::array || a.kind() == Kind::structure);
  if (containers) {
    const bool structure = a.kind() == Kind::structure;
    const std::size_t n = std::min(a.items().size(), b.items().size());
    for (std::size_t i = 0; i < n; ++i) {
      if (structure && a.names()[i] != b.names()[i]) {
        return path + " member " + std::to_string(i + 1) + " is " + quoted(a.names()[i]) +
               ", not " + quoted(b.names()[i]);
      }
      const std::string at =
          structure ? path + "." + a.names()[i] : path + "[" + std::to_string(i) + "]";
      if (std::string d = diff(a.items()[i], b.items()[i], at); !d.empty()) return d;
    }
    return path + " has " + std::to_string(a.items().size()) + (structure ? " members" : " items") +
           ", not " + std::to_string(b.items().size());
  }
  return path + " is " + shown(a) + ", not " + shown(b);
}

std::string_view kind_word(MessageKind k) {
  switch (k) {
    case MessageKind::call:
      return "a call";
    case MessageKind::response:
      return "a response";
    case MessageKind::fault:
      return "a fault";
    case MessageKind::batch:
      return "a batch";
  }
  return "?";
}

// As a Value, so that positional and named params compare alike: an array or a struct.
Value params_value(const Message& m) {
  Value v = m.param_names.empty() ? Value::array() : Value::structure();
  for (std::size_t i = 0; i < m.params.size(); ++i) {
    if (m.param_names.empty()) {
      v.push(m.params[i]);
    } else {
      v.add_member(m.param_names[i], m.params[i]);
    }
  }
  return v;
}

std::string message_diff(const Message& got, const Message& want) {
  if (got.kind != want.kind) {
    return "it is " + std::string(kind_word(got.kind)) + ", not " +
           std::string(kind_word(want.kind));
  }
  switch (got.kind) {
    case MessageKind::call:
      if (got.method != want.method) {
        return "method is " + quoted(got.method) + ", not " + quoted(want.method);
      }
      return diff(params_value(got), params_value(want), "params");
    case MessageKind::response:
      return diff(got.result, want.result, "result");
    case MessageKind::fault:
      if (got.fault_code != want.fault_code) {
        return "fault code is " + std::to_string(got.fault_code) + ", not " +
               std::to_string(want.fault_code);
      }
      return got.fault_message == want.fault_message
                 ? ""
                 : "fault message is " + quoted(got.fault_message) + ", not " +
                       quoted(want.fault_message);
    case MessageKind::batch:
      for (std::size_t i = 0; i < std::min(got.batch.size(), want.batch.size()); ++i) {
        if (std::string d = message_diff(got.batch[i], want.batch[i]); !d.empty()) {
          return "batch message " + std::to_string(i + 1) + ": " + d;
        }
      }
      return got.batch.size() == want.batch.size()
                 ? ""
                 : "it has " + std::to_string(got.batch.size()) + " batch messages, not " +
                       std::to_string(want.batch.size());
  }
  return "";
}

}  // namespace

std::string first_difference(const Message& got, const Message& want,
                             const std::string& reference) {
  std::string d = message_diff(got, want);
  if (d.empty() && got.method != want.method) {
    d = "method is " + quoted(got.method) + ", not " + quoted(want.method);
  }
  return d.empty() ? d : d + " " + reference;
}

}  // namespace sb::rpc
