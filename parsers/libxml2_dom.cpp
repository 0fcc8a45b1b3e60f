// libxml2 in its DOM model: xmlCtxtReadMemory on a reused parser context, then an iterative
// walk of the xmlDoc tree.
#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include <climits>
#include <string>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/libxml2_common.h"

namespace sb {
namespace {

using libxml2::AttributeScratch;
using libxml2::view;

class Libxml2Dom {
 public:
  static constexpr Format kFormat = Format::xml;

  explicit Libxml2Dom(const Limits& limits) : limits_(limits) { libxml2::ensure_ready(); }
  ~Libxml2Dom() {
    release_doc();
    if (ctxt_ != nullptr) xmlFreeParserCtxt(ctxt_);
  }
  Libxml2Dom(const Libxml2Dom&) = delete;
  Libxml2Dom& operator=(const Libxml2Dom&) = delete;

  Status parse(MessageBuffer& message) {
    libxml2::ensure_ready();
    release_doc();
    if (message.size() > INT_MAX) return Status::limit("message larger than INT_MAX bytes");
    if (!ready_context()) return Status::malformed("libxml2: cannot create a parser context");
    errors_.reset();
    refusal_ = Status::success();
    doc_ = xmlCtxtReadMemory(ctxt_, message.data(), static_cast<int>(message.size()), nullptr,
                             nullptr, libxml2::kParseOptions);
    if (!refusal_.ok()) {
      release_doc();
      return refusal_;
    }
    if (doc_ == nullptr) return errors_.failure(xmlCtxtGetLastError(ctxt_));
    return Status::success();
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    Status s = parse(message);
    if (!s.ok()) return s;
    xmlNodePtr root = xmlDocGetRootElement(doc_);
    if (root == nullptr) return Status::malformed("no root element");
    return emit_tree(root, sink);
  }

 private:
  // (Re)creates the context when missing or when its dictionary grew past the bound, and hooks
  // the three SAX2 callbacks the policy needs; the rest stay libxml2's tree builders.
  bool ready_context() {
    if (ctxt_ != nullptr && !libxml2::dictionary_full(ctxt_->dict)) return true;
    if (ctxt_ != nullptr) xmlFreeParserCtxt(ctxt_);
    ctxt_ = xmlNewParserCtxt();
    if (ctxt_ == nullptr) return false;
    ctxt_->_private = this;
    ctxt_->sax->internalSubset = &on_internal_subset;
    ctxt_->sax->startElementNs = &on_start_element;
    ctxt_->sax->serror = &on_error;
    return true;
  }

  void release_doc() {
    if (doc_ != nullptr) xmlFreeDoc(doc_);
    doc_ = nullptr;
  }

  // The adapter of a context; nullptr in contexts libxml2 creates itself (entity content,
  // only reachable when a DOCTYPE is allowed), which then get libxml2's plain behaviour.
  static Libxml2Dom* self(void* ctx) {
    return static_cast<Libxml2Dom*>(static_cast<xmlParserCtxtPtr>(ctx)->_private);
  }

  // DOCTYPE policy: refuses before the internal subset is read, so entity declarations are
  // never parsed; otherwise libxml2's own handler records the DTD.
  static void on_internal_subset(void* ctx, const xmlChar* name, const xmlChar* external_id,
                                 const xmlChar* system_id) {
    auto* ctxt = static_cast<xmlParserCtxtPtr>(ctx);
    Libxml2Dom* me = self(ctx);
    if (me != nullptr && !me->limits_.allow_doctype) {
      me->refusal_ = doctype_refused(libxml2::where(ctxt));
      xmlStopParser(ctxt);
      return;
    }
    xmlSAX2InternalSubset(ctx, name, external_id, system_id);
  }

  // Depth policy while the tree is built (ctxt->nameNr counts the open ancestors at this
  // point); libxml2's own limit (256 without XML_PARSE_HUGE) also stays on.
  static void on_start_element(void* ctx, const xmlChar* localname, const xmlChar* prefix,
                               const xmlChar* uri, int nb_namespaces, const xmlChar** namespaces,
                               int nb_attributes, int nb_defaulted, const xmlChar** attributes) {
    auto* ctxt = static_cast<xmlParserCtxtPtr>(ctx);
    Libxml2Dom* me = self(ctx);
    if (me != nullptr && static_cast<std::size_t>(ctxt->nameNr) >= me->limits_.max_depth) {
      me->refusal_ = too_deep(me->limits_.max_depth, libxml2::where(ctxt));
      xmlStopParser(ctxt);
      return;
    }
    xmlSAX2StartElementNs(ctx, localname, prefix, uri, nb_namespaces, namespaces, nb_attributes,
                          nb_defaulted, attributes);
  }

  // Structured error handler: records instead of printing (ctx is the context's userData).
  static void on_error(void* ctx, xmlErrorPtr e) {
    if (Libxml2Dom* me = self(ctx)) me->errors_.record(e);
  }

