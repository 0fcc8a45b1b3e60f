// The members' keys of every JSON object of a message in document order, and how its numbers
// were written, read from its bytes:
// for a library that does not keep that order (Qt 6's QJsonObject sorts its keys and keeps only
// the last of a duplicate key), so that its decode level can deliver members as sent. The order
// is part of the canonical JSON of every object the contract does not type (params by name, the
// results of methods it does not know: docs/service.md), so without it such a library would
// answer wrong. Used by qt6_json_dom.cpp's decode level only; its walk keeps Qt's order (the
// adapter is digest-exempt).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sb {

class JsonKeyOrder {
 public:
  // Reads `json`; false where its strings or structure cannot be read (an escape JSON does not
  // have, a truncated message): the library then reports the message, or its caller refuses it.
  bool read(std::string_view json);

  // Objects in document order (the order a pre-order walk opens them), and each one's keys as
  // sent, unescaped (UTF-8).
  std::size_t objects() const { return object_first_.size(); }
  std::span<const std::string_view> keys(std::size_t object) const {
    return std::span<const std::string_view>(ordered_).subspan(object_first_[object],
                                                               object_count_[object]);
  }
  // Numbers in document order: whether number `n` was written with a fraction or an exponent
  // (a double, though its value be integral: 2.0), and whether with a minus sign (-0.0).
  bool written_as_double(std::size_t n) const { return n < numbers_.size() && numbers_[n] & 1; }
  bool written_negative(std::size_t n) const { return n < numbers_.size() && numbers_[n] & 2; }

 private:
  // A key: the object it belongs to, and its text.
  struct Key {
    std::uint32_t object;
    std::string_view text;
  };

  // The string starting at json[at] ('"'), unescaped where it holds escapes (then kept in
  // unescaped_); false on an escape JSON does not have. `at` moves past the closing quote.
  bool read_key(std::string_view json, std::size_t& at, std::string_view& out);

  std::vector<Key> keys_;                    // every key, document order
  std::vector<std::uint32_t> object_first_;  // per object: its first key in ordered_
  std::vector<std::uint32_t> object_count_;  // per object: its number of keys
  std::vector<std::string_view> ordered_;    // keys_ grouped by object, in order within each
  std::deque<std::string> unescaped_;        // keys that held escapes, decoded
  std::vector<std::uint8_t> numbers_;        // per number: 1 written as a double, 2 negative
};

}  // namespace sb
