// Shared pieces of the libxml2 adapters (libxml2_dom, libxml2_sax, libxml2_reader):
// one-time initialisation, silent error capture, policy statuses, the attribute scratch.
#pragma once

#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/events.h"
#include "core/status.h"

namespace sb::libxml2 {

// The only option added to libxml2's defaults: XML_PARSE_NONET, so that nothing is ever
// fetched over the network (SOAP 1.1 §3, fairness rules). No XML_PARSE_NOENT, DTDLOAD,
// DTDATTR, DTDVALID or HUGE: entities stay unsubstituted, no external DTD or entity is read,
// and libxml2's own limits (depth 256, entity amplification) stay on.
inline constexpr int kParseOptions = XML_PARSE_NONET;
inline constexpr const char* kParseOptionsName = "XML_PARSE_NONET";

// A parser context's dictionary interns names (and short text) and is kept across messages;
// past this many entries the owner recreates its context, so a long run over ever-new names
// cannot grow memory without bound. Far above any corpus message's vocabulary.
inline constexpr int kMaxDictEntries = 100000;
inline bool dictionary_full(xmlDictPtr dict) {
  return dict != nullptr && xmlDictSize(dict) > kMaxDictEntries;
}

// Calls xmlInitParser() once per process (thread-safe) and, once per calling thread, routes
// libxml2's generic (context-less) error channel to a silent function, so that nothing is ever
// printed. Cheap enough to call at the start of every message.
void ensure_ready();

// "2.9.14", from the run-time xmlParserVersion ("20914").
std::string version();

inline std::string_view view(const xmlChar* s) {
  return s == nullptr ? std::string_view() : std::string_view(reinterpret_cast<const char*>(s));
}

// The first error (not warning) libxml2 reports for one message. Filled by a structured error
// handler instead of being printed; the adapters reset it per message.
class ErrorCapture {
 public:
  void reset() { has_error_ = false; }
  bool has_error() const { return has_error_; }
  // Keeps e if it is the first error of the message; warnings do not reject a document.
  void record(const xmlError* e);
  // The failure for the first recorded error; else for `fallback` (the library's last error,
  // xmlCtxtGetLastError) when it holds one; else a generic reason. Status::malformed, except
  // libxml2's own depth limit ("Excessive depth in document"), which is a Status::limit.
  Status failure(const xmlError* fallback) const;

  // An xmlStructuredErrorFunc whose context is an ErrorCapture*.
  static void handler(void* capture, xmlErrorPtr e) {
    static_cast<ErrorCapture*>(capture)->record(e);
  }

 private:
  bool has_error_ = false;  // an error was recorded for the current message
  int code_ = 0;            // its xmlParserErrors code
  std::string message_;     // its text, trailing newline removed
  int line_ = 0;            // its line (1-based; 0 if unknown)
  int column_ = 0;          // its column (1-based; 0 if unknown)
};

// Line/column of a parser context's current position (for policy refusals).
Location where(xmlParserCtxtPtr ctxt);

// One element's attribute list when names or values must be composed ("prefix:local",
// "xmlns:p", decoded values). A piece points either at library memory that outlives the
// element's event, or into one reusable arena; views are resolved once the element is complete
// (the arena may move while it grows). Capacity is kept across elements and messages.
class AttributeScratch {
 public:
  // A name or value: library memory (data != nullptr) or an arena range.
  struct Piece {
    const char* data = nullptr;  // library memory, or nullptr for an arena range
    std::size_t offset = 0;      // arena offset when data == nullptr
    std::size_t size = 0;        // length in bytes
  };

  void clear() {
    arena_.clear();
    pieces_.clear();
  }
  static Piece borrow(std::string_view s) { return Piece{s.data(), 0, s.size()}; }
  static Piece borrow(const xmlChar* s) { return borrow(view(s)); }
  // "prefix:local" in the arena.
  Piece compose(std::string_view prefix, std::string_view local) {
    const std::size_t start = arena_.size();
    arena_.append(prefix);
    arena_.push_back(':');
    arena_.append(local);
    return Piece{nullptr, start, arena_.size() - start};
  }
  // A copy of s in the arena.
  Piece copy(std::string_view s) {
    const std::size_t start = arena_.size();
    arena_.append(s);
    return Piece{nullptr, start, s.size()};
  }
  // The arena itself, for callers that decode into it; pair with range().
  std::string& arena() { return arena_; }
  static Piece range(std::size_t start, std::size_t end) {
    return Piece{nullptr, start, end - start};
  }

  void add(Piece name, Piece value) { pieces_.push_back({name, value}); }
  // The attributes added since clear(), valid until the next clear/add.
  XmlAttributes finish() {
    attributes_.clear();
    for (const auto& [name, value] : pieces_)
      attributes_.push_back({resolve(name), resolve(value)});
    return attributes_;
  }

 private:
  std::string_view resolve(const Piece& p) const {
    return p.data != nullptr ? std::string_view(p.data, p.size)
                             : std::string_view(arena_.data() + p.offset, p.size);
  }

  std::string arena_;                            // composed names and copied/decoded values
  std::vector<std::pair<Piece, Piece>> pieces_;  // name/value pieces of the current element
  std::vector<XmlAttribute> attributes_;         // resolved views handed to the sink
};

// Builds "prefix:local" (or returns local) for element names; reused across elements.
inline std::string_view qname(const xmlChar* prefix, const xmlChar* local, std::string& scratch) {
  if (prefix == nullptr) return view(local);
  scratch.assign(reinterpret_cast<const char*>(prefix));
  scratch.push_back(':');
  scratch.append(reinterpret_cast<const char*>(local));
  return scratch;
}

}  // namespace sb::libxml2
