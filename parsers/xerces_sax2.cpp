// Xerces-C++ in its SAX2 model: the SAX2XMLReader from XMLReaderFactory, reused for every
// message; callbacks are forwarded to the sink.
#include <xercesc/sax2/Attributes.hpp>
#include <xercesc/sax2/DefaultHandler.hpp>
#include <xercesc/sax2/SAX2XMLReader.hpp>
#include <xercesc/sax2/XMLReaderFactory.hpp>
#include <xercesc/util/SecurityManager.hpp>
#include <xercesc/util/XMLUni.hpp>

#include <memory>
#include <string>
#include <type_traits>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/xerces_common.h"

namespace sb {
namespace {

using xercesc::XMLUni;

// The sink of level `parse`: callbacks arrive, nothing is transcoded or delivered.
struct NoSink {};

class XercesSax2;

// The SAX2 handler for one parse. Xerces calls it virtually (its interface); it calls the sink
// statically. Every callback also applies the policy: depth counted on every element, DOCTYPE
// refused at startDTD (before the internal subset is read; Xerces 3.2.4's SAX2 reader has no
// "disallow DOCTYPE" feature). SAX2 has no stop call, so a refusal or a sink that returns
// false stores the Status and unwinds with xerces::Abort, which the adapter catches.
// The depth limit also bounds a Xerces cost: with namespaces on, every element's prefix lookup
// (ElemStack::mapPrefixToURI) scans the whole open-element stack, so time is quadratic in
// depth (a 100,000-deep document ran for minutes before this check).
template <class Sink>
class Forwarder final : public xercesc::DefaultHandler {
 public:
  static constexpr bool kDeliver = !std::is_same_v<Sink, NoSink>;

  Forwarder(XercesSax2& owner, Sink* sink) : owner_(owner), sink_(sink) {}

  void startElement(const XMLCh* const uri, const XMLCh* const localname, const XMLCh* const qname,
                    const xercesc::Attributes& attrs) override;
  void endElement(const XMLCh* const uri, const XMLCh* const localname,
                  const XMLCh* const qname) override;
  void characters(const XMLCh* const chars, const XMLSize_t length) override;
  // Only reported when an (allowed) DTD declares element content; it is still text.
  void ignorableWhitespace(const XMLCh* const chars, const XMLSize_t length) override {
    characters(chars, length);
  }
  void startDTD(const XMLCh* const name, const XMLCh* const public_id,
                const XMLCh* const system_id) override;

 private:
  XercesSax2& owner_;      // the adapter: limits, transcoder, scratch buffers, status
  Sink* sink_;             // the event sink; unused for NoSink
  std::size_t depth_ = 0;  // open elements
};

class XercesSax2 {
 public:
  static constexpr Format kFormat = Format::xml;

  explicit XercesSax2(const Limits& limits)
      : limits_(limits),
        errors_(status_, utf8_),
        reader_(xercesc::XMLReaderFactory::createXMLReader()) {
    // Reader defaults kept: namespaces true, schema true, dynamic false. Set on top:
    // - namespace-prefixes true, so xmlns declarations arrive as attributes (the event
    //   contract reports them as written);
    reader_->setFeature(XMLUni::fgSAX2CoreNameSpacePrefixes, true);
    // - validation false: the SAX2 default (validation true) would validate against a DTD
    //   or schema; SOAP/RPC messages are checked for well-formedness only (Val_Never);
    reader_->setFeature(XMLUni::fgSAX2CoreValidation, false);
    // - nothing outside the message is ever read: no external DTD subset, and no default
    //   resolution (file or network) of any external entity or grammar;
    reader_->setFeature(XMLUni::fgXercesLoadExternalDTD, false);
    reader_->setFeature(XMLUni::fgXercesDisableDefaultEntityResolution, true);
    // - a SecurityManager bounds entity expansion (default: 50,000 per document).
    reader_->setProperty(XMLUni::fgXercesSecurityManager, &security_);
    // Errors go to the recorder: nothing is printed, the first one stops the parse.
    reader_->setErrorHandler(&errors_);
  }

  Status parse(MessageBuffer& message) {
    NoSink none;
    return run(message, &none);
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    return run(message, &sink);
  }

 private:
  template <class Sink>
  friend class Forwarder;

