// Poco in its SAX (push) model: Poco::XML::SAXParser (Expat underneath) with a ContentHandler and
// a LexicalHandler of ours, parseMemoryNP on the message's bytes.
#include <Poco/SAX/Attributes.h>
#include <Poco/SAX/DefaultHandler.h>
#include <Poco/SAX/LexicalHandler.h>
#include <Poco/SAX/SAXParser.h>

#include <string>
#include <vector>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/null_sink.h"
#include "parsers/poco_common.h"

namespace sb {
namespace {

using Poco::XML::XMLChar;
using Poco::XML::XMLString;

// Hands Poco's events to a sink and applies the depth and DOCTYPE policy. DefaultHandler gives
// no-op EntityResolver/DTDHandler/ContentHandler/ErrorHandler methods; LexicalHandler's startDTD
// is the hook that refuses a DOCTYPE before its internal subset is read.
template <class Sink>
class Handler final : public Poco::XML::DefaultHandler, public Poco::XML::LexicalHandler {
 public:
  Handler(Sink& sink, const Limits& limits, Status& status, std::vector<XmlAttribute>& attributes)
      : sink_(sink), limits_(limits), status_(status), attributes_(attributes) {}

  void startElement(const XMLString&, const XMLString&, const XMLString& qname,
                    const Poco::XML::Attributes& attrs) override {
    if (++depth_ > limits_.max_depth) abort(too_deep(limits_.max_depth));
    attributes_.clear();
    const int count = attrs.getLength();
    for (int i = 0; i < count; ++i) attributes_.push_back({attrs.getQName(i), attrs.getValue(i)});
    if (!sink_.start_element(qname, attributes_)) abort(Status::stopped());
  }
  void endElement(const XMLString&, const XMLString&, const XMLString& qname) override {
    --depth_;
    if (!sink_.end_element(qname)) abort(Status::stopped());
  }
  // Text, CDATA content and resolved references, in Expat's pieces.
  void characters(const XMLChar ch[], int start, int length) override {
    if (!sink_.text({ch + start, static_cast<std::size_t>(length)})) abort(Status::stopped());
  }
  void ignorableWhitespace(const XMLChar ch[], int start, int length) override {
    characters(ch, start, length);
  }

  void startDTD(const XMLString&, const XMLString&, const XMLString&) override {
    if (!limits_.allow_doctype) abort(doctype_refused());
  }
  void endDTD() override {}
  void startEntity(const XMLString&) override {}
  void endEntity(const XMLString&) override {}
  void startCDATA() override {}
  void endCDATA() override {}
  void comment(const XMLChar[], int, int) override {}

 private:
  [[noreturn]] void abort(Status s) {
    status_ = std::move(s);
    throw poco::Abort{};
  }

  Sink& sink_;                             // the current call's sink
  const Limits& limits_;                   // depth and DOCTYPE policy
  Status& status_;                         // the adapter's failure slot
  std::vector<XmlAttribute>& attributes_;  // the adapter's scratch for one element
  std::size_t depth_ = 0;                  // open elements
};

class PocoSax {
 public:
  static constexpr Format kFormat = Format::xml;

  explicit PocoSax(const Limits& limits) : limits_(limits) { poco::configure(parser_); }

  Status parse(MessageBuffer& message) {
    NullSink sink;
    return run(message, sink);
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    return run(message, sink);
  }

 private:
  // The handler lives for one parse: it is typed on the sink, and installing it is two pointer
  // stores. Poco's parser makes a new Expat parser for every parse (ParserEngine::init).
  template <class Sink>
  Status run(MessageBuffer& message, Sink& sink) {
    Handler<Sink> handler(sink, limits_, status_, attributes_);
    parser_.setContentHandler(&handler);
    parser_.setProperty(Poco::XML::XMLReader::PROPERTY_LEXICAL_HANDLER,
                        static_cast<Poco::XML::LexicalHandler*>(&handler));
    Status s =
        poco::run_guarded(status_, [&] { parser_.parseMemoryNP(message.data(), message.size()); });
    parser_.setContentHandler(nullptr);
    parser_.setProperty(Poco::XML::XMLReader::PROPERTY_LEXICAL_HANDLER,
                        static_cast<Poco::XML::LexicalHandler*>(nullptr));
    return s;
  }

  Limits limits_;                         // depth and DOCTYPE policy
  Poco::XML::SAXParser parser_;           // reused; configured once
  Status status_;                         // failure stored by the handler before it throws
  std::vector<XmlAttribute> attributes_;  // scratch: one element's attributes
};

}  // namespace

const AdapterInfo& poco_sax_info() {
  static const AdapterInfo info{
      .name = "poco/sax",
      .library = "Poco",
      .version = poco::version(),
      .format = Format::xml,
      .model = Model::sax,
      .mode =
          "SAXParser::parseMemoryNP, FEATURE_NAMESPACES=false, "
          "FEATURE_EXTERNAL_GENERAL_ENTITIES=false, FEATURE_EXTERNAL_PARAMETER_ENTITIES=false",
      .validates_utf8 = true,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = false,
      .reuses_state = true,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          "SAXParser reused, but Poco creates a new Expat parser for every parse; element "
          "names and attributes are copied into std::strings by Poco before each callback; "
          "DOCTYPE refused at startDTD, before its internal subset is read",
      // Expat underneath keeps several copies of a long attribute value.
      .decode_markup_guard = true,
  };
  return info;
}

std::unique_ptr<Adapter> make_poco_sax(const Limits& limits) {
  return make_adapter<PocoSax>(poco_sax_info(), limits);
}

}  // namespace sb
