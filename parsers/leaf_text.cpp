#include "parsers/leaf_text.h"

#include <bit>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sb {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

bool all_space(std::string_view s) {
  for (char c : s) {
    if (!is_space(c)) return false;
  }
  return true;
}

const char* next_of(const char* p, const char* end, char c) {
  return p >= end ? nullptr : static_cast<const char*>(std::memchr(p, c, end - p));
}

const char* next_of(const char* p, const char* end, std::string_view s) {
  if (p >= end) return nullptr;
  const std::size_t at = std::string_view(p, end - p).find(s);
  return at == std::string_view::npos ? nullptr : p + at;
}

// After a leading byte order mark, whitespace and the XML declaration: a processing instruction
// from there on may split an element's text.
const char* after_declaration(const char* p, const char* end) {
  if (end - p >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;
  while (p < end && is_space(*p)) ++p;
  if (end - p >= 5 && std::memcmp(p, "<?xml", 5) == 0) {
    for (const char* q = next_of(p + 5, end, '>'); q != nullptr; q = next_of(q + 1, end, '>')) {
      if (q[-1] == '?') return q + 1;
    }
  }
  return p;
}

// What the quick pass makes of the '<' at q (q + 1 < end), given whether the previous '<' opened
// a start tag; true when a library that drops whitespace-only text may lose some here: an end tag
// after whitespace after a start tag ("<x ...>  </x>"), or a comment, CDATA section or processing
// instruction (the full pass then decides).
inline bool lossy_at(const char* q, bool& after_start_tag, bool markup_only) {
  const char next = q[1];
  if (next == '!' || next == '?') return true;
  if (markup_only) return false;
  if (next != '/') {
    after_start_tag = true;
    return false;
  }
  const bool maybe = after_start_tag && is_space(q[-1]);
  after_start_tag = false;
  if (!maybe) return false;
  const char* b = q - 1;
  while (is_space(*b)) --b;  // the start tag's '>' (or text) is there
  return *b == '>' && b[-1] != '/';
}

// Whether a library that drops whitespace-only character data may lose some of `xml`'s text:
// every '<' past the XML declaration visited once, 16 bytes at a time (this runs on every message
// these adapters decode). `markup_only`: it loses such text only beside a comment, CDATA section
// or processing instruction.
bool maybe_lossy(std::string_view xml, bool markup_only) {
  const char* begin = xml.data();
  const char* end = begin + xml.size();
  const char* p = after_declaration(begin, end);
  bool after_start_tag = false;  // the last '<' opened a start tag
#if defined(__SSE2__)
  // 64 bytes a round: a bit per '<' (messages have long text runs and dense markup alike).
  const __m128i lt = _mm_set1_epi8('<');
  auto lts = [&lt](const char* at) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
    return static_cast<std::uint64_t>(
        static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(block, lt))));
  };
  auto has_lt = [&lt](const char* at) {
    return _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(at)), lt);
  };
  for (; end - p >= 65; p += 64) {  // q + 1 stays inside: q[1] is read
    // Text runs first: one test for the 64 bytes.
    if (_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(has_lt(p), has_lt(p + 16)),
                                       _mm_or_si128(has_lt(p + 32), has_lt(p + 48)))) == 0) {
      continue;
    }
    std::uint64_t mask = lts(p) | lts(p + 16) << 16 | lts(p + 32) << 32 | lts(p + 48) << 48;
    for (; mask != 0; mask &= mask - 1) {
      if (lossy_at(p + std::countr_zero(mask), after_start_tag, markup_only)) return true;
    }
  }
#endif
  for (; end - p >= 2; ++p) {
    if (*p == '<' && lossy_at(p, after_start_tag, markup_only)) return true;
  }
  return false;
}

// The UTF-8 of code point `c`; false for one XML does not allow.
bool append_utf8(std::string& out, std::uint32_t c) {
  if (c == 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return false;
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
  return true;
}

// The reference `ref` (between '&' and ';') appended; false when it is none XML predefines or a
// character reference out of range (a message has no DOCTYPE to declare others).
bool append_reference(std::string& out, std::string_view ref) {
  static constexpr std::pair<std::string_view, char> kPredefined[] = {
      {"lt", '<'}, {"gt", '>'}, {"amp", '&'}, {"apos", '\''}, {"quot", '"'}};
  for (const auto& [name, c] : kPredefined) {
    if (ref == name) {
      out += c;
      return true;
    }
  }
  if (ref.size() < 2 || ref[0] != '#') return false;
  const bool hex = ref[1] == 'x';
  std::uint32_t c = 0;
  for (char d : ref.substr(hex ? 2 : 1)) {
    const int v = d >= '0' && d <= '9'          ? d - '0'
                  : hex && d >= 'a' && d <= 'f' ? d - 'a' + 10
                  : hex && d >= 'A' && d <= 'F' ? d - 'A' + 10
                                                : -1;
    if (v < 0 || c > 0x10FFFF) return false;
    c = c * (hex ? 16 : 10) + static_cast<std::uint32_t>(v);
  }
  return ref.size() > (hex ? 2u : 1u) && append_utf8(out, c);
}

}  // namespace

