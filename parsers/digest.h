// Digest: the proof of equal work. Every adapter's walk must reproduce the manifest's digest.
// Byte-level definition: docs/corpus.md ("The Digest").
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/events.h"

namespace sb {

enum class Format { xml, json };

// "xml" / "json".
std::string_view format_name(Format f);

struct Digest {
  Format format = Format::xml;
  // XML counts
  std::uint64_t elements = 0;    // start tags
  std::uint64_t attributes = 0;  // attributes, xmlns declarations excluded
  std::uint64_t text_bytes = 0;  // bytes of kept (non-whitespace-only) text runs
  // JSON counts
  std::uint64_t objects = 0;       // '{'
  std::uint64_t arrays = 0;        // '['
  std::uint64_t keys = 0;          // object keys
  std::uint64_t strings = 0;       // string values (keys excluded)
  std::uint64_t numbers = 0;       // numbers
  std::uint64_t string_bytes = 0;  // unescaped bytes of keys and string values
  std::uint64_t hash = 0;          // FNV-1a 64 over the canonical event stream

  // The manifest's JSON form, e.g. {"elements":5,"attributes":4,"text_bytes":8,"hash":"…"}.
  std::string to_json() const;
  friend bool operator==(const Digest&, const Digest&) = default;
};

// FNV-1a, 64 bit.
class Fnv1a {
 public:
  void byte(std::uint8_t b) { h_ = (h_ ^ b) * 0x100000001b3ULL; }
  void bytes(std::string_view s) {
    for (unsigned char c : s) byte(c);
  }
  // 8 bytes little-endian.
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) byte(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  std::uint64_t value() const { return h_; }
  void reset() { h_ = 0xcbf29ce484222325ULL; }

 private:
  std::uint64_t h_ = 0xcbf29ce484222325ULL;  // running hash
};

// Builds an XML Digest from events; coalesces text pieces and drops whitespace-only runs.
// Reusable: reset() keeps the scratch buffers' capacity.
class XmlDigestBuilder {
 public:
  void reset();
  bool start_element(std::string_view qname, XmlAttributes attributes);
  bool text(std::string_view chars) {
    if (depth_ > 0) pending_.append(chars);
    return true;
  }
  bool end_element(std::string_view qname);
  // The digest of everything seen since reset().
  Digest finish();

 private:
  void flush_text();

  Fnv1a hash_;                        // running hash
  Digest counts_;                     // counts so far
  std::string pending_;               // text since the last tag (coalesced)
  std::vector<XmlAttribute> sorted_;  // scratch: attributes sorted by qname
  std::size_t depth_ = 0;             // open elements
};

// Builds a JSON Digest from events.
class JsonDigestBuilder {
 public:
  void reset();
  bool start_object() { return tag('{', counts_.objects); }
  bool end_object() { return mark('}'); }
  bool start_array() { return tag('[', counts_.arrays); }
  bool end_array() { return mark(']'); }
  bool key(std::string_view k) {
    ++counts_.keys;
    return str('K', k);
  }
  bool string_value(std::string_view s) {
    ++counts_.strings;
    return str('S', s);
  }
  bool int_value(std::int64_t i) {
    ++counts_.numbers;
    hash_.byte('I');
    hash_.u64(static_cast<std::uint64_t>(i));
    return true;
  }
  bool double_value(double d) {
    ++counts_.numbers;
    std::uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    hash_.byte('D');
    hash_.u64(bits);
    return true;
  }
  bool bool_value(bool b) { return mark(b ? 't' : 'f'); }
  bool null_value() { return mark('n'); }
  // The digest of everything seen since reset().
  Digest finish();

 private:
  bool mark(char c) {
    hash_.byte(static_cast<std::uint8_t>(c));
    return true;
  }
  bool tag(char c, std::uint64_t& count) {
    ++count;
    return mark(c);
  }
  bool str(char c, std::string_view s) {
    counts_.string_bytes += s.size();
    hash_.byte(static_cast<std::uint8_t>(c));
    hash_.bytes(s);
    hash_.byte(0);
    return true;
  }

  Fnv1a hash_;     // running hash
  Digest counts_;  // counts so far
};

static_assert(XmlSink<XmlDigestBuilder>);
static_assert(JsonSink<JsonDigestBuilder>);

// Parses the manifest's JSON form of a digest (the inverse of to_json); nullopt if malformed.
std::optional<Digest> digest_from_fields(
    Format format, const std::vector<std::pair<std::string, std::uint64_t>>& counts,
    std::string_view hash_hex);

}  // namespace sb
