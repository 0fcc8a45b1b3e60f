// Xerces-C++ in its DOM model: XercesDOMParser, reused for every message.
#include <xercesc/dom/DOM.hpp>
#include <xercesc/framework/XMLElementDecl.hpp>
#include <xercesc/parsers/XercesDOMParser.hpp>
#include <xercesc/util/SecurityManager.hpp>
#include <xercesc/validators/DTD/DTDElementDecl.hpp>

#include <string>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/xerces_common.h"

namespace sb {
namespace {

using xercesc::DOMNode;

// XercesDOMParser plus two policy checks made while the scanner runs, both through the
// parser's own document-handler hooks (no extra pass, nothing on documents without a DOCTYPE):
// - depth: Xerces' scanner and DOM builder are iterative (and releasing a document frees its
//   heap without visiting nodes), so depth cannot overflow our stack; still, a 100,000-deep
//   message would be built in full before the walk could refuse it, so the limit is applied
//   here, at the element that crosses it, for `parse` and `walk` alike;
// - DOCTYPE: refused when the scanner reports it, before its internal subset is read.
//   Xerces 3.2.4 has no public "disallow DOCTYPE" switch on XercesDOMParser (only
//   DOMLSParser's "disallow-doctype" and the scanner's internal setDisallowDTD).
// Both unwind with xerces::Abort after storing the reason in status.
class GuardedDomParser final : public xercesc::XercesDOMParser {
 public:
  GuardedDomParser(const Limits& limits, Status& status) : limits_(limits), status_(status) {}

  // Called before every parse.
  void begin() { depth_ = 0; }

  void startElement(const xercesc::XMLElementDecl& decl, const unsigned int url_id,
                    const XMLCh* const prefix, const xercesc::RefVectorOf<xercesc::XMLAttr>& attrs,
                    const XMLSize_t attr_count, const bool is_empty, const bool is_root) override {
    // The scanner calls endElement for empty elements (<a/>) too, so every start counts.
    if (++depth_ > limits_.max_depth) abort(too_deep(limits_.max_depth));
    XercesDOMParser::startElement(decl, url_id, prefix, attrs, attr_count, is_empty, is_root);
  }

  void endElement(const xercesc::XMLElementDecl& decl, const unsigned int url_id,
                  const bool is_root, const XMLCh* const prefix) override {
    --depth_;
    XercesDOMParser::endElement(decl, url_id, is_root, prefix);
  }

  void doctypeDecl(const xercesc::DTDElementDecl& root, const XMLCh* const public_id,
                   const XMLCh* const system_id, const bool has_int_subset,
                   const bool has_ext_subset) override {
    if (!limits_.allow_doctype) abort(doctype_refused());
    XercesDOMParser::doctypeDecl(root, public_id, system_id, has_int_subset, has_ext_subset);
  }

 private:
  [[noreturn]] void abort(Status s) {
    status_ = std::move(s);
    throw xerces::Abort{};
  }

  Limits limits_;          // depth and DOCTYPE policy
  Status& status_;         // the adapter's failure slot
  std::size_t depth_ = 0;  // open elements
};

class XercesDom {
 public:
  static constexpr Format kFormat = Format::xml;

  explicit XercesDom(const Limits& limits)
      : limits_(limits), errors_(status_, utf8_), parser_(limits, status_) {
    // XercesDOMParser defaults kept: doNamespaces false (qualified names as written, no
    // namespace checks), Val_Never (set explicitly only to document it), comment nodes created.
    parser_.setValidationScheme(xercesc::XercesDOMParser::Val_Never);
    // Entity references expanded into text nodes rather than kept as EntityReference subtrees;
    // matters only when a DOCTYPE is allowed and declares entities.
    parser_.setCreateEntityReferenceNodes(false);
    // Nothing outside the message is ever read: no external DTD subset, and no default
    // resolution (file or network) of any external entity or grammar.
    parser_.setLoadExternalDTD(false);
    parser_.setDisableDefaultEntityResolution(true);
    // Bounds entity expansion (SecurityManager default: 50,000 expansions per document).
    parser_.setSecurityManager(&security_);
    // Errors go to the recorder: nothing is printed, the first one stops the parse.
    parser_.setErrorHandler(&errors_);
  }

