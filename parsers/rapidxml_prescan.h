// RapidXML's depth bound, checked before it parses. RapidXML's parser recurses once per nesting
// level (parse_node -> parse_element -> parse_node_contents -> parse_node), so a 100,000-deep
// message would overflow the stack, and it skips a DOCTYPE silently. rapidxml_dom.cpp bounds
// the depth with the cheapest check that settles a message: (1) at_most_lt, few '<' bytes;
// (2) recursion_fits_stack, even size / 3 levels fit this thread's stack (the tree's depth is
// then measured after parsing); (3) pre_scan, which follows RapidXML's reading of the markup.
// Included by rapidxml_dom.cpp, its test and qt6_dom.cpp (the same depth bound before QDom).
#pragma once

#include <bit>
#include <cstddef>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/message_buffer.h"

namespace sb::rapidxml_prescan {

// RapidXML uses about 150 bytes of stack per nesting level (350 under ASan), so the pre-scan
// never lets more than this many levels through, whatever limits.max_depth says.
inline constexpr std::size_t kRecursionLimit = 4096;

// What the pre-scan found.
enum class ScanResult { ok, too_deep, doctype };

// What the pre-scan found, and where it stopped.
struct Scan {
  ScanResult result;  // ok: RapidXML may parse (it reports any error itself)
  const char* where;  // where the scan stopped
};

// Follows RapidXML's reading of [begin, end) and stops at the first element deeper than
// max_depth (too_deep) or, unless allow_doctype, the first "<!DOCTYPE" (doctype); else ok.
// `begin` must be NUL-terminated at `end`.
Scan pre_scan(const char* begin, const char* end, std::size_t max_depth, bool allow_doctype);

// True when RapidXML cannot overflow this thread's stack on a message of `size` bytes; false
// also when the stack's bounds are unknown.
bool recursion_fits_stack(std::size_t size);

// A bound that settles most messages without any scan: nesting needs one '<' per level, so a
// message holding at most max_lt '<' bytes cannot nest deeper than max_lt. True when [p, end)
// holds at most max_lt '<'. Reads 16 bytes at a time, up to 15 bytes past `end`: MessageBuffer's
// zeroed padding. Inline: it runs on every message.
static_assert(MessageBuffer::kPadding >= 16);
inline bool at_most_lt(const char* p, const char* end, std::size_t max_lt) {
  std::size_t lt = 0;
#if defined(__SSE2__)
  const __m128i lt_byte = _mm_set1_epi8('<');
  for (; p < end; p += 16) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const auto lts = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(block, lt_byte)));
    if (lts == 0) continue;
    if (p + 16 > end) {
      lt += static_cast<std::size_t>(std::popcount(lts & ((1U << (end - p)) - 1)));
    } else {
      lt += static_cast<std::size_t>(std::popcount(lts));
    }
    if (lt > max_lt) return false;
  }
#else
  for (p = static_cast<const char*>(std::memchr(p, '<', static_cast<std::size_t>(end - p)));
       p != nullptr; p = static_cast<const char*>(
                         std::memchr(p + 1, '<', static_cast<std::size_t>(end - p - 1)))) {
    if (++lt > max_lt) return false;
  }
#endif
  return true;
}

}  // namespace sb::rapidxml_prescan
