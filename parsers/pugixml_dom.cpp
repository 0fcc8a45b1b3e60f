// pugixml in its DOM model: load_buffer (copying) and load_buffer_inplace (in situ).
#include <pugixml.hpp>

#include <string>
#include <vector>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"

namespace sb {
namespace {

// parse_default plus parse_doctype, so that a DOCTYPE becomes a node the policy can reject;
// without it pugixml skips the DOCTYPE silently (costs nothing on documents without one); plus
// parse_ws_pcdata_single, pugixml's documented option for the whitespace-only text of an element
// with no other child (<string>   </string> is "   ", an XML-RPC value), which parse_default
// drops. It keeps only that: the whitespace between elements stays out of the tree, and the
// Digest drops such runs anyway (docs/architecture.md, "Text a library drops").
constexpr unsigned kParseOptions =
    pugi::parse_default | pugi::parse_doctype | pugi::parse_ws_pcdata_single;

template <bool kInplace>
class PugixmlDom {
 public:
  static constexpr Format kFormat = Format::xml;

  explicit PugixmlDom(const Limits& limits) : limits_(limits) {}

  Status parse(MessageBuffer& message) {
    pugi::xml_parse_result r =
        kInplace
            ? doc_.load_buffer_inplace(message.data(), message.size(), kParseOptions,
                                       pugi::encoding_utf8)
            : doc_.load_buffer(message.data(), message.size(), kParseOptions, pugi::encoding_utf8);
    if (!r) return Status::malformed(r.description(), Location{.offset = r.offset});
    for (pugi::xml_node n = doc_.first_child(); n; n = n.next_sibling()) {
      if (n.type() == pugi::node_doctype && !limits_.allow_doctype) {
        return doctype_refused();
      }
    }
    return Status::success();
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    Status s = parse(message);
    if (!s.ok()) return s;
    pugi::xml_node root = doc_.document_element();
    if (!root) return Status::malformed("no root element");
    return emit_tree(root, sink);
  }

 private:
  // Iterative pre-order walk (no recursion, so depth is bounded only by the limit).
  template <class Sink>
  Status emit_tree(pugi::xml_node root, Sink& sink) {
    pugi::xml_node n = root;
    std::size_t depth = 0;
    for (;;) {
      const pugi::xml_node_type type = n.type();
      if (type == pugi::node_element) {
        if (++depth > limits_.max_depth) return too_deep(limits_.max_depth);
        attributes_.clear();
        for (pugi::xml_attribute a = n.first_attribute(); a; a = a.next_attribute()) {
          attributes_.push_back({a.name(), a.value()});
        }
        if (!sink.start_element(n.name(), attributes_)) return Status::stopped();
        if (pugi::xml_node child = n.first_child()) {
          n = child;
          continue;
        }
        if (!sink.end_element(n.name())) return Status::stopped();
        --depth;
      } else if (type == pugi::node_pcdata || type == pugi::node_cdata) {
        if (!sink.text(n.value())) return Status::stopped();
      }
      // Advance: the next sibling, or close parents until one has a next sibling.
      for (;;) {
        if (n == root) return Status::success();
        if (pugi::xml_node next = n.next_sibling()) {
          n = next;
          break;
        }
        n = n.parent();
        if (!sink.end_element(n.name())) return Status::stopped();
        --depth;
      }
    }
  }

  Limits limits_;                         // depth and DOCTYPE policy
  pugi::xml_document doc_;                // reused; each load frees the previous tree
  std::vector<XmlAttribute> attributes_;  // scratch for one element's attributes
};

std::string pugixml_version() {
  // pugixml exposes no run-time version; PUGIXML_VERSION is major*1000+minor*10 since 1.10.
  return std::to_string(PUGIXML_VERSION / 1000) + "." + std::to_string(PUGIXML_VERSION % 1000 / 10);
}

AdapterInfo pugixml_info(bool inplace) {
  return AdapterInfo{
      .name = inplace ? "pugixml/dom-inplace" : "pugixml/dom",
      .library = "pugixml",
      .version = pugixml_version(),
      .format = Format::xml,
      .model = Model::dom,
      .mode = inplace ? "load_buffer_inplace, parse_default|parse_doctype|parse_ws_pcdata_single"
                      : "load_buffer, parse_default|parse_doctype|parse_ws_pcdata_single",
      .validates_utf8 = false,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = inplace,
      .reuses_state = true,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes = std::string("xml_document reused (its pages are freed on each load); ") +
               (inplace ? "parses in the caller's buffer" : "copies the input") +
               "; unknown entity references are kept as text; lenient by design: rejects 42% of "
               "the W3C suite's not-well-formed documents without a DOCTYPE (the XML "
               "declaration, name characters and comments are not checked; docs/conformance.md); "
               "parse_ws_pcdata_single keeps an element's whitespace-only text when it has no "
               "other child; beside a comment or CDATA section inside a value such text is "
               "dropped, and decode restores it from the message (parsers/leaf_text.h)",
      .keeps_whitespace_text = true,
      .decode_restores_text = TextLoss::runs_by_markup,
      .reads_declared_encoding = false,  // encoding_utf8: the bytes are read as UTF-8
  };
}

}  // namespace

const AdapterInfo& pugixml_dom_info() {
  static const AdapterInfo info = pugixml_info(false);
  return info;
}
std::unique_ptr<Adapter> make_pugixml_dom(const Limits& limits) {
  return make_adapter<PugixmlDom<false>>(pugixml_dom_info(), limits);
}

const AdapterInfo& pugixml_dom_inplace_info() {
  static const AdapterInfo info = pugixml_info(true);
  return info;
}
std::unique_ptr<Adapter> make_pugixml_dom_inplace(const Limits& limits) {
  return make_adapter<PugixmlDom<true>>(pugixml_dom_inplace_info(), limits);
}

}  // namespace sb
