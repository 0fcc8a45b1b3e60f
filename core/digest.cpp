#include "core/digest.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <new>

#define XXH_STATIC_LINKING_ONLY  // XXH3_state_t's layout, for XXH3_64bits_reset
#include <xxhash.h>

namespace sb {

namespace {

bool is_xml_space_only(std::string_view s) {
  for (char c : s) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return false;
  }
  return true;
}

bool is_namespace_declaration(std::string_view qname) {
  return qname == "xmlns" || qname.starts_with("xmlns:");
}

std::string hex16(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
  return buf;
}

}  // namespace

StreamHash::~StreamHash() { XXH3_freeState(state_); }

void StreamHash::flush() {
  if (!streaming_) {
    if (state_ == nullptr) state_ = XXH3_createState();
    if (state_ == nullptr) throw std::bad_alloc();
    XXH3_64bits_reset(state_);
    streaming_ = true;
  }
  XXH3_64bits_update(state_, buf_, used_);
  used_ = 0;
}

void StreamHash::slice_slow(std::string_view s) {
  while (!s.empty()) {
    if (used_ == kChunk) flush();
    const std::size_t n = std::min(s.size(), kChunk - used_);
    std::memcpy(buf_ + used_, s.data(), n);
    used_ += n;
    s.remove_prefix(n);
  }
  byte(0);
}

std::uint64_t StreamHash::value() {
  if (!streaming_) return XXH3_64bits(buf_, used_);
  flush();
  return XXH3_64bits_digest(state_);
}

std::string Digest::to_json() const {
  auto field = [](const char* name, std::uint64_t v) {
    return std::string("\"") + name + "\":" + std::to_string(v) + ",";
  };
  std::string out = "{";
  if (format == Format::xml) {
    out += field("elements", elements) + field("attributes", attributes) +
           field("text_bytes", text_bytes);
  } else {
    out += field("objects", objects) + field("arrays", arrays) + field("keys", keys) +
           field("strings", strings) + field("numbers", numbers) +
           field("string_bytes", string_bytes);
  }
  return out + "\"hash\":\"" + hex16(hash) + "\"}";
}

void XmlDigestBuilder::reset() {
  hash_.reset();
  counts_ = Digest{};
  counts_.format = Format::xml;
  pending_.clear();
  depth_ = 0;
}

void XmlDigestBuilder::flush_text() {
  if (pending_.empty()) return;
  if (!is_xml_space_only(pending_)) {
    counts_.text_bytes += pending_.size();
    hash_.tagged('T', pending_);
  }
  pending_.clear();
}

bool XmlDigestBuilder::start_element(std::string_view qname, XmlAttributes attributes) {
  flush_text();
  ++depth_;
  ++counts_.elements;
  hash_.tagged('S', qname);
  sorted_.clear();
  for (const XmlAttribute& a : attributes) {
    if (!is_namespace_declaration(a.qname)) sorted_.push_back(a);
  }
  // Usually a few attributes per element: insertion sort beats std::sort's set-up there, but it
  // is quadratic, and a hostile element carries 100,000.
  if (sorted_.size() > 16) {
    std::sort(sorted_.begin(), sorted_.end(),
              [](const XmlAttribute& a, const XmlAttribute& b) { return a.qname < b.qname; });
  } else {
    for (std::size_t i = 1; i < sorted_.size(); ++i) {
      for (std::size_t j = i; j > 0 && sorted_[j].qname < sorted_[j - 1].qname; --j) {
        std::swap(sorted_[j], sorted_[j - 1]);
      }
    }
  }
  counts_.attributes += sorted_.size();
  for (const XmlAttribute& a : sorted_) {
    hash_.tagged('A', a.qname);
    hash_.slice(a.value);
  }
  return true;
}

bool XmlDigestBuilder::end_element(std::string_view qname) {
  flush_text();
  if (depth_ > 0) --depth_;
  hash_.tagged('E', qname);
  return true;
}

Digest XmlDigestBuilder::finish() {
  pending_.clear();  // text after the root element is ignored
  Digest d = counts_;
  d.hash = hash_.value();
  return d;
}

void JsonDigestBuilder::reset() {
  hash_.reset();
  counts_ = Digest{};
  counts_.format = Format::json;
}

Digest JsonDigestBuilder::finish() {
  Digest d = counts_;
  d.hash = hash_.value();
  return d;
}

std::optional<Digest> digest_from_fields(
    Format format, const std::vector<std::pair<std::string, std::uint64_t>>& counts,
    std::string_view hash_hex) {
  Digest d;
  d.format = format;
  if (hash_hex.size() != 16) return std::nullopt;
  std::uint64_t h = 0;
  for (char c : hash_hex) {
    int v = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
    if (v < 0) return std::nullopt;
    h = (h << 4) | static_cast<std::uint64_t>(v);
  }
  d.hash = h;
  for (const auto& [name, value] : counts) {
    std::uint64_t* slot = nullptr;
    if (format == Format::xml) {
      if (name == "elements") slot = &d.elements;
      if (name == "attributes") slot = &d.attributes;
      if (name == "text_bytes") slot = &d.text_bytes;
    } else {
      if (name == "objects") slot = &d.objects;
      if (name == "arrays") slot = &d.arrays;
      if (name == "keys") slot = &d.keys;
      if (name == "strings") slot = &d.strings;
      if (name == "numbers") slot = &d.numbers;
      if (name == "string_bytes") slot = &d.string_bytes;
    }
    if (slot == nullptr) return std::nullopt;
    *slot = value;
  }
  return d;
}

}  // namespace sb
