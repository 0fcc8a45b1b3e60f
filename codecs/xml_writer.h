// XmlWriter: the streaming call sequence every XML encoder writes through (codecs/xml_encoder.h),
// and DirectXmlWriter, our own escaping writer. Library writers (parsers/writers.h) implement the
// same interface with their library's serializer, so the protocol logic is written once.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sb::rpc {

// Where a string holds something XML 1.0 cannot carry: malformed UTF-8, a control character other
// than tab/LF/CR, or U+FFFE/U+FFFF. Writers check before writing, because an escaping serializer
// would otherwise emit a document every conforming parser rejects (or, for &#1;, one that is not
// well-formed at all). Returns the byte offset of the first bad character, or npos.
inline std::size_t find_xml_unsafe(std::string_view s);

// "invalid UTF-8 at byte 3" / "U+0001 at byte 3 cannot be carried by XML 1.0": the reason writers
// report for find_xml_unsafe's offset, so every writer says the same thing.
inline std::string describe_xml_unsafe(std::string_view s, std::size_t offset);

namespace xml_detail {

// What a byte needs: copied as is, an entity, refused, or a UTF-8 lead byte to validate.
enum : std::uint8_t { kPlain, kEscape, kForbidden, kMultibyte };
using ClassTable = std::array<std::uint8_t, 256>;

// Byte classes for character data (attribute = false) and for attribute values.
constexpr ClassTable make_table(bool attribute) {
  ClassTable t{};
  for (int c = 0; c < 256; ++c) {
    if (c >= 0x80) {
      t[c] = kMultibyte;
    } else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      t[c] = kForbidden;
    } else if (c == '&' || c == '<' || c == '\r') {
      t[c] = kEscape;
    } else if (attribute ? (c == '"' || c == '\t' || c == '\n') : c == '>') {
      t[c] = kEscape;
    } else {
      t[c] = kPlain;
    }
  }
  return t;
}
inline constexpr ClassTable kTextClass = make_table(false);
inline constexpr ClassTable kAttributeClass = make_table(true);

// Length of the well-formed UTF-8 sequence XML may carry starting at p (a byte >= 0x80), or 0.
inline std::size_t sequence_length(const unsigned char* p, const unsigned char* end) {
  const std::size_t avail = static_cast<std::size_t>(end - p);
  auto cont = [&](std::size_t i) { return i < avail && (p[i] & 0xC0) == 0x80; };
  const unsigned char c = p[0];
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    if (c == 0xE0 && p[1] < 0xA0) return 0;                   // overlong
    if (c == 0xED && p[1] > 0x9F) return 0;                   // UTF-16 surrogate
    if (c == 0xEF && p[1] == 0xBF && p[2] >= 0xBE) return 0;  // U+FFFE, U+FFFF
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if (c == 0xF0 && p[1] < 0x90) return 0;  // overlong
    if (c == 0xF4 && p[1] > 0x8F) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;  // continuation byte, C0/C1 overlong lead, or F5..FF
}

}  // namespace xml_detail

// The calls an XML encoder makes. Errors are sticky: a call that cannot be honoured records the
// first reason and later calls are ignored, so encoders check once, at finish(). Names (qname) are
// trusted: encoders pass constants and contract names; text and attribute values are data.
class XmlWriter {
 public:
  virtual ~XmlWriter() = default;

  // Discards any partial document and error, so an encoder that stopped halfway can start again.
  virtual void reset() = 0;
  // Opens an element; attribute() calls for it follow before any text or child.
  virtual void start_element(std::string_view qname) = 0;
  // Adds an attribute (xmlns declarations included) to the element just opened.
  virtual void attribute(std::string_view qname, std::string_view value) = 0;
  // Appends character data, escaped as needed; may be called several times per element.
  virtual void text(std::string_view chars) = 0;
  // Closes the innermost open element.
  virtual void end_element() = 0;
  // Completes the document (XML declaration + root) into out, replacing it; false when a call
  // failed or elements are still open (error() says why). The writer is then ready for reset().
  virtual bool finish(std::string& out) = 0;
  // The first failure since reset(), empty when none.
  virtual std::string_view error() const = 0;
};

// Our streaming writer: appends straight into one growing buffer, no tree, no per-call allocation
// once the buffers are warm. Text escapes & < > (so "]]>" cannot appear) and CR as &#13; (a raw CR
// would be read back as LF); attribute values escape & < " and tab/LF/CR as character references
// (attribute-value normalization would turn them into spaces). `final`, so encode_xml instantiated
// for it calls every member directly, without a virtual dispatch per event.
class DirectXmlWriter final : public XmlWriter {
 public:
  DirectXmlWriter() { reset(); }

  void reset() override {
    out_.assign(kDeclaration);
    names_.clear();
    starts_.clear();
    open_tag_ = false;
    error_.clear();
  }

