// Shared pieces of the Qt 6 adapters (qt6_stream.cpp, qt6_dom.cpp, qt6_json_dom.cpp): the
// run-time version and the UTF-16 -> UTF-8 conversion. Qt's strings are UTF-16, the sinks take
// UTF-8, so every name, value and text is converted (a cost the library imposes on a UTF-8
// consumer). None of these classes needs a QCoreApplication (no event loop, no plugins).
#pragma once

#include <QtCore/qglobal.h>
#include <QtCore/QStringConverter>
#include <QtCore/QStringView>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/events.h"

namespace sb::qt6 {

// "6.4.2": qVersion(), the library loaded at run time.
inline std::string version() { return qVersion(); }

// Converts UTF-16 to UTF-8 with one stateless QStringEncoder into caller-owned buffers that only
// grow, so the steady state allocates nothing.
class Utf8 {
 public:
  Utf8() : encoder_(QStringEncoder::Utf8, QStringEncoder::Flag::Stateless) {}

  // Appends the UTF-8 of s to out; returns the appended bytes' offset in out.
  std::size_t append(QStringView s, std::string& out) {
    const std::size_t start = out.size();
    out.resize(start + static_cast<std::size_t>(encoder_.requiredSpace(s.size())));
    char* end = encoder_.appendToBuffer(out.data() + start, s);
    out.resize(static_cast<std::size_t>(end - out.data()));
    return start;
  }

  // The UTF-8 of s written into scratch; valid until scratch is next written.
  std::string_view convert(QStringView s, std::string& scratch) {
    scratch.clear();
    append(s, scratch);
    return scratch;
  }

 private:
  QStringEncoder encoder_;  // UTF-16 -> UTF-8, no state carried between calls
};

// One element's attributes in UTF-8: every name and value appended to one arena, the views made
// once the element is complete (the arena may move while it grows).
class AttributeScratch {
 public:
  // Forgets the previous element's attributes (keeps the capacity).
  void clear() {
    arena_.clear();
    bounds_.clear();
  }
  // Adds one attribute, converting its qualified name and value.
  void add(Utf8& utf8, QStringView qname, QStringView value) {
    const std::size_t name_at = utf8.append(qname, arena_);
    const std::size_t value_at = utf8.append(value, arena_);
    bounds_.push_back({name_at, value_at, arena_.size()});
  }
  // Views of the attributes added since clear(); valid until the next clear()/add().
  XmlAttributes views() {
    views_.clear();
    for (const Bounds& b : bounds_) {
      views_.push_back({std::string_view(arena_).substr(b.name, b.value - b.name),
                        std::string_view(arena_).substr(b.value, b.end - b.value)});
    }
    return views_;
  }

 private:
  // Where one attribute's name and value lie in the arena.
  struct Bounds {
    std::size_t name;   // name's offset
    std::size_t value;  // value's offset (= end of the name)
    std::size_t end;    // end of the value
  };

  std::string arena_;                // UTF-8 of every name and value, back to back
  std::vector<Bounds> bounds_;       // one per attribute
  std::vector<XmlAttribute> views_;  // the views handed to the sink
};

}  // namespace sb::qt6
