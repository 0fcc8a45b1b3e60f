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

#include "core/events.h"
#include "core/format.h"

struct XXH3_state_s;  // <xxhash.h>, included by digest.cpp only

namespace sb {

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
  std::uint64_t hash = 0;          // XXH3 64 over the canonical event stream

  // The manifest's JSON form, e.g. {"elements":5,"attributes":4,"text_bytes":8,"hash":"…"}.
  std::string to_json() const;
  friend bool operator==(const Digest&, const Digest&) = default;
};

// XXH3 64-bit (seed 0) of a byte stream that arrives in small pieces. The pieces are gathered
// in a buffer and handed to XXH3 a chunk at a time: XXH3's own update costs tens of
// instructions per call, and most pieces here are a tag byte or a short name.
class StreamHash {
 public:
  StreamHash() = default;
  ~StreamHash();
  StreamHash(const StreamHash&) = delete;
  StreamHash& operator=(const StreamHash&) = delete;

  // One byte.
  void byte(std::uint8_t b) {
    if (used_ == kChunk) flush();
    buf_[used_++] = b;
  }
  // The bytes of s, then a 0 byte.
  void slice(std::string_view s) {
    if (s.size() >= kChunk - used_) return slice_slow(s);
    std::memcpy(buf_ + used_, s.data(), s.size());
    buf_[used_ + s.size()] = 0;
    used_ += s.size() + 1;
  }
  // `tag`, the bytes of s, then a 0 byte: the digest's usual event.
  void tagged(char tag, std::string_view s) {
    byte(static_cast<std::uint8_t>(tag));
    slice(s);
  }
  // `tag`, then v as 8 bytes little-endian.
  void tagged_u64(char tag, std::uint64_t v) {
    if (kChunk - used_ < 9) flush();
    buf_[used_] = static_cast<std::uint8_t>(tag);
    for (int i = 0; i < 8; ++i) buf_[used_ + 1 + i] = static_cast<std::uint8_t>(v >> (8 * i));
    used_ += 9;
  }
  // The hash of everything since reset() (hands the buffer to XXH3: not const, but repeatable).
  std::uint64_t value();
  // Starts a new stream (keeps XXH3's state allocated).
  void reset() {
    used_ = 0;
    streaming_ = false;
  }

 private:
  static constexpr std::size_t kChunk = 4096;  // bytes gathered per XXH3 update

  void flush();
  void slice_slow(std::string_view s);

  std::uint8_t buf_[kChunk];       // bytes not yet handed to XXH3
  std::size_t used_ = 0;           // bytes in buf_
  bool streaming_ = false;         // state_ holds earlier chunks (else buf_ is all of it)
  XXH3_state_s* state_ = nullptr;  // XXH3's streaming state, made on first need and kept
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

  StreamHash hash_;                   // running hash
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
    hash_.tagged_u64('I', static_cast<std::uint64_t>(i));
    return true;
  }
  bool double_value(double d) {
    ++counts_.numbers;
    std::uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    hash_.tagged_u64('D', bits);
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
    hash_.tagged(c, s);
    return true;
  }

  StreamHash hash_;  // running hash
  Digest counts_;    // counts so far
};

static_assert(XmlSink<XmlDigestBuilder>);
static_assert(JsonSink<JsonDigestBuilder>);

// Parses the manifest's JSON form of a digest (the inverse of to_json); nullopt if malformed.
std::optional<Digest> digest_from_fields(
    Format format, const std::vector<std::pair<std::string, std::uint64_t>>& counts,
    std::string_view hash_hex);

}  // namespace sb