bool LeafTexts::find(std::string_view xml, TextLoss loss) {
  leaves_.clear();
  text_.clear();
  if (loss == TextLoss::none || !maybe_lossy(xml, loss == TextLoss::runs_by_markup)) return false;
  scan(xml, loss);
  return !leaves_.empty();
}

bool LeafTexts::append_text(std::string_view run, bool decode) {
  for (std::size_t i = 0; i < run.size(); ++i) {
    const char c = run[i];
    if (c == '\r') {
      text_ += '\n';
      if (i + 1 < run.size() && run[i + 1] == '\n') ++i;
    } else if (c == '&' && decode) {
      const std::size_t semi = run.find(';', i);
      if (semi == std::string_view::npos ||
          !append_reference(text_, run.substr(i + 1, semi - i - 1))) {
        return false;
      }
      i = semi;
    } else {
      text_ += c;
    }
  }
  return true;
}

void LeafTexts::settle(std::size_t element, TextLoss loss) {
  std::size_t runs = 0;
  bool blank_run = false, cdata = false;
  for (const Piece& p : pieces_) {
    cdata = cdata || p.cdata;
    if (p.cdata) continue;
    ++runs;
    blank_run = blank_run || all_space(p.text);
  }
  const bool fastest = loss == TextLoss::runs_and_cdata;
  if (!blank_run && !(fastest && (cdata || runs > 1))) return;
  const std::size_t begin = text_.size();
  for (const Piece& p : pieces_) {
    // A fastest mode decodes no references: its text stays as written, as the library gives it.
    if (!append_text(p.text, !p.cdata && !fastest)) {
      text_.resize(begin);  // a reference nobody declared: left as the library reads it
      return;
    }
  }
  leaves_.push_back({element, begin, text_.size()});
}

// Follows the markup as the libraries read it: elements counted in document order; comments,
// CDATA sections and processing instructions delimit text runs; quoted attribute values skipped.
// Where the markup is not well-formed the pass stops; the library then reports it.
void LeafTexts::scan(std::string_view xml, TextLoss loss) {
  const char* p = xml.data();
  const char* end = p + xml.size();
  std::size_t elements = 0;  // start tags so far
  bool leaf_open = false;    // the innermost open element has no child element so far
  std::size_t leaf = 0;      // its number
  for (;;) {
    const char* lt = next_of(p, end, '<');
    if (lt == nullptr || lt + 1 >= end) return;
    if (leaf_open && lt > p) pieces_.push_back({false, std::string_view(p, lt - p)});
    const char* next = nullptr;
    if (lt[1] == '/') {
      next = next_of(lt + 2, end, '>');
      if (leaf_open) settle(leaf, loss);
      leaf_open = false;
      if (next != nullptr) ++next;
    } else if (lt[1] == '?') {
      next = next_of(lt + 2, end, "?>");
      if (next != nullptr) next += 2;
    } else if (std::string_view(lt, end - lt).starts_with("<!--")) {
      next = next_of(lt + 4, end, "-->");
      if (next != nullptr) next += 3;
    } else if (std::string_view(lt, end - lt).starts_with("<![CDATA[")) {
      next = next_of(lt + 9, end, "]]>");
      if (next != nullptr && leaf_open)
        pieces_.push_back({true, std::string_view(lt + 9, next - lt - 9)});
      if (next != nullptr) next += 3;
    } else if (lt[1] == '!') {
      return;  // a DOCTYPE: refused by the policy before anything is decoded
    } else {
      // A start tag: to its '>', quoted values skipped.
      next = lt + 1;
      while (next != nullptr && next < end && *next != '>') {
        next = *next == '"' || *next == '\'' ? next_of(next + 1, end, *next) : next;
        if (next != nullptr) ++next;
      }
      if (next == nullptr || next >= end) return;
      leaf = elements++;
      leaf_open = next[-1] != '/';
      pieces_.clear();
      ++next;
    }
    if (next == nullptr) return;
    p = next;
  }
}

}  // namespace sb