  std::string_view element_name(xmlNodePtr n) {
    return libxml2::qname(n->ns != nullptr ? n->ns->prefix : nullptr, n->name, qname_);
  }

  // Namespace declarations as xmlns/xmlns:p, then attributes with their qualified names. A
  // value that is one text node is borrowed; anything else (entity reference nodes, only
  // possible with an allowed DOCTYPE) goes through xmlNodeListGetString into the arena.
  XmlAttributes element_attributes(xmlNodePtr n) {
    attributes_.clear();
    for (xmlNsPtr ns = n->nsDef; ns != nullptr; ns = ns->next) {
      attributes_.add(ns->prefix != nullptr ? attributes_.compose("xmlns", view(ns->prefix))
                                            : AttributeScratch::borrow("xmlns"),
                      AttributeScratch::borrow(ns->href));
    }
    for (xmlAttrPtr a = n->properties; a != nullptr; a = a->next) {
      const AttributeScratch::Piece name =
          a->ns != nullptr && a->ns->prefix != nullptr
              ? attributes_.compose(view(a->ns->prefix), view(a->name))
              : AttributeScratch::borrow(a->name);
      xmlNodePtr c = a->children;
      AttributeScratch::Piece value;
      if (c == nullptr) {
        value = AttributeScratch::borrow("");
      } else if (c->next == nullptr && c->type == XML_TEXT_NODE) {
        value = AttributeScratch::borrow(c->content);
      } else {
        xmlChar* s = xmlNodeListGetString(doc_, c, 1);
        value = attributes_.copy(view(s));
        xmlFree(s);
      }
      attributes_.add(name, value);
    }
    return attributes_.finish();
  }

  // Iterative pre-order walk (no recursion, so depth is bounded only by the limit).
  template <class Sink>
  Status emit_tree(xmlNodePtr root, Sink& sink) {
    xmlNodePtr n = root;
    std::size_t depth = 0;
    for (;;) {
      switch (n->type) {
        case XML_ELEMENT_NODE:
          if (++depth > limits_.max_depth) return too_deep(limits_.max_depth);
          if (!sink.start_element(element_name(n), element_attributes(n))) return Status::stopped();
          if (n->children != nullptr) {
            n = n->children;
            continue;
          }
          if (!sink.end_element(element_name(n))) return Status::stopped();
          --depth;
          break;
        case XML_TEXT_NODE:
        case XML_CDATA_SECTION_NODE:
          if (!sink.text(view(n->content))) return Status::stopped();
          break;
        case XML_ENTITY_REF_NODE: {
          // Only with an allowed DOCTYPE (no XML_PARSE_NOENT): its replacement text, as text.
          xmlChar* s = xmlNodeGetContent(n);
          const bool more = sink.text(view(s));
          xmlFree(s);
          if (!more) return Status::stopped();
          break;
        }
        default:  // comments, processing instructions
          break;
      }
      // Advance: the next sibling, or close parents until one has a next sibling.
      for (;;) {
        if (n == root) return Status::success();
        if (n->next != nullptr) {
          n = n->next;
          break;
        }
        n = n->parent;
        if (!sink.end_element(element_name(n))) return Status::stopped();
        --depth;
      }
    }
  }

  Limits limits_;                    // depth and DOCTYPE policy
  xmlParserCtxtPtr ctxt_ = nullptr;  // reused parser context (xmlCtxtReadMemory resets it)
  xmlDocPtr doc_ = nullptr;          // the last message's tree, freed before the next parse
  Status refusal_;                   // a policy refusal raised inside a callback
  libxml2::ErrorCapture errors_;     // the first error of the current message
  std::string qname_;                // scratch: "prefix:local" of an element
  AttributeScratch attributes_;      // scratch: one element's attributes
};

}  // namespace

const AdapterInfo& libxml2_dom_info() {
  static const AdapterInfo info{
      .name = "libxml2/dom",
      .library = "libxml2",
      .version = libxml2::version(),
      .format = Format::xml,
      .model = Model::dom,
      .mode = std::string("xmlCtxtReadMemory, ") + libxml2::kParseOptionsName,
      .validates_utf8 = true,
      .expands_entities = true,
      .processes_namespaces = true,
      .modifies_input = false,
      .reuses_state = true,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          "parser context (and its name dictionary) reused, previous xmlDoc freed per "
          "message; copies the input; predefined and character references decoded, "
          "user entities not substituted (no XML_PARSE_NOENT); libxml2's own depth limit "
          "256 also applies",
      // The library is quadratic in attributes per element: decode pre-scans the bounds.
      .decode_markup_guard = true,
  };
  return info;
}

std::unique_ptr<Adapter> make_libxml2_dom(const Limits& limits) {
  return make_adapter<Libxml2Dom>(libxml2_dom_info(), limits);
}

}  // namespace sb
