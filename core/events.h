// The event interface between parsers and their consumers (digest, protocol codecs).
// Dispatch is static: adapters are templates over the sink type, so no virtual call per event.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sb {

// One attribute as written: qualified name and value after entity decoding.
struct XmlAttribute {
  std::string_view qname;  // "prefix:local" or "local"; xmlns declarations included as written
  std::string_view value;  // decoded value
};
using XmlAttributes = std::span<const XmlAttribute>;

// An XML event sink. Contract for adapters:
// - start_element gets every attribute, namespace declarations (xmlns, xmlns:p) included;
// - text may arrive in several pieces (CDATA, references and chunks are not pre-merged) and
//   may be whitespace only; comments and processing instructions are not reported;
// - every call returns false to stop the parse: the adapter then returns Status::stopped().
template <class S>
concept XmlSink = requires(S& s, std::string_view v, XmlAttributes a) {
  { s.start_element(v, a) } -> std::same_as<bool>;
  { s.text(v) } -> std::same_as<bool>;
  { s.end_element(v) } -> std::same_as<bool>;
};

// A JSON event sink. Numbers written without fraction or exponent that fit int64 arrive as
// int_value; every other number (fraction, exponent, or out of int64 range) as double_value.
// Strings and keys arrive unescaped, each in one piece. Returning false stops the parse.
template <class S>
concept JsonSink = requires(S& s, std::string_view v, std::int64_t i, double d, bool b) {
  { s.start_object() } -> std::same_as<bool>;
  { s.key(v) } -> std::same_as<bool>;
  { s.end_object() } -> std::same_as<bool>;
  { s.start_array() } -> std::same_as<bool>;
  { s.end_array() } -> std::same_as<bool>;
  { s.string_value(v) } -> std::same_as<bool>;
  { s.int_value(i) } -> std::same_as<bool>;
  { s.double_value(d) } -> std::same_as<bool>;
  { s.bool_value(b) } -> std::same_as<bool>;
  { s.null_value() } -> std::same_as<bool>;
};

}  // namespace sb
