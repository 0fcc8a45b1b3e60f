#include "codecs/value.h"

#include <algorithm>
#include <cstring>

namespace sb::rpc {

std::string_view kind_name(Kind k) {
  switch (k) {
    case Kind::nil:
      return "nil";
    case Kind::boolean:
      return "boolean";
    case Kind::integer:
      return "int";
    case Kind::floating:
      return "double";
    case Kind::string:
      return "string";
    case Kind::datetime:
      return "dateTime";
    case Kind::base64:
      return "base64";
    case Kind::array:
      return "array";
    case Kind::structure:
      return "struct";
  }
  return "?";
}

Value Value::floating(double d) {
  Value v;
  v.kind_ = Kind::floating;
  v.double_ = d;
  return v;
}

const Value* Value::member(std::string_view name) const {
  for (std::size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == name) return &items_[i];
  }
  return nullptr;
}

bool operator==(const Value& a, const Value& b) {
  if (a.kind_ != b.kind_) return false;
  switch (a.kind_) {
    case Kind::nil:
      return true;
    case Kind::boolean:
    case Kind::integer:
      return a.int_ == b.int_;
    case Kind::floating:
      return std::memcmp(&a.double_, &b.double_, sizeof(double)) == 0;
    case Kind::string:
    case Kind::datetime:
    case Kind::base64:
      return a.text_ == b.text_;
    case Kind::array:
      return a.items_ == b.items_;
    case Kind::structure:
      return a.names_ == b.names_ && a.items_ == b.items_;
  }
  return false;
}

void Message::clear() {
  kind = MessageKind::call;
  method.clear();
  params.clear();
  param_names.clear();
  result = Value();
  fault_code = 0;
  fault_message.clear();
  batch.clear();
}

// Sorted copies beyond a few members: a message may hold thousands.
std::string_view first_repeated_name(const std::vector<std::string>& names) {
  if (names.size() <= 8) {
    for (std::size_t i = 1; i < names.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (names[i] == names[j]) return names[i];
      }
    }
    return {};
  }
  std::vector<std::string_view> sorted(names.begin(), names.end());
  std::sort(sorted.begin(), sorted.end());
  const auto it = std::adjacent_find(sorted.begin(), sorted.end());
  return it == sorted.end() ? std::string_view() : *it;
}

bool operator==(const Message& a, const Message& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case MessageKind::call:
      return a.method == b.method && a.params == b.params && a.param_names == b.param_names;
    case MessageKind::response:
      return a.method == b.method && a.result == b.result;
    case MessageKind::fault:
      return a.fault_code == b.fault_code && a.fault_message == b.fault_message;
    case MessageKind::batch:
      return a.batch == b.batch;
  }
  return false;
}

}  // namespace sb::rpc
