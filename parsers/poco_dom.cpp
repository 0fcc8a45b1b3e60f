// Poco in its DOM model: Poco::XML::DOMBuilder over a SAXParser, what DOMParser::parseMemory
// does, with a guard in the builder's own callbacks (DOMParser takes no builder of ours).
#include <Poco/AutoPtr.h>
#include <Poco/DOM/DOMBuilder.h>
#include <Poco/DOM/Document.h>
#include <Poco/DOM/Element.h>
#include <Poco/DOM/NamedNodeMap.h>
#include <Poco/DOM/Node.h>
#include <Poco/DOM/Text.h>
#include <Poco/SAX/SAXParser.h>

#include <string>
#include <vector>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/poco_common.h"

namespace sb {
namespace {

using Poco::XML::Node;
using Poco::XML::XMLString;

// DOMBuilder plus the depth and DOCTYPE policy, applied in the builder's callbacks while Expat
// runs. Depth must be bounded while building: Poco frees a tree recursively (a 100,000-deep one
// would overflow the stack). A DOCTYPE is refused at startDTD, before its subset is read.
class GuardedBuilder final : public Poco::XML::DOMBuilder {
 public:
  GuardedBuilder(Poco::XML::XMLReader& reader, const Limits& limits, Status& status)
      : DOMBuilder(reader), limits_(limits), status_(status) {}

  // Called before every parse.
  void begin() { depth_ = 0; }

 protected:
  void startElement(const XMLString& uri, const XMLString& local, const XMLString& qname,
                    const Poco::XML::Attributes& attributes) override {
    if (++depth_ > limits_.max_depth) abort(too_deep(limits_.max_depth));
    DOMBuilder::startElement(uri, local, qname, attributes);
  }
  void endElement(const XMLString& uri, const XMLString& local, const XMLString& qname) override {
    --depth_;
    DOMBuilder::endElement(uri, local, qname);
  }
  void startDTD(const XMLString& name, const XMLString& public_id,
                const XMLString& system_id) override {
    if (!limits_.allow_doctype) abort(doctype_refused());
    DOMBuilder::startDTD(name, public_id, system_id);
  }

 private:
  [[noreturn]] void abort(Status s) {
    status_ = std::move(s);
    throw poco::Abort{};
  }

  Limits limits_;          // depth and DOCTYPE policy
  Status& status_;         // the adapter's failure slot
  std::size_t depth_ = 0;  // open elements
};

class PocoDom {
 public:
  static constexpr Format kFormat = Format::xml;

  explicit PocoDom(const Limits& limits) : limits_(limits), builder_(parser_, limits, status_) {
    // DOMBuilder reads the namespace feature at every parse, so configuring after it is made
    // is enough.
    poco::configure(parser_);
  }

  Status parse(MessageBuffer& message) {
    doc_ = nullptr;  // the previous message's tree is released here
    builder_.begin();
    return poco::run_guarded(
        status_, [&] { doc_ = builder_.parseMemoryNP(message.data(), message.size()); });
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    Status s = parse(message);
    if (!s.ok()) return s;
    const Node* root = doc_->documentElement();
    if (root == nullptr) return Status::malformed("no root element");
    return emit_tree(root, sink);
  }

 private:
  // Iterative pre-order walk (no recursion). Names, values and text are UTF-8 std::strings.
  template <class Sink>
  Status emit_tree(const Node* root, Sink& sink) {
    const Node* n = root;
    std::size_t depth = 0;
    for (;;) {
      const unsigned short type = n->nodeType();
      if (type == Node::ELEMENT_NODE) {
        if (++depth > limits_.max_depth) return too_deep(limits_.max_depth);
        if (!sink.start_element(n->nodeName(), attributes_of(n))) return Status::stopped();
        if (const Node* child = n->firstChild()) {
          n = child;
          continue;
        }
        if (!sink.end_element(n->nodeName())) return Status::stopped();
        --depth;
      } else if (type == Node::TEXT_NODE || type == Node::CDATA_SECTION_NODE) {
        if (!sink.text(static_cast<const Poco::XML::Text*>(n)->data())) return Status::stopped();
      }
      // Advance: the next sibling, or close parents until one has a next sibling.
      for (;;) {
        if (n == root) return Status::success();
        if (const Node* next = n->nextSibling()) {
          n = next;
          break;
        }
        n = n->parentNode();
        if (!sink.end_element(n->nodeName())) return Status::stopped();
        --depth;
      }
    }
  }

  // An element's attributes in document order. The public way to them is attributes(), a new
  // NamedNodeMap per call; from its first item the Attr nodes are a linked list.
  XmlAttributes attributes_of(const Node* element) {
    attributes_.clear();
    if (!element->hasAttributes()) return attributes_;
    const Poco::AutoPtr<Poco::XML::NamedNodeMap> map = element->attributes();
    for (const Node* a = map->item(0); a != nullptr; a = a->nextSibling()) {
      attributes_.push_back({a->nodeName(), a->getNodeValue()});
    }
    return attributes_;
  }

  Limits limits_;                           // depth and DOCTYPE policy
  Status status_;                           // failure stored by the builder before it throws
  Poco::XML::SAXParser parser_;             // reused; configured once
  GuardedBuilder builder_;                  // reused; a new Document per parse
  Poco::AutoPtr<Poco::XML::Document> doc_;  // the last message's tree
  std::vector<XmlAttribute> attributes_;    // scratch: one element's attributes
};

}  // namespace

const AdapterInfo& poco_dom_info() {
  static const AdapterInfo info{
      .name = "poco/dom",
      .library = "Poco",
      .version = poco::version(),
      .format = Format::xml,
      .model = Model::dom,
      .mode =
          "DOMBuilder(SAXParser)::parseMemoryNP as DOMParser::parseMemory, "
          "FEATURE_NAMESPACES=false, FEATURE_EXTERNAL_GENERAL_ENTITIES=false, "
          "FEATURE_EXTERNAL_PARAMETER_ENTITIES=false",
      .validates_utf8 = true,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = false,
      .reuses_state = true,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          "SAXParser and DOMBuilder reused, a new Document (and its NamePool) per message, and "
          "a new Expat parser per parse; every node is a heap object holding std::strings; "
          "depth and DOCTYPE refused in the builder's callbacks",
      // Expat underneath keeps several copies of a long attribute value.
      .decode_markup_guard = true,
  };
  return info;
}

std::unique_ptr<Adapter> make_poco_dom(const Limits& limits) {
  return make_adapter<PocoDom>(poco_dom_info(), limits);
}

}  // namespace sb
