// libxml2 in its SAX2 model: startElementNs/endElementNs/characters/cdataBlock callbacks on a
// reused parser context, driven by xmlCtxtReadMemory (no tree is built: the handler has no
// startDocument and no tree builders).
#include <libxml/SAX2.h>
#include <libxml/parser.h>

#include <climits>
#include <cstring>
#include <string>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/libxml2_common.h"
#include "parsers/null_sink.h"

namespace sb {
namespace {

using libxml2::AttributeScratch;
using libxml2::view;

class Libxml2Sax {
 public:
  static constexpr Format kFormat = Format::xml;

  explicit Libxml2Sax(const Limits& limits) : limits_(limits) { libxml2::ensure_ready(); }
  ~Libxml2Sax() {
    if (ctxt_ != nullptr) xmlFreeParserCtxt(ctxt_);
  }
  Libxml2Sax(const Libxml2Sax&) = delete;
  Libxml2Sax& operator=(const Libxml2Sax&) = delete;

  Status parse(MessageBuffer& message) {
    NullSink sink;
    return run(message, sink);
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    return run(message, sink);
  }

 private:
  template <class Sink>
  Status run(MessageBuffer& message, Sink& sink) {
    libxml2::ensure_ready();
    if (message.size() > INT_MAX) return Status::limit("message larger than INT_MAX bytes");
    if (!ready_context()) return Status::malformed("libxml2: cannot create a parser context");
    // The handler is chosen per call (it is typed on the sink): a struct copy, no allocation.
    *ctxt_->sax = handler<Sink>();
    ctxt_->userData = this;  // callbacks receive the adapter, also from entity sub-contexts
    sink_ = &sink;
    errors_.reset();
    refusal_ = Status::success();
    depth_ = 0;
    stopped_ = false;
    halted_ = false;
    // Returns ctxt->myDoc, which stays null (no startDocument) unless an allowed DOCTYPE made
    // one to hold its entity declarations.
    if (xmlDocPtr doc = xmlCtxtReadMemory(ctxt_, message.data(), static_cast<int>(message.size()),
                                          nullptr, nullptr, libxml2::kParseOptions)) {
      xmlFreeDoc(doc);
    }
    sink_ = nullptr;
    if (stopped_) return Status::stopped();
    if (!refusal_.ok()) return refusal_;
    // libxml2's verdict: fatal errors clear wellFormed; namespace errors (an unbound prefix)
    // only clear nsWellFormed and, as in its tree builder, do not reject the document.
    if (!ctxt_->wellFormed) return errors_.failure(xmlCtxtGetLastError(ctxt_));
    return Status::success();
  }

  // (Re)creates the context when missing or when its dictionary grew past the bound.
  bool ready_context() {
    if (ctxt_ != nullptr && !libxml2::dictionary_full(ctxt_->dict)) return true;
    if (ctxt_ != nullptr) xmlFreeParserCtxt(ctxt_);
    ctxt_ = xmlNewParserCtxt();
    return ctxt_ != nullptr;
  }

  template <class Sink>
  static xmlSAXHandler handler() {
    xmlSAXHandler h;
    std::memset(&h, 0, sizeof h);
    h.initialized = XML_SAX2_MAGIC;  // SAX2: namespaces resolved, startElementNs/endElementNs
    h.startElementNs = &on_start_element<Sink>;
    h.endElementNs = &on_end_element<Sink>;
    h.characters = &on_characters<Sink>;
    // The same function for ignorable whitespace makes libxml2 skip its blank detection, as
    // its own default handler does (keepBlanks).
    h.ignorableWhitespace = &on_characters<Sink>;
    h.cdataBlock = &on_characters<Sink>;
    h.serror = &on_error;
    // DTD callbacks: only reached with a DOCTYPE, refused by on_internal_subset unless
    // allowed; then entity declarations are kept so that internal entities resolve.
    h.internalSubset = &on_internal_subset;
    h.entityDecl = &on_entity_decl;
    h.getEntity = &on_get_entity;
    h.getParameterEntity = &on_get_parameter_entity;
    return h;
  }

  // The adapter: every callback's first argument is ctxt->userData (set in run), except the
  // error handler's in one case (on_error).
  static Libxml2Sax& self(void* ctx) { return *static_cast<Libxml2Sax*>(ctx); }