  Status parse(MessageBuffer& message) {
    // Documents the parser made are kept in its pool until reset: free the previous message's
    // document here so memory does not grow across messages.
    parser_.resetDocumentPool();
    parser_.begin();
    return xerces::run_guarded(status_, utf8_, [&] { parser_.parse(source_.over(message)); });
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    Status s = parse(message);
    if (!s.ok()) return s;
    const xercesc::DOMDocument* doc = parser_.getDocument();
    const DOMNode* root = doc ? doc->getDocumentElement() : nullptr;
    if (!root) return Status::malformed("no root element");
    return emit_tree(root, sink);
  }

 private:
  // Iterative pre-order walk (no recursion). The parser already refused nesting beyond the
  // limit; the check here keeps the walk safe on its own.
  template <class Sink>
  Status emit_tree(const DOMNode* root, Sink& sink) {
    const DOMNode* n = root;
    std::size_t depth = 0;
    for (;;) {
      const DOMNode::NodeType type = n->getNodeType();
      if (type == DOMNode::ELEMENT_NODE) {
        if (++depth > limits_.max_depth) return too_deep(limits_.max_depth);
        attributes_.clear();
        if (const xercesc::DOMNamedNodeMap* attrs = n->getAttributes()) {
          const XMLSize_t count = attrs->getLength();
          for (XMLSize_t i = 0; i < count; ++i) {
            const DOMNode* a = attrs->item(i);
            attributes_.add(utf8_, a->getNodeName(), a->getNodeValue());
          }
        }
        const std::string_view name = names_.push(utf8_, depth, n->getNodeName());
        if (!sink.start_element(name, attributes_.views())) return Status::stopped();
        if (const DOMNode* child = n->getFirstChild()) {
          n = child;
          continue;
        }
        if (!sink.end_element(names_.at(depth))) return Status::stopped();
        --depth;
      } else if (type == DOMNode::TEXT_NODE || type == DOMNode::CDATA_SECTION_NODE) {
        // DOMCDATASection is a DOMText; both are DOMCharacterData with a known length.
        const auto* t = static_cast<const xercesc::DOMCharacterData*>(n);
        if (!sink.text(utf8_.convert(t->getData(), t->getLength(), text_))) {
          return Status::stopped();
        }
      }
      // Advance: the next sibling, or close parents until one has a next sibling.
      for (;;) {
        if (n == root) return Status::success();
        if (const DOMNode* next = n->getNextSibling()) {
          n = next;
          break;
        }
        n = n->getParentNode();
        if (!sink.end_element(names_.at(depth))) return Status::stopped();
        --depth;
      }
    }
  }

  xerces::InitToken init_;               // Xerces initialized before the members below
  Limits limits_;                        // depth and DOCTYPE policy
  Status status_;                        // failure stored by the handlers before they unwind
  xerces::Utf8Transcoder utf8_;          // UTF-16 -> UTF-8 for every string handed to the sink
  xerces::ErrorRecorder errors_;         // records the first error, silences Xerces
  xercesc::SecurityManager security_;    // entity expansion bound
  xerces::MessageSource source_;         // reads the MessageBuffer in place
  GuardedDomParser parser_;              // reused across messages; documents freed per parse
  xerces::AttributeScratch attributes_;  // one element's attributes in UTF-8
  xerces::NameStack names_;              // UTF-8 names of the open elements
  std::string text_;                     // UTF-8 of one text node
};

}  // namespace

const AdapterInfo& xerces_dom_info() {
  static const AdapterInfo info{
      .name = "xerces/dom",
      .library = "Xerces-C++",
      .version = xerces::version(),
      .format = Format::xml,
      .model = Model::dom,
      .mode =
          "XercesDOMParser defaults (doNamespaces=false, Val_Never), "
          "setCreateEntityReferenceNodes(false), setLoadExternalDTD(false), "
          "setDisableDefaultEntityResolution(true), SecurityManager; "
          "MemBufInputSource(copyBufToStream=false)",
      .validates_utf8 = true,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = false,
      .reuses_state = true,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          "parser, UTF-8 transcoder and input source reused, each document freed before "
          "the next parse; Xerces works in UTF-16, so every name, value and text is "
          "transcoded to UTF-8 for the walk (an inherent cost with a UTF-8 consumer); "
          "depth and DOCTYPE refused while scanning",
      // The library keeps several copies of a long attribute value: decode pre-scans the bounds.
      .decode_markup_guard = true,
  };
  return info;
}
std::unique_ptr<Adapter> make_xerces_dom(const Limits& limits) {
  return make_adapter<XercesDom>(xerces_dom_info(), limits);
}

}  // namespace sb
