// tinyxml2 in its DOM model: XMLDocument with its defaults (processEntities, PRESERVE_WHITESPACE),
// Parse(data, size), which copies the message into the document's own buffer.
#include <tinyxml2.h>

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"

namespace sb {
namespace {

// tinyxml2's parser recurses per level and stops at TINYXML2_MAX_ELEMENT_DEPTH: its count
// includes the document, so at most 98 nested elements parse in 9.0.0 (measured: 99 fail).
constexpr std::size_t kLibraryDepthLimit = TINYXML2_MAX_ELEMENT_DEPTH - 2;

class Tinyxml2Dom {
 public:
  static constexpr Format kFormat = Format::xml;

  explicit Tinyxml2Dom(const Limits& limits) : limits_(limits) {}

  Status parse(MessageBuffer& message) {
    // Parse() clears the previous tree itself (its node pools keep their blocks) and copies the
    // message. Its nesting limit (kLibraryDepthLimit) is a policy limit, reported as such.
    if (doc_.Parse(message.data(), message.size()) != tinyxml2::XML_SUCCESS) {
      const Location where{.line = doc_.ErrorLineNum() > 0 ? doc_.ErrorLineNum() : -1};
      if (doc_.ErrorID() == tinyxml2::XML_ELEMENT_DEPTH_EXCEEDED) {
        return Status::limit(doc_.ErrorStr(), where);
      }
      return Status::malformed(doc_.ErrorStr(), where);
    }
    // tinyxml2 keeps a DOCTYPE as an XMLUnknown whose value starts with "DOCTYPE" (it never
    // reads a DTD). Only top-level nodes are looked at: usually a declaration and the root.
    const tinyxml2::XMLElement* root = nullptr;
    for (const tinyxml2::XMLNode* n = doc_.FirstChild(); n; n = n->NextSibling()) {
      if (const tinyxml2::XMLUnknown* u = n->ToUnknown()) {
        if (!limits_.allow_doctype && std::strncmp(u->Value(), "DOCTYPE", 7) == 0) {
          return doctype_refused(Location{.line = u->GetLineNum()});
        }
      } else if (root == nullptr) {
        root = n->ToElement();
      }
    }
    // tinyxml2 accepts a document made only of comments or text.
    if (root == nullptr) return Status::malformed("no root element");
    // The library's own limit is stricter than the default policy; only a policy stricter still
    // needs a look at the tree (never with the defaults).
    if (limits_.max_depth < kLibraryDepthLimit && nests_too_deep(root)) {
      return too_deep(limits_.max_depth);
    }
    return Status::success();
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    Status s = parse(message);
    if (!s.ok()) return s;
    return emit_tree(doc_.RootElement(), sink);
  }

 private:
  // Whether elements nest deeper than limits_.max_depth below (and including) root; iterative.
  bool nests_too_deep(const tinyxml2::XMLElement* root) const {
    const tinyxml2::XMLElement* e = root;
    std::size_t depth = 1;
    for (;;) {
      if (depth > limits_.max_depth) return true;
      if (const tinyxml2::XMLElement* child = e->FirstChildElement()) {
        e = child;
        ++depth;
        continue;
      }
      for (;;) {
        if (e == root) return false;
        if (const tinyxml2::XMLElement* next = e->NextSiblingElement()) {
          e = next;
          break;
        }
        e = e->Parent()->ToElement();
        --depth;
      }
    }
  }

  // Iterative pre-order walk (no recursion). tinyxml2 hands out C strings, so every name and
  // value costs a strlen; open element names are kept so end tags do not pay it again. Text
  // includes CDATA (XMLText with CData() true).
  template <class Sink>
  Status emit_tree(const tinyxml2::XMLElement* root, Sink& sink) {
    const tinyxml2::XMLNode* n = root;
    open_.clear();
    for (;;) {
      if (const tinyxml2::XMLElement* e = n->ToElement()) {
        if (open_.size() >= limits_.max_depth) return too_deep(limits_.max_depth);
        attributes_.clear();
        for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
          attributes_.push_back({a->Name(), a->Value()});
        }
        const std::string_view name = e->Name();
        if (!sink.start_element(name, attributes_)) return Status::stopped();
        if (const tinyxml2::XMLNode* child = n->FirstChild()) {
          open_.push_back(name);
          n = child;
          continue;
        }
        if (!sink.end_element(name)) return Status::stopped();
      } else if (const tinyxml2::XMLText* t = n->ToText()) {
        if (!sink.text(t->Value())) return Status::stopped();
      }
      // Advance: the next sibling, or close parents until one has a next sibling.
      for (;;) {
        if (n == root) return Status::success();
        if (const tinyxml2::XMLNode* next = n->NextSibling()) {
          n = next;
          break;
        }
        n = n->Parent();
        if (!sink.end_element(open_.back())) return Status::stopped();
        open_.pop_back();
      }
    }
  }

  Limits limits_;  // depth and DOCTYPE policy
  // The library's defaults, spelled out: entity and character references decoded, whitespace
  // kept as written.
  tinyxml2::XMLDocument doc_{true, tinyxml2::PRESERVE_WHITESPACE};
  std::vector<XmlAttribute> attributes_;  // scratch for one element's attributes
  std::vector<std::string_view> open_;    // names of the open elements above the current node
};

std::string tinyxml2_version() {
  // tinyxml2 has no run-time version function: the header's TINYXML2_*_VERSION macros.
  return std::to_string(TINYXML2_MAJOR_VERSION) + "." + std::to_string(TINYXML2_MINOR_VERSION) +
         "." + std::to_string(TINYXML2_PATCH_VERSION);
}

}  // namespace

const AdapterInfo& tinyxml2_dom_info() {
  static const AdapterInfo info{
      .name = "tinyxml2/dom",
      .library = "tinyxml2",
      .version = tinyxml2_version(),
      .format = Format::xml,
      .model = Model::dom,
      .mode = "XMLDocument(processEntities=true, PRESERVE_WHITESPACE), Parse(data, size)",
      .validates_utf8 = false,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = false,
      .reuses_state = true,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          "XMLDocument reused (node pools keep their blocks; each Parse copies the message); "
          "text and attribute values are decoded lazily on first access, so parse excludes "
          "that work and walk includes it; nesting limited by the library to " +
          std::to_string(kLibraryDepthLimit) +
          " elements; unknown entity references kept as text; refuses a processing instruction "
          "that is not first in the document (after a comment, inside an element: "
          "XML_ERROR_PARSING_DECLARATION), so it cannot read such XML-RPC messages; lenient by "
          "design: rejects 43% of the W3C suite's not-well-formed documents without a DOCTYPE "
          "(docs/conformance.md); whitespace-only text is dropped (9.0 has no option to keep it; "
          "10.0's PEDANTIC_WHITESPACE came later): decode restores it from the message "
          "(parsers/leaf_text.h)",
      .keeps_whitespace_text = false,
      .decode_restores_text = TextLoss::whitespace_runs,
      .reads_declared_encoding = false,  // tinyxml2 reads UTF-8 only (its documentation)
      // The library is quadratic in attributes per element: decode pre-scans the bounds.
      .decode_markup_guard = true,
  };
  return info;
}
std::unique_ptr<Adapter> make_tinyxml2_dom(const Limits& limits) {
  return make_adapter<Tinyxml2Dom>(tinyxml2_dom_info(), limits);
}

}  // namespace sb