  void start_element(std::string_view qname) override {
    if (open_tag_) out_ += '>';
    out_ += '<';
    out_.append(qname);
    starts_.push_back(names_.size());
    names_.append(qname);
    open_tag_ = true;
  }

  void attribute(std::string_view qname, std::string_view value) override {
    if (!open_tag_) return fail("attribute() outside a start tag");
    out_ += ' ';
    out_.append(qname);
    out_ += "=\"";
    escape(value, xml_detail::kAttributeClass);
    out_ += '"';
  }

  void text(std::string_view chars) override {
    if (chars.empty()) return;  // keeps an empty element self-closing: <string/>
    if (open_tag_) {
      out_ += '>';
      open_tag_ = false;
    }
    escape(chars, xml_detail::kTextClass);
  }

  void end_element() override {
    if (starts_.empty()) return fail("end_element() without an open element");
    const std::size_t start = starts_.back();
    starts_.pop_back();
    if (open_tag_) {
      out_ += "/>";
      open_tag_ = false;
    } else {
      out_ += "</";
      out_.append(names_, start, std::string::npos);
      out_ += '>';
    }
    names_.resize(start);
  }

  bool finish(std::string& out) override {
    if (error_.empty() && !starts_.empty()) fail("finish() with elements still open");
    if (!error_.empty()) return false;
    out.swap(out_);  // hands the buffer over; the caller's old one is reused by the next reset()
    out_.clear();
    return true;
  }

  std::string_view error() const override { return error_; }

 private:
  // Every document starts with it; UTF-8 is the only encoding the service uses.
  static constexpr std::string_view kDeclaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";

  // The reference written for a byte classed kEscape.
  static std::string_view entity(unsigned char c) {
    switch (c) {
      case '&':
        return "&amp;";
      case '<':
        return "&lt;";
      case '>':
        return "&gt;";
      case '"':
        return "&quot;";
      case '\t':
        return "&#9;";
      case '\n':
        return "&#10;";
      default:
        return "&#13;";
    }
  }

  // Appends s escaped per table; runs of plain bytes are copied in one append.
  void escape(std::string_view s, const xml_detail::ClassTable& table) {
    if (!error_.empty()) return;
    const auto* begin = reinterpret_cast<const unsigned char*>(s.data());
    const auto* end = begin + s.size();
    const auto* run = begin;
    const auto* p = begin;
    while (p < end) {
      const std::uint8_t k = table[*p];
      if (k == xml_detail::kPlain) {
        ++p;
      } else if (k == xml_detail::kMultibyte) {
        const std::size_t n = xml_detail::sequence_length(p, end);
        if (n == 0) break;
        p += n;
      } else if (k == xml_detail::kEscape) {
        out_.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p - run));
        out_.append(entity(*p));
        run = ++p;
      } else {
        break;
      }
    }
    if (p < end) return fail(describe_xml_unsafe(s, static_cast<std::size_t>(p - begin)));
    out_.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p - run));
  }

  // Records the first error.
  void fail(std::string reason) {
    if (error_.empty()) error_ = std::move(reason);
  }

  std::string out_;                  // the document so far
  std::string names_;                // qnames of the open elements, concatenated
  std::vector<std::size_t> starts_;  // where each open element's qname starts in names_
  bool open_tag_ = false;            // a start tag awaits its '>' (attributes may follow)
  std::string error_;                // first failure since reset()
};

inline std::size_t find_xml_unsafe(std::string_view s) {
  const auto* begin = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = begin + s.size();
  for (const auto* p = begin; p < end;) {
    const std::uint8_t k = xml_detail::kTextClass[*p];
    if (k == xml_detail::kForbidden) return static_cast<std::size_t>(p - begin);
    if (k == xml_detail::kMultibyte) {
      const std::size_t n = xml_detail::sequence_length(p, end);
      if (n == 0) return static_cast<std::size_t>(p - begin);
      p += n;
    } else {
      ++p;
    }
  }
  return std::string_view::npos;
}

inline std::string describe_xml_unsafe(std::string_view s, std::size_t offset) {
  const auto c = static_cast<unsigned char>(s[offset]);
  const std::string at = " at byte " + std::to_string(offset);
  if (c < 0x20) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    return std::string("control character U+00") + kHex[c >> 4] + kHex[c & 15] + at +
           " cannot be carried by XML 1.0";
  }
  if (c == 0xEF && offset + 2 < s.size() && static_cast<unsigned char>(s[offset + 1]) == 0xBF &&
      static_cast<unsigned char>(s[offset + 2]) >= 0xBE) {
    return std::string(static_cast<unsigned char>(s[offset + 2]) == 0xBE ? "U+FFFE" : "U+FFFF") +
           at + " cannot be carried by XML 1.0";
  }
  return "invalid UTF-8" + at;
}

}  // namespace sb::rpc