  // Ends the parse from inside a callback; libxml2 calls nothing more after xmlStopParser
  // (disableSAX), halted_ covers entity sub-contexts.
  void halt() {
    halted_ = true;
    xmlStopParser(ctxt_);
  }

  template <class Sink>
  static void on_start_element(void* ctx, const xmlChar* localname, const xmlChar* prefix,
                               const xmlChar*, int nb_namespaces, const xmlChar** namespaces,
                               int nb_attributes, int, const xmlChar** attributes) {
    Libxml2Sax& me = self(ctx);
    if (me.halted_) return;
    // libxml2's own limit (256 without XML_PARSE_HUGE) also stays on.
    if (++me.depth_ > me.limits_.max_depth) {
      me.refusal_ = too_deep(me.limits_.max_depth, libxml2::where(me.ctxt_));
      me.halt();
      return;
    }
    AttributeScratch& attrs = me.attributes_;
    attrs.clear();
    // Namespace declarations as written: (prefix, URI) pairs.
    for (int i = 0; i < nb_namespaces; ++i) {
      const xmlChar* ns_prefix = namespaces[2 * i];
      const xmlChar* uri = namespaces[2 * i + 1];
      attrs.add(ns_prefix != nullptr ? attrs.compose("xmlns", view(ns_prefix))
                                     : AttributeScratch::borrow("xmlns"),
                AttributeScratch::borrow(uri != nullptr ? uri : BAD_CAST ""));
    }
    // (localname, prefix, URI, value, end) per attribute.
    for (int i = 0; i < nb_attributes; ++i) {
      const xmlChar** a = attributes + 5 * i;
      const AttributeScratch::Piece name =
          a[1] != nullptr ? attrs.compose(view(a[1]), view(a[0])) : AttributeScratch::borrow(a[0]);
      attrs.add(name, me.attribute_value(reinterpret_cast<const char*>(a[3]),
                                         reinterpret_cast<const char*>(a[4])));
    }
    Sink& sink = *static_cast<Sink*>(me.sink_);
    if (!sink.start_element(libxml2::qname(prefix, localname, me.qname_), attrs.finish())) {
      me.stopped_ = true;
      me.halt();
    }
  }

  // Without XML_PARSE_NOENT libxml2 hands SAX2 users an attribute value in which every '&' is
  // still written "&#38;" (its tree builder re-parses the value; see xmlParseAttValueComplex),
  // all other references already decoded. Decoding that one form keeps the value borrowed in
  // the common case (no '&'). With an allowed DOCTYPE, user entity references stay as written.
  AttributeScratch::Piece attribute_value(const char* value, const char* end) {
    const std::size_t size = static_cast<std::size_t>(end - value);
    const char* amp = static_cast<const char*>(std::memchr(value, '&', size));
    if (amp == nullptr) return AttributeScratch::borrow(std::string_view(value, size));
    std::string& arena = attributes_.arena();
    const std::size_t start = arena.size();
    static constexpr std::string_view kAmp = "&#38;";
    const char* p = value;
    while (amp != nullptr) {
      // "&#38;" becomes '&'; any other '&' starts a user entity reference (allowed DOCTYPE
      // only), kept as written.
      const bool escaped =
          std::string_view(amp, static_cast<std::size_t>(end - amp)).starts_with(kAmp);
      arena.append(p, amp);
      arena.push_back('&');
      p = amp + (escaped ? kAmp.size() : 1);
      amp = static_cast<const char*>(std::memchr(p, '&', static_cast<std::size_t>(end - p)));
    }
    arena.append(p, end);
    return AttributeScratch::range(start, arena.size());
  }

  template <class Sink>
  static void on_end_element(void* ctx, const xmlChar* localname, const xmlChar* prefix,
                             const xmlChar*) {
    Libxml2Sax& me = self(ctx);
    if (me.halted_) return;
    --me.depth_;
    Sink& sink = *static_cast<Sink*>(me.sink_);
    if (!sink.end_element(libxml2::qname(prefix, localname, me.qname_))) {
      me.stopped_ = true;
      me.halt();
    }
  }

