// JsonWriter: the call sequence the JSON-RPC encoder writes through (codecs/json_encoder.h), and
// DirectJsonWriter, our own writer. The RapidJSON writer (parsers/writers.h) implements the same
// interface, so the protocol logic is written once.
#pragma once

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "codecs/canonical_json.h"

namespace sb::rpc {

// The calls a JSON encoder makes; the names mirror the JsonSink events (core/events.h).
// Errors are sticky: a call that cannot be honoured records the first reason and later calls are
// ignored, so encoders check once, at finish(). Keys and strings are data (any bytes offered).
class JsonWriter {
 public:
  virtual ~JsonWriter() = default;

  // Discards any partial document and error, so an encoder that stopped halfway can start again.
  virtual void reset() = 0;
  // Opens an object; key()/value pairs follow until end_object().
  virtual void start_object() = 0;
  // Writes a member name inside an object; the member's value comes next.
  virtual void key(std::string_view k) = 0;
  // Closes the innermost object.
  virtual void end_object() = 0;
  // Opens an array.
  virtual void start_array() = 0;
  // Closes the innermost array.
  virtual void end_array() = 0;
  // Writes a string value; fails on malformed UTF-8 (JSON text is Unicode).
  virtual void string_value(std::string_view s) = 0;
  // Writes an integer.
  virtual void int_value(std::int64_t i) = 0;
  // Writes a finite double so that it reads back as a double (a '.' or an exponent); NaN and the
  // infinities fail: JSON has no spelling for them.
  virtual void double_value(double d) = 0;
  // Writes true or false.
  virtual void bool_value(bool b) = 0;
  // Writes null.
  virtual void null_value() = 0;
  // Completes the document into out, replacing it; false when a call failed or containers are
  // still open (error() says why).
  virtual bool finish(std::string& out) = 0;
  // The first failure since reset(), empty when none.
  virtual std::string_view error() const = 0;
};

// Our writer: compact JSON appended to one buffer. Strings escape " \ and control characters (as
// canonical JSON does) and pass valid UTF-8 through raw; malformed UTF-8 is an error rather than
// invalid JSON. Doubles use append_double (Python repr: shortest round trip, always '.' or 'e').
// `final`, so encode_json instantiated for it dispatches statically.
class DirectJsonWriter final : public JsonWriter {
 public:
  void reset() override {
    out_.clear();
    comma_ = false;
    depth_ = 0;
    error_.clear();
  }

  void start_object() override {
    separate();
    out_ += '{';
    ++depth_;
  }
  void key(std::string_view k) override {
    separate();
    quote(k);
    out_ += ':';
    comma_ = false;
  }
  void end_object() override { close('}'); }
  void start_array() override {
    separate();
    out_ += '[';
    ++depth_;
  }
  void end_array() override { close(']'); }
  void string_value(std::string_view s) override {
    separate();
    quote(s);
    comma_ = true;
  }
  void int_value(std::int64_t i) override {
    separate();
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, i);
    out_.append(buf, r.ptr);
    comma_ = true;
  }
  void double_value(double d) override {
    if (!std::isfinite(d)) return fail("JSON cannot carry NaN or infinity");
    separate();
    append_double(out_, d);
    comma_ = true;
  }
  void bool_value(bool b) override {
    separate();
    out_ += b ? "true" : "false";
    comma_ = true;
  }
  void null_value() override {
    separate();
    out_ += "null";
    comma_ = true;
  }

  bool finish(std::string& out) override {
    if (error_.empty() && depth_ != 0) fail("finish() with containers still open");
    if (!error_.empty()) return false;
    out.swap(out_);  // hands the buffer over; the caller's old one is reused next time
    out_.clear();
    return true;
  }

  std::string_view error() const override { return error_; }

 private:
  // Writes the ',' owed to the previous value or member of the enclosing container.
  void separate() {
    if (comma_) out_ += ',';
    comma_ = false;
  }

  // Closes a container; the next sibling owes a comma.
  void close(char c) {
    if (depth_ == 0) return fail("unbalanced end of a JSON container");
    --depth_;
    out_ += c;
    comma_ = true;
  }

  // Length of the well-formed UTF-8 sequence starting at p (a byte >= 0x80), or 0.
  static std::size_t sequence_length(const unsigned char* p, const unsigned char* end) {
    const std::size_t avail = static_cast<std::size_t>(end - p);
    auto cont = [&](std::size_t i) { return i < avail && (p[i] & 0xC0) == 0x80; };
    const unsigned char c = p[0];
    if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
      if (!cont(1) || !cont(2)) return 0;
      if (c == 0xE0 && p[1] < 0xA0) return 0;  // overlong
      if (c == 0xED && p[1] > 0x9F) return 0;  // UTF-16 surrogate
      return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
      if (!cont(1) || !cont(2) || !cont(3)) return 0;
      if (c == 0xF0 && p[1] < 0x90) return 0;  // overlong
      if (c == 0xF4 && p[1] > 0x8F) return 0;  // above U+10FFFF
      return 4;
    }
    return 0;
  }

  // Appends s as a JSON string literal: validates UTF-8, then escapes like canonical JSON.
  void quote(std::string_view s) {
    const auto* begin = reinterpret_cast<const unsigned char*>(s.data());
    const auto* end = begin + s.size();
    bool plain = true;  // no byte needs an escape: append s in one piece
    for (const auto* p = begin; p < end;) {
      if (*p < 0x80) {
        if (*p < 0x20 || *p == '"' || *p == '\\') plain = false;
        ++p;
        continue;
      }
      const std::size_t n = sequence_length(p, end);
      if (n == 0) {
        return fail("invalid UTF-8 at byte " + std::to_string(p - begin) + " of a JSON string");
      }
      p += n;
    }
    if (plain) {
      out_ += '"';
      out_.append(s);
      out_ += '"';
    } else {
      append_json_string(out_, s);
    }
  }

  // Records the first error.
  void fail(std::string reason) {
    if (error_.empty()) error_ = std::move(reason);
  }

  std::string out_;     // the document so far
  bool comma_ = false;  // the next value or key must be preceded by ','
  int depth_ = 0;       // open containers
  std::string error_;   // first failure since reset()
};

}  // namespace sb::rpc
