// The sink of the `parse` level: accepts every XML and JSON event and does nothing with it, so
// that only the library's own work is timed (SAX and pull adapters still receive the callbacks,
// like any user of their model).
#pragma once

#include <cstdint>
#include <string_view>

#include "core/events.h"

namespace sb {

// Accepts every event of both event interfaces (events.h); all members inline, no state.
struct NullSink {
  // XmlSink: accepts an element start.
  bool start_element(std::string_view, XmlAttributes) { return true; }
  // XmlSink: accepts text.
  bool text(std::string_view) { return true; }
  // XmlSink: accepts an element end.
  bool end_element(std::string_view) { return true; }
  // JsonSink: accepts an object start.
  bool start_object() { return true; }
  // JsonSink: accepts a key.
  bool key(std::string_view) { return true; }
  // JsonSink: accepts an object end.
  bool end_object() { return true; }
  // JsonSink: accepts an array start.
  bool start_array() { return true; }
  // JsonSink: accepts an array end.
  bool end_array() { return true; }
  // JsonSink: accepts a string.
  bool string_value(std::string_view) { return true; }
  // JsonSink: accepts an integer.
  bool int_value(std::int64_t) { return true; }
  // JsonSink: accepts a double.
  bool double_value(double) { return true; }
  // JsonSink: accepts a boolean.
  bool bool_value(bool) { return true; }
  // JsonSink: accepts a null.
  bool null_value() { return true; }
};
static_assert(XmlSink<NullSink> && JsonSink<NullSink>);

}  // namespace sb
