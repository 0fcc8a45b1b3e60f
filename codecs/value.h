// The RPC value model (docs/service.md, canonical values): what every codec decodes to and encodes
// from.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sb::rpc {

enum class Kind : std::uint8_t {
  nil,
  boolean,
  integer,
  floating,
  string,
  datetime,
  base64,
  array,
  structure
};

// "nil", "boolean", "int", "double", "string", "dateTime", "base64", "array", "struct".
std::string_view kind_name(Kind k);

class Value {
 public:
  Value() = default;  // nil

  static Value boolean(bool b) { return Value(Kind::boolean, b ? 1 : 0); }
  static Value integer(std::int32_t i) { return Value(Kind::integer, i); }
  static Value floating(double d);
  static Value string(std::string s) { return Value(Kind::string, std::move(s)); }
  // dateTime in canonical form "YYYY-MM-DDThh:mm:ss[.f]" (callers validate: codecs/scalars.h).
  static Value datetime(std::string iso) { return Value(Kind::datetime, std::move(iso)); }
  // base64 holds the decoded bytes.
  static Value base64(std::string bytes) { return Value(Kind::base64, std::move(bytes)); }
  static Value array() { return Value(Kind::array, 0); }
  static Value structure() { return Value(Kind::structure, 0); }
  // A SOAP href placeholder (decoders only): nil until the XML decoder resolves it.
  static Value reference(std::string id) { return Value(Kind::nil, std::move(id)); }

  Kind kind() const { return kind_; }
  bool is_nil() const { return kind_ == Kind::nil; }
  bool is_reference() const { return kind_ == Kind::nil && !text_.empty(); }
  bool as_bool() const { return int_ != 0; }
  std::int32_t as_int() const { return static_cast<std::int32_t>(int_); }
  double as_double() const { return double_; }
  // The text of a string, the canonical text of a dateTime, the bytes of a base64 value.
  const std::string& text() const { return text_; }
  std::string& text() { return text_; }

  // Array elements, or struct member values (parallel to names()).
  const std::vector<Value>& items() const { return items_; }
  std::vector<Value>& items() { return items_; }
  // Struct member names in document order.
  const std::vector<std::string>& names() const { return names_; }
  std::vector<std::string>& names() { return names_; }

  // Appends an array element; returns it.
  Value& push(Value v) {
    items_.push_back(std::move(v));
    return items_.back();
  }
  // Appends a struct member; returns its value.
  Value& add_member(std::string name, Value v) {
    names_.push_back(std::move(name));
    items_.push_back(std::move(v));
    return items_.back();
  }
  // Appends a nil struct member to be filled in by the caller; returns it. Builds the name and
  // the value in place: decoders call this once per member.
  Value& add_member(std::string_view name) {
    names_.emplace_back(name);
    return items_.emplace_back();
  }
  // The member named `name`, or nullptr.
  const Value* member(std::string_view name) const;

  // Deep equality; doubles compare by bit pattern so -0.0 != 0.0 and NaN == NaN.
  friend bool operator==(const Value& a, const Value& b);

 private:
  Value(Kind k, std::int64_t i) : kind_(k), int_(i) {}
  Value(Kind k, std::string s) : kind_(k), text_(std::move(s)) {}

  Kind kind_ = Kind::nil;           // which alternative is held
  std::int64_t int_ = 0;            // boolean (0/1) or integer
  double double_ = 0.0;             // floating
  std::string text_;                // string, dateTime text, base64 bytes
  std::vector<Value> items_;        // array elements or struct member values
  std::vector<std::string> names_;  // struct member names
};

// The first name `names` holds twice (a struct's member names), or "": for decoders that refuse
// a struct naming a member twice.
std::string_view first_repeated_name(const std::vector<std::string>& names);

// batch: a JSON-RPC batch (an array of messages, in `batch`); only decoders asked for one make it.
enum class MessageKind : std::uint8_t { call, response, fault, batch };

// One decoded RPC message.
struct Message {
  MessageKind kind = MessageKind::call;  // call, response or fault
  std::string method;                    // operation name (call/response)
  std::vector<Value> params;             // call: the params in document order
  std::vector<std::string> param_names;  // call: their names when sent by name (a JSON-RPC
                                         // params object), else empty: positional
  Value result;                          // response: the result (nil for void)
  std::int32_t fault_code = 0;           // fault: code
  std::string fault_message;             // fault: message
  std::vector<Message> batch;            // batch: the messages, in order

  // Empties the message for reuse.
  void clear();
  friend bool operator==(const Message& a, const Message& b);
};

}  // namespace sb::rpc
