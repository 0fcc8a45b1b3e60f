#include "parsers/rapidxml_prescan.h"

#include <rapidxml/rapidxml.hpp>

#include <pthread.h>

#include <cstdint>
#include <cstring>
#include <string_view>

namespace sb::rapidxml_prescan {
namespace {

// The first kChar in [p, end), or nullptr. Runs between markup are mostly short: a few bytes are
// tested inline before paying for a memchr call.
template <char kChar>
inline const char* find(const char* p, const char* end) {
  const char* inline_end = end - p > 16 ? p + 16 : end;
  for (; p != inline_end; ++p) {
    if (*p == kChar) return p;
  }
  return static_cast<const char*>(std::memchr(p, kChar, static_cast<std::size_t>(end - p)));
}

// RapidXML's own character tables, so that names are read exactly as RapidXML reads them.
using Tables = rapidxml::internal::lookup_tables<0>;

inline const char* skip(const char* p, const unsigned char* table) {
  while (table[static_cast<unsigned char>(*p)]) ++p;
  return p;
}
inline const char* skip_whitespace(const char* p) { return skip(p, Tables::lookup_whitespace); }

// Past the first `terminator` in [p, end), or nullptr.
inline const char* skip_past(const char* p, const char* end, std::string_view terminator) {
  const std::size_t at = std::string_view(p, static_cast<std::size_t>(end - p)).find(terminator);
  return at == std::string_view::npos ? nullptr : p + at + terminator.size();
}

// RapidXML's parse_doctype (p after "<!DOCTYPE "): to '>', with naive '[' ']' depth matching.
inline const char* skip_doctype(const char* p) {
  while (*p != '>') {
    if (*p == '\0') return nullptr;
    if (*p++ == '[') {
      for (int brackets = 1; brackets > 0; ++p) {
        if (*p == '[') ++brackets;
        if (*p == ']') --brackets;
        if (*p == '\0') return nullptr;
      }
    }
  }
  return p + 1;
}

// RapidXML's parse_node_attributes (p after the element name and its spaces): past the last
// attribute, or nullptr where RapidXML throws.
inline const char* skip_attributes(const char* p, const char* end) {
  while (Tables::lookup_attribute_name[static_cast<unsigned char>(*p)]) {
    p = skip_whitespace(skip(p + 1, Tables::lookup_attribute_name));
    if (*p != '=') return nullptr;
    p = skip_whitespace(p + 1);
    const char quote = *p;
    if (quote == '"') {
      p = find<'"'>(p + 1, end);
    } else if (quote == '\'') {
      p = find<'\''>(p + 1, end);
    } else {
      return nullptr;
    }
    if (p == nullptr) return nullptr;
    p = skip_whitespace(p + 1);
  }
  return p;
}

// Stack RapidXML may use per nesting level (measured: about 150 bytes, 350 under ASan), with a
// margin, and the stack kept free for everything else.
#if SB_ASAN
constexpr std::size_t kStackPerLevel = 512;
#else
constexpr std::size_t kStackPerLevel = 256;
#endif
constexpr std::size_t kStackReserve = 256 * 1024;

// The lowest usable stack address of the calling thread (0 when unknown), read once per thread.
std::uintptr_t stack_low() {
  static thread_local const std::uintptr_t low = [] {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return std::uintptr_t{0};
    void* addr = nullptr;
    std::size_t size = 0;
    const int rc = pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_destroy(&attr);
    return rc == 0 ? reinterpret_cast<std::uintptr_t>(addr) : std::uintptr_t{0};
  }();
  return low;
}

}  // namespace

// True when RapidXML cannot overflow this thread's stack on a message of `size` bytes: each
// nesting level costs at least 3 bytes of input ("<a>"), so at most size / 3 + 1 levels.
bool recursion_fits_stack(std::size_t size) {
  const std::uintptr_t low = stack_low();
  if (low == 0) return false;
  const char probe = 0;
  const auto sp = reinterpret_cast<std::uintptr_t>(&probe);
  if (sp <= low + kStackReserve) return false;
  return (size / 3 + 1) * kStackPerLevel <= sp - low - kStackReserve;
}

// The scan follows RapidXML's reading of the markup (the next '<' in content; comments, CDATA,
// PIs and DOCTYPE skipped as RapidXML skips them; element names read with RapidXML's table;
// quoted attribute values skipped, so that a quoted '>', "/>" or "<!--" cannot hide a nesting
// level) and stops at the first element deeper than max_depth or the first "<!DOCTYPE".
// Wherever RapidXML would parse on, the scan reads the same structure; where RapidXML
// would throw, the scan may read on or stop with ok, and RapidXML then throws there, having
// recursed no deeper than the scan went. An embedded NUL ends RapidXML's input but not the scan's,
// so the scan can only see more than RapidXML, never less. `begin` must be NUL-terminated at `end`.
Scan pre_scan(const char* begin, const char* end, std::size_t max_depth, bool allow_doctype) {
  const char* p = begin;
  std::size_t depth = 0;
  for (;;) {
    if (depth == 0) {
      // Document level: whitespace, then '<' or the end.
      p = skip_whitespace(p);
      if (*p != '<') return {ScanResult::ok, p};  // the end, or RapidXML's "expected <"
    } else {
      // Element content: text runs end at the next '<'.
      p = find<'<'>(p, end);
      if (p == nullptr) return {ScanResult::ok, end};  // RapidXML: "unexpected end of data"
    }
    // p at '<': the node kinds of rapidxml::xml_document::parse_node and parse_node_contents.
    const char* next;
    if (p[1] == '/' && depth > 0) {
      // End tag: '/', a name (no '>' in it), spaces, '>'.
      next = find<'>'>(p + 2, end);
      if (next != nullptr) {
        ++next;
        --depth;
      }
    } else if (p[1] == '?') {
      next = skip_past(p + 2, end, "?>");  // XML declaration or PI
    } else if (p[1] != '!') {
      // Element: counted before its name is read, so a self-closing one counts too.
      if (++depth > max_depth) return {ScanResult::too_deep, p};
      next = skip(p + 1, Tables::lookup_node_name);
      if (next == p + 1) return {ScanResult::ok, p};  // RapidXML: "expected element name"
      next = skip_attributes(skip_whitespace(next), end);
      if (next != nullptr) {
        if (*next == '>') {
          ++next;
        } else if (next[0] == '/' && next[1] == '>') {
          next += 2;
          --depth;
        } else {
          next = nullptr;  // RapidXML: "expected >"
        }
      }
    } else if (p[2] == '-' && p[3] == '-') {
      next = skip_past(p + 4, end, "-->");
    } else if (std::strncmp(p + 2, "[CDATA[", 7) == 0) {
      next = skip_past(p + 9, end, "]]>");
    } else if (std::strncmp(p + 2, "DOCTYPE", 7) == 0 && !allow_doctype) {
      return {ScanResult::doctype, p};
    } else if (std::strncmp(p + 2, "DOCTYPE", 7) == 0 &&
               Tables::lookup_whitespace[static_cast<unsigned char>(p[9])]) {
      next = skip_doctype(p + 10);
    } else {
      next = find<'>'>(p + 2, end);  // other "<!...": RapidXML skips to the next '>'
      if (next != nullptr) ++next;
    }
    if (next == nullptr) return {ScanResult::ok, p};  // RapidXML throws in this node
    p = next;
  }
}

}  // namespace sb::rapidxml_prescan
