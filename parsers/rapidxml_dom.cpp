// RapidXML 1.13 in its DOM model: parse<0> (the default: destructive, in situ, entity
// translation) and parse<parse_fastest> (the documented fastest mode: non-destructive, no entity
// translation, no data nodes).
#include <rapidxml/rapidxml.hpp>

#include <pthread.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <string>
#include <string_view>
#include <vector>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"

namespace sb {
namespace {

// What the pre-scan found, and where it stopped.
enum class ScanResult { ok, too_deep, doctype };
struct Scan {
  ScanResult result;  // ok: RapidXML may parse (it reports any error itself)
  const char* where;  // where the scan stopped
};

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

// A bound that settles most messages without any scan: nesting needs one '<' per level, so a
// message holding at most max_lt '<' bytes cannot nest deeper than max_lt. Reads 16 bytes at a
// time, up to 15 bytes past the terminating NUL: MessageBuffer's zeroed padding.
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

// RapidXML's parser recurses once per nesting level (parse_node -> parse_element ->
// parse_node_contents -> parse_node), so a 100,000-deep message would overflow the stack, and it
// skips a DOCTYPE silently. This pre-scan follows RapidXML's reading of the markup (the next '<'
// in content; comments, CDATA, PIs and DOCTYPE skipped as RapidXML skips them; element names read
// with RapidXML's table; quoted attribute values skipped, so that a quoted '>', "/>" or "<!--"
// cannot hide a nesting level) and stops at the first element deeper than max_depth or the first
// "<!DOCTYPE". Wherever RapidXML would parse on, the scan reads the same structure; where RapidXML
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

// RapidXML uses about 150 bytes of stack per nesting level (350 under ASan), so the pre-scan
// never lets more than this many levels through, whatever limits.max_depth says.
constexpr std::size_t kRecursionLimit = 4096;

// Flags: 0 (parse_default) or rapidxml::parse_fastest.
template <int kFlags>
class RapidxmlDom {
 public:
  static constexpr Format kFormat = Format::xml;
  // parse_no_data_nodes: text lives only in the element's value() (its first run), and CDATA is
  // skipped.
  static constexpr bool kNoDataNodes = (kFlags & rapidxml::parse_no_data_nodes) != 0;

  explicit RapidxmlDom(const ParseLimits& limits)
      : limits_(limits), scan_depth_(std::min(limits.max_depth, kRecursionLimit)) {}

  Status parse(MessageBuffer& message) {
    // Frees the dynamic pool blocks of the previous message; the 64 KiB static block stays.
    doc_.clear();
    root_ = nullptr;
    if (message.data() == nullptr) return Status::malformed("no root element");  // never assigned
    const char* begin = message.data();
    const char* end = begin + message.size();
    // RapidXML recurses once per nesting level, so depth must be bounded before it runs, by the
    // cheapest of: (1) few '<' in the message: no level can pass the limit; (2) even size / 3
    // levels fit this thread's stack: parse, then measure the built tree's depth; (3) the
    // pre-scan (large messages only).
    bool check_tree = false;
    if (!(message.size() <= 64 * 1024 && at_most_lt(begin, end, scan_depth_))) {
      if (recursion_fits_stack(message.size())) {
        check_tree = true;
      } else {
        const Scan scan = pre_scan(begin, end, scan_depth_, limits_.allow_doctype);
        if (scan.result != ScanResult::ok) {
          const Location where{.offset = scan.where - message.data()};
          if (scan.result == ScanResult::doctype) return doctype_refused(where);
          return too_deep(scan_depth_, where);
        }
      }
    }
    try {
      // parse_doctype_node: a DOCTYPE becomes a node the policy can reject (RapidXML otherwise
      // skips it silently; it never expands entities). Costs nothing without one.
      doc_.parse<kFlags | rapidxml::parse_doctype_node>(message.data());
    } catch (const rapidxml::parse_error& e) {
      return Status::malformed(e.what(), Location{.offset = e.where<char>() - message.data()});
    }
    // Top-level nodes are elements and, with the flag above, a DOCTYPE.
    for (const Node* n = doc_.first_node(); n != nullptr; n = n->next_sibling()) {
      if (n->type() == rapidxml::node_doctype) {
        if (!limits_.allow_doctype) return doctype_refused();
      } else if (root_ == nullptr && n->type() == rapidxml::node_element) {
        root_ = n;
      }
    }
    if (root_ == nullptr) return Status::malformed("no root element");
    if (check_tree && deeper_than(root_, limits_.max_depth)) return too_deep(limits_.max_depth);
    return Status::success();
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    Status s = parse(message);
    if (!s.ok()) return s;
    return emit_tree(root_, sink);
  }

 private:
  using Node = rapidxml::xml_node<char>;

  static std::string_view name_of(const Node* n) { return {n->name(), n->name_size()}; }
  static std::string_view value_of(const Node* n) { return {n->value(), n->value_size()}; }