  template <class Sink>
  static void on_characters(void* ctx, const xmlChar* chars, int len) {
    Libxml2Sax& me = self(ctx);
    if (me.halted_) return;
    Sink& sink = *static_cast<Sink*>(me.sink_);
    if (!sink.text(std::string_view(reinterpret_cast<const char*>(chars),
                                    static_cast<std::size_t>(len)))) {
      me.stopped_ = true;
      me.halt();
    }
  }

  // DOCTYPE policy: refuses before the internal subset is read, so entity declarations are
  // never parsed. When allowed, a document is made to hold the declarations (libxml2's own
  // handlers need it); it is freed after the parse.
  static void on_internal_subset(void* ctx, const xmlChar* name, const xmlChar* external_id,
                                 const xmlChar* system_id) {
    Libxml2Sax& me = self(ctx);
    if (me.halted_) return;
    if (!me.limits_.allow_doctype) {
      me.refusal_ = doctype_refused(libxml2::where(me.ctxt_));
      me.halt();
      return;
    }
    if (me.ctxt_->myDoc == nullptr) xmlSAX2StartDocument(me.ctxt_);
    xmlSAX2InternalSubset(me.ctxt_, name, external_id, system_id);
  }

  static void on_entity_decl(void* ctx, const xmlChar* name, int type, const xmlChar* public_id,
                             const xmlChar* system_id, xmlChar* content) {
    xmlSAX2EntityDecl(self(ctx).ctxt_, name, type, public_id, system_id, content);
  }
  static xmlEntityPtr on_get_entity(void* ctx, const xmlChar* name) {
    return xmlSAX2GetEntity(self(ctx).ctxt_, name);
  }
  static xmlEntityPtr on_get_parameter_entity(void* ctx, const xmlChar* name) {
    return xmlSAX2GetParameterEntity(self(ctx).ctxt_, name);
  }

  // Structured error handler: records instead of printing. Its first argument is not always
  // userData: the DTD errors libxml2 raises through xmlValidityError (a token repeated in an
  // ATTLIST enumeration, W3C oasis/e2.xml) pass ctxt->vctxt.userData, the parser context
  // itself. e->ctxt is the raising context in both cases, and its userData is the adapter (entity
  // sub-contexts inherit it).
  static void on_error(void* ctx, xmlErrorPtr e) {
    if (e != nullptr && ctx == e->ctxt) ctx = static_cast<xmlParserCtxtPtr>(ctx)->userData;
    self(ctx).errors_.record(e);
  }

  Limits limits_;                    // depth and DOCTYPE policy
  xmlParserCtxtPtr ctxt_ = nullptr;  // reused parser context (xmlCtxtReadMemory resets it)
  void* sink_ = nullptr;             // the current call's sink (its type is the callbacks')
  std::size_t depth_ = 0;            // open elements
  Status refusal_;                   // a policy refusal raised inside a callback
  bool stopped_ = false;             // the sink asked to stop
  bool halted_ = false;              // no more events for this message
  libxml2::ErrorCapture errors_;     // the first error of the current message
  std::string qname_;                // scratch: "prefix:local" of an element
  AttributeScratch attributes_;      // scratch: one element's attributes
};

}  // namespace

const AdapterInfo& libxml2_sax_info() {
  static const AdapterInfo info{
      .name = "libxml2/sax",
      .library = "libxml2",
      .version = libxml2::version(),
      .format = Format::xml,
      .model = Model::sax,
      .mode = std::string("SAX2 handler, xmlCtxtReadMemory, ") + libxml2::kParseOptionsName,
      .validates_utf8 = true,
      .expands_entities = true,
      .processes_namespaces = true,
      .modifies_input = false,
      .reuses_state = true,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          "parser context (and its name dictionary) reused via xmlCtxtReadMemory with a "
          "SAX2 handler; copies the input; attribute values keep '&' as \"&#38;\" without "
          "XML_PARSE_NOENT, the adapter decodes that form; libxml2's own depth limit 256 "
          "also applies",
      // The library is quadratic in attributes per element: decode pre-scans the bounds.
      .decode_markup_guard = true,
  };
  return info;
}

std::unique_ptr<Adapter> make_libxml2_sax(const Limits& limits) {
  return make_adapter<Libxml2Sax>(libxml2_sax_info(), limits);
}

}  // namespace sb