  template <class Sink>
  Status run(MessageBuffer& message, Sink* sink) {
    if (!limits_.allow_doctype && xerces::prolog_has_doctype(message.view())) {
      return doctype_refused();
    }
    Forwarder<Sink> handler(*this, sink);
    // The lexical handler carries startDTD (the DOCTYPE check); comments arrive there too.
    reader_->setContentHandler(&handler);
    reader_->setLexicalHandler(&handler);
    Status s = xerces::run_guarded(status_, utf8_, [&] { reader_->parse(source_.over(message)); });
    // handler dies here: leave no dangling pointers in the reader.
    reader_->setContentHandler(nullptr);
    reader_->setLexicalHandler(nullptr);
    return s;
  }

  [[noreturn]] void abort(Status s) {
    status_ = std::move(s);
    throw xerces::Abort{};
  }

  xerces::InitToken init_;             // Xerces initialized before the members below
  Limits limits_;                      // depth and DOCTYPE policy
  Status status_;                      // failure stored by the handlers before they unwind
  xerces::Utf8Transcoder utf8_;        // UTF-16 -> UTF-8 for every string handed to the sink
  xerces::ErrorRecorder errors_;       // records the first error, silences Xerces
  xercesc::SecurityManager security_;  // entity expansion bound
  xerces::MessageSource source_;       // reads the MessageBuffer in place
  std::unique_ptr<xercesc::SAX2XMLReader> reader_;  // reused across messages
  xerces::AttributeScratch attributes_;             // one element's attributes in UTF-8
  xerces::NameStack names_;                         // UTF-8 names of the open elements
  std::string text_;                                // UTF-8 of one characters() chunk
};

template <class Sink>
void Forwarder<Sink>::startElement(const XMLCh* const, const XMLCh* const, const XMLCh* const qname,
                                   const xercesc::Attributes& attrs) {
  if (++depth_ > owner_.limits_.max_depth) {
    owner_.abort(too_deep(owner_.limits_.max_depth));
  }
  if constexpr (kDeliver) {
    xerces::AttributeScratch& scratch = owner_.attributes_;
    scratch.clear();
    const XMLSize_t count = attrs.getLength();
    for (XMLSize_t i = 0; i < count; ++i) {
      scratch.add(owner_.utf8_, attrs.getQName(i), attrs.getValue(i));
    }
    const std::string_view name = owner_.names_.push(owner_.utf8_, depth_, qname);
    if (!sink_->start_element(name, scratch.views())) owner_.abort(Status::stopped());
  }
}

template <class Sink>
void Forwarder<Sink>::endElement(const XMLCh* const, const XMLCh* const, const XMLCh* const) {
  if constexpr (kDeliver) {
    if (!sink_->end_element(owner_.names_.at(depth_))) owner_.abort(Status::stopped());
  }
  --depth_;
}

template <class Sink>
void Forwarder<Sink>::characters(const XMLCh* const chars, const XMLSize_t length) {
  if constexpr (kDeliver) {
    if (!sink_->text(owner_.utf8_.convert(chars, length, owner_.text_))) {
      owner_.abort(Status::stopped());
    }
  }
}

template <class Sink>
void Forwarder<Sink>::startDTD(const XMLCh* const, const XMLCh* const, const XMLCh* const) {
  if (!owner_.limits_.allow_doctype) {
    owner_.abort(doctype_refused());
  }
}

}  // namespace

const AdapterInfo& xerces_sax2_info() {
  static const AdapterInfo info{
      .name = "xerces/sax2",
      .library = "Xerces-C++",
      .version = xerces::version(),
      .format = Format::xml,
      .model = Model::sax,
      .mode =
          "XMLReaderFactory::createXMLReader defaults (namespaces=true) + "
          "namespace-prefixes=true, validation=false (Val_Never), "
          "load-external-dtd=false, disable-default-entity-resolution=true, "
          "SecurityManager; MemBufInputSource(copyBufToStream=false)",
      .validates_utf8 = true,
      .expands_entities = true,
      .processes_namespaces = true,
      .modifies_input = false,
      .reuses_state = true,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          "reader, UTF-8 transcoder and input source reused; Xerces works in UTF-16, so "
          "every name, value and text chunk is transcoded to UTF-8 for the sink (an "
          "inherent cost with a UTF-8 consumer; level parse transcodes nothing); "
          "depth and DOCTYPE refused from the callbacks",
      // The library keeps several copies of a long attribute value: decode pre-scans the bounds.
      .decode_markup_guard = true,
  };
  return info;
}
std::unique_ptr<Adapter> make_xerces_sax2(const Limits& limits) {
  return make_adapter<XercesSax2>(xerces_sax2_info(), limits);
}

}  // namespace sb
