// RapidXML 1.13 in its DOM model: parse<0> (the default: destructive, in situ, entity
// translation) and parse<parse_fastest> (the documented fastest mode: non-destructive, no entity
// translation, no data nodes).
#include <rapidxml/rapidxml.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/rapidxml_prescan.h"

namespace sb {
namespace {

using rapidxml_prescan::at_most_lt;
using rapidxml_prescan::kRecursionLimit;
using rapidxml_prescan::pre_scan;
using rapidxml_prescan::recursion_fits_stack;
using rapidxml_prescan::Scan;
using rapidxml_prescan::ScanResult;

// Flags: 0 (parse_default) or rapidxml::parse_fastest.
template <int kFlags>
class RapidxmlDom {
 public:
  static constexpr Format kFormat = Format::xml;
  // parse_no_data_nodes: text lives only in the element's value() (its first run), and CDATA is
  // skipped.
  static constexpr bool kNoDataNodes = (kFlags & rapidxml::parse_no_data_nodes) != 0;

  explicit RapidxmlDom(const Limits& limits)
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

  // A text node's characters with line ends normalised (XML 1.0 section 2.11: "\r\n" and a
  // lone "\r" read as "\n"), which RapidXML leaves as written; a copy only when there is a "\r".
  std::string_view text_of(const Node* n) {
    const std::string_view v = value_of(n);
    if (v.empty() || std::memchr(v.data(), '\r', v.size()) == nullptr) return v;
    line_ends_.clear();
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i] != '\r') {
        line_ends_ += v[i];
      } else {
        line_ends_ += '\n';
        if (i + 1 < v.size() && v[i + 1] == '\n') ++i;
      }
    }
    return line_ends_;
  }

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
          if (n->value_size() != 0 && !sink.text(text_of(n))) return Status::stopped();
        }
        if (const Node* child = n->first_node()) {
          n = child;
          continue;
        }
        if (!sink.end_element(name_of(n))) return Status::stopped();
        --depth;
      } else if (type == rapidxml::node_data || type == rapidxml::node_cdata) {
        if (!sink.text(text_of(n))) return Status::stopped();
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

  Limits limits_;                         // depth and DOCTYPE policy
  std::size_t scan_depth_;                // the depth the pre-scan allows: policy, capped
  rapidxml::xml_document<char> doc_;      // reused; clear() before each parse frees its pool
  const Node* root_ = nullptr;            // the root element of the last parse
  std::vector<XmlAttribute> attributes_;  // scratch for one element's attributes
  std::string line_ends_;                 // scratch: a text node with its line ends normalised
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
                      "names not checked; lenient by design: rejects 46-49% of the W3C suite's "
                      "not-well-formed documents without a DOCTYPE (docs/conformance.md); ") +
          (fastest ? "no entity decoding, CDATA skipped, only an element's first text run "
                     "is kept: decode restores a leaf's CDATA and later runs from the message "
                     "(parsers/leaf_text.h), its references still undecoded; "
                   : "parses in the caller's buffer; unknown entity references kept as "
                     "text; ") +
          "whitespace-only text is dropped in every mode (whitespace before '<' never makes a "
          "data node): decode restores it from the message",
      .keeps_whitespace_text = false,
      .decode_restores_text = fastest ? TextLoss::runs_and_cdata : TextLoss::whitespace_runs,
      .reads_declared_encoding = false,  // RapidXML reads UTF-8 (or any 8-bit bytes) as is
  };
}

}  // namespace

const AdapterInfo& rapidxml_dom_info() {
  static const AdapterInfo info = rapidxml_info(false);
  return info;
}
std::unique_ptr<Adapter> make_rapidxml_dom(const Limits& limits) {
  return make_adapter<RapidxmlDom<rapidxml::parse_default>>(rapidxml_dom_info(), limits);
}

const AdapterInfo& rapidxml_dom_fastest_info() {
  static const AdapterInfo info = rapidxml_info(true);
  return info;
}
std::unique_ptr<Adapter> make_rapidxml_dom_fastest(const Limits& limits) {
  return make_adapter<RapidxmlDom<rapidxml::parse_fastest>>(rapidxml_dom_fastest_info(), limits);
}

}  // namespace sb
