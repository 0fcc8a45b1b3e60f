// Expat in its SAX (push) model: one XML_Parser without namespace processing, reused with
// XML_ParserReset, the whole message passed to XML_Parse as the final buffer.
#include <expat.h>

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/null_sink.h"

namespace sb {
namespace {

class ExpatSax {
 public:
  static constexpr Format kFormat = Format::xml;

  // XML_ParserCreate (not XML_ParserCreateNS): names arrive as written, xmlns attributes as
  // ordinary attributes.
  explicit ExpatSax(const Limits& limits) : limits_(limits), parser_(XML_ParserCreate(nullptr)) {}
  ~ExpatSax() {
    if (parser_ != nullptr) XML_ParserFree(parser_);
  }
  ExpatSax(const ExpatSax&) = delete;
  ExpatSax& operator=(const ExpatSax&) = delete;

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
    if (parser_ == nullptr) return Status::malformed("expat: cannot create a parser");
    if (message.size() > INT_MAX) return Status::limit("message larger than INT_MAX bytes");
    // XML_ParserReset clears the handlers and user data too, so they are set per message.
    if (used_ && !XML_ParserReset(parser_, nullptr)) {
      return Status::malformed("expat: cannot reset the parser");
    }
    used_ = true;
    XML_SetUserData(parser_, this);
    XML_SetElementHandler(parser_, &on_start<Sink>, &on_end<Sink>);
    XML_SetCharacterDataHandler(parser_, &on_text<Sink>);  // text, CDATA content, references
    XML_SetStartDoctypeDeclHandler(parser_, &on_doctype);
    // Expat's default, set explicitly: no parameter entities, no external DTD. No external
    // entity reference handler is installed, so external entities are never read.
    XML_SetParamEntityParsing(parser_, XML_PARAM_ENTITY_PARSING_NEVER);
    sink_ = &sink;
    depth_ = 0;
    stopped_ = false;
    halted_ = false;
    refusal_ = Status::success();
    const XML_Status status =
        XML_Parse(parser_, message.data(), static_cast<int>(message.size()), XML_TRUE);
    sink_ = nullptr;
    if (stopped_) return Status::stopped();
    if (!refusal_.ok()) return refusal_;
    if (status != XML_STATUS_OK) {
      return Status::malformed(XML_ErrorString(XML_GetErrorCode(parser_)), where());
    }
    return Status::success();
  }

  // The current position; Expat's column is 0-based.
  Location where() const {
    return Location{.line = static_cast<std::int64_t>(XML_GetCurrentLineNumber(parser_)),
                    .column = static_cast<std::int64_t>(XML_GetCurrentColumnNumber(parser_)) + 1,
                    .offset = static_cast<std::int64_t>(XML_GetCurrentByteIndex(parser_))};
  }

  static ExpatSax& self(void* user_data) { return *static_cast<ExpatSax*>(user_data); }

  // Ends the parse from inside a handler. Expat may still deliver a handler or two that would
  // otherwise be lost (its documentation), hence halted_.
  void halt() {
    halted_ = true;
    XML_StopParser(parser_, XML_FALSE);
  }

  template <class Sink>
  static void on_start(void* user_data, const XML_Char* name, const XML_Char** atts) {
    ExpatSax& me = self(user_data);
    if (me.halted_) return;
    if (++me.depth_ > me.limits_.max_depth) {  // Expat keeps its own tag stack: no recursion
      me.refusal_ = too_deep(me.limits_.max_depth, me.where());
      me.halt();
      return;
    }
    me.attributes_.clear();
    for (const XML_Char** a = atts; *a != nullptr; a += 2) me.attributes_.push_back({a[0], a[1]});
    if (!static_cast<Sink*>(me.sink_)->start_element(name, me.attributes_)) {
      me.stopped_ = true;
      me.halt();
    }
  }

  template <class Sink>
  static void on_end(void* user_data, const XML_Char* name) {
    ExpatSax& me = self(user_data);
    if (me.halted_) return;
    --me.depth_;
    if (!static_cast<Sink*>(me.sink_)->end_element(name)) {
      me.stopped_ = true;
      me.halt();
    }
  }

  template <class Sink>
  static void on_text(void* user_data, const XML_Char* s, int len) {
    ExpatSax& me = self(user_data);
    if (me.halted_) return;
    if (!static_cast<Sink*>(me.sink_)->text(std::string_view(s, static_cast<std::size_t>(len)))) {
      me.stopped_ = true;
      me.halt();
    }
  }

  // DOCTYPE policy: refused at `<!DOCTYPE name`, before any declaration is read.
  static void on_doctype(void* user_data, const XML_Char*, const XML_Char*, const XML_Char*, int) {
    ExpatSax& me = self(user_data);
    if (me.halted_ || me.limits_.allow_doctype) return;
    me.refusal_ = doctype_refused(me.where());
    me.halt();
  }

  Limits limits_;                         // depth and DOCTYPE policy
  XML_Parser parser_;                     // reused parser (XML_ParserReset per message)
  bool used_ = false;                     // parser_ has parsed a message since its creation
  void* sink_ = nullptr;                  // the current call's sink (its type is the handlers')
  std::size_t depth_ = 0;                 // open elements
  Status refusal_;                        // a policy refusal raised inside a handler
  bool stopped_ = false;                  // the sink asked to stop
  bool halted_ = false;                   // no more events for this message
  std::vector<XmlAttribute> attributes_;  // scratch for one element's attributes
};

std::string expat_version() {
  const XML_Expat_Version v = XML_ExpatVersionInfo();  // the run-time library's version
  return std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.micro);
}

}  // namespace

const AdapterInfo& expat_sax_info() {
  static const AdapterInfo info{
      .name = "expat/sax",
      .library = "Expat",
      .version = expat_version(),
      .format = Format::xml,
      .model = Model::sax,
      .mode = "XML_ParserCreate(NULL), XML_Parse(final), XML_PARAM_ENTITY_PARSING_NEVER",
      .validates_utf8 = true,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = false,
      .reuses_state = true,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          "XML_Parser reused via XML_ParserReset (handlers re-set per message; Expat draws "
          "a new hash salt, a getrandom call, per document); XML_Parse copies the input "
          "into Expat's buffer (XML_CONTEXT_BYTES build); billion-laughs protection at its "
          "defaults",
      // Expat grows a long attribute value by doubling, 62 MB of heap for a 16 MB value (78 MB
      // under ASan): decode pre-scans the bounds.
      .decode_markup_guard = true,
  };
  return info;
}

std::unique_ptr<Adapter> make_expat_sax(const Limits& limits) {
  return make_adapter<ExpatSax>(expat_sax_info(), limits);
}

}  // namespace sb
