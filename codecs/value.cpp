#include "codecs/value.h"

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
  result = Value();
  fault_code = 0;
  fault_message.clear();
  batch.clear();
}

bool operator==(const Message& a, const Message& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case MessageKind::call:
      return a.method == b.method && a.params == b.params;
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