  // Iterative pre-order walk (no recursion). The pre-scan already bounded the depth; the check
  // here keeps the walk safe on its own.
  template <class Sink>
  Status emit_tree(const Node* root, Sink& sink) {
    const Node* n = root;
    std::size_t depth = 0;
    for (;;) {
      const rapidxml::node_type type = n->type();
      if (type == rapidxml::node_element) {
        if (++depth > limits_.max_depth) return too_deep(limits_.max_depth);
        attributes_.clear();
        for (const rapidxml::xml_attribute<char>* a = n->first_attribute(); a;
             a = a->next_attribute()) {
          attributes_.push_back({{a->name(), a->name_size()}, {a->value(), a->value_size()}});
        }
        if (!sink.start_element(name_of(n), attributes_)) return Status::stopped();
        if constexpr (kNoDataNodes) {
          if (n->value_size() != 0 && !sink.text(value_of(n))) return Status::stopped();
        }
        if (const Node* child = n->first_node()) {
          n = child;
          continue;
        }
        if (!sink.end_element(name_of(n))) return Status::stopped();
        --depth;
      } else if (type == rapidxml::node_data || type == rapidxml::node_cdata) {
        if (!sink.text(value_of(n))) return Status::stopped();
      }
      // Advance: the next sibling, or close parents until one has a next sibling.
      for (;;) {
        if (n == root) return Status::success();
        if (const Node* next = n->next_sibling()) {
          n = next;
          break;
        }
        n = n->parent();
        if (!sink.end_element(name_of(n))) return Status::stopped();
        --depth;
      }
    }
  }

  // True when the element tree under root nests deeper than max_depth (iterative; elements
  // only; stops at the first level past the limit).
  static bool deeper_than(const Node* root, std::size_t max_depth) {
    const Node* n = root;
    std::size_t depth = 1;
    for (;;) {
      const Node* child = n->first_node();
      while (child != nullptr && child->type() != rapidxml::node_element)
        child = child->next_sibling();
      if (child != nullptr) {
        if (++depth > max_depth) return true;
        n = child;
        continue;
      }
      for (;;) {
        if (n == root) return false;
        const Node* next = n->next_sibling();
        while (next != nullptr && next->type() != rapidxml::node_element)
          next = next->next_sibling();
        if (next != nullptr) {
          n = next;
          break;
        }
        n = n->parent();
        --depth;
      }
    }
  }

  ParseLimits limits_;                    // depth and DOCTYPE policy
  std::size_t scan_depth_;                // the depth the pre-scan allows: policy, capped
  rapidxml::xml_document<char> doc_;      // reused; clear() before each parse frees its pool
  const Node* root_ = nullptr;            // the root element of the last parse
  std::vector<XmlAttribute> attributes_;  // scratch for one element's attributes
};

AdapterInfo rapidxml_info(bool fastest) {
  return AdapterInfo{
      .name = fastest ? "rapidxml/dom-fastest" : "rapidxml/dom",
      .library = "RapidXML",
      // RapidXML exposes no version, not even a macro: "// Version 1.13" in rapidxml.hpp.
      .version = "1.13",
      .format = Format::xml,
      .model = Model::dom,
      .mode = fastest ? "parse<parse_fastest | parse_doctype_node>"
                      : "parse<parse_default | parse_doctype_node>",
      .validates_utf8 = false,
      .expands_entities = !fastest,
      .processes_namespaces = false,
      .modifies_input = !fastest,
      .reuses_state = true,
      .fastest_mode = fastest,
      .digest_exempt = fastest,
      .notes =
          std::string("xml_document reused (clear() keeps its 64 KiB static pool, frees "
                      "dynamic blocks); RapidXML recurses per nesting level, so parse includes "
                      "a depth bound: a '<' count (small messages), a tree-depth check after "
                      "parsing (when size/3 levels fit the stack) or a pre-scan (larger "
                      "messages); closing tag "
                      "names not checked; ") +
          (fastest ? "no entity decoding, CDATA skipped, only an element's first text run "
                     "is kept"
                   : "parses in the caller's buffer; unknown entity references kept as "
                     "text"),
      .keeps_whitespace_text = false,
  };
}

}  // namespace

const AdapterInfo& rapidxml_dom_info() {
  static const AdapterInfo info = rapidxml_info(false);
  return info;
}
std::unique_ptr<Adapter> make_rapidxml_dom(const ParseLimits& limits) {
  return make_adapter<RapidxmlDom<rapidxml::parse_default>>(rapidxml_dom_info(), limits);
}

const AdapterInfo& rapidxml_dom_fastest_info() {
  static const AdapterInfo info = rapidxml_info(true);
  return info;
}
std::unique_ptr<Adapter> make_rapidxml_dom_fastest(const ParseLimits& limits) {
  return make_adapter<RapidxmlDom<rapidxml::parse_fastest>>(rapidxml_dom_fastest_info(), limits);
}

}  // namespace sb
