// libxml2 in its pull model: the xmlTextReader API, read to the end, on a reader reused with
// xmlReaderNewMemory.
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlreader.h>

#include <climits>
#include <string>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/libxml2_common.h"

namespace sb {
namespace {

using libxml2::AttributeScratch;
using libxml2::view;

// The `parse` level's stand-in sink type: never called (events are compiled out).
struct NoSink {};

class Libxml2Reader {
 public:
  static constexpr Format kFormat = Format::xml;

  explicit Libxml2Reader(const Limits& limits) : limits_(limits) { libxml2::ensure_ready(); }
  ~Libxml2Reader() {
    if (reader_ != nullptr) xmlFreeTextReader(reader_);
  }
  Libxml2Reader(const Libxml2Reader&) = delete;
  Libxml2Reader& operator=(const Libxml2Reader&) = delete;

  Status parse(MessageBuffer& message) { return run<false, NoSink>(message, nullptr); }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    return run<true>(message, &sink);
  }

 private:
  // Points the reader at the message: a new reader the first time (or after its dictionary
  // grew past the bound), xmlReaderNewMemory otherwise.
  bool start(MessageBuffer& message) {
    const char* data = message.data();
    const int size = static_cast<int>(message.size());
    if (reader_ != nullptr && recreate_) {
      xmlFreeTextReader(reader_);
      reader_ = nullptr;
    }
    recreate_ = false;
    if (reader_ == nullptr) {
      reader_ = xmlReaderForMemory(data, size, nullptr, nullptr, libxml2::kParseOptions);
      if (reader_ == nullptr) return false;
    } else if (xmlReaderNewMemory(reader_, data, size, nullptr, nullptr, libxml2::kParseOptions) !=
               0) {
      return false;
    }
    // Set per message: the reader's set-up may reinstall its default SAX error callbacks.
    xmlTextReaderSetStructuredErrorHandler(reader_, &libxml2::ErrorCapture::handler, &errors_);
    return true;
  }

  // The reader's parser position, for policy refusals.
  Location where() const {
    return Location{.line = xmlTextReaderGetParserLineNumber(reader_),
                    .column = xmlTextReaderGetParserColumnNumber(reader_)};
  }

  // Reads to the end; with kEvents, delivers every element, attribute and text node.
  template <bool kEvents, class Sink>
  Status run(MessageBuffer& message, Sink* sink) {
    libxml2::ensure_ready();
    if (message.size() > INT_MAX) return Status::limit("message larger than INT_MAX bytes");
    errors_.reset();
    if (!start(message)) return Status::malformed("libxml2: cannot create a text reader");
    int r;
    while ((r = xmlTextReaderRead(reader_)) == 1) {
      switch (xmlTextReaderNodeType(reader_)) {
        case XML_READER_TYPE_ELEMENT: {
          const int depth = xmlTextReaderDepth(reader_);  // 0 for the root
          if (static_cast<std::size_t>(depth) >= limits_.max_depth) {
            return too_deep(limits_.max_depth, where());
          }
          if (depth == 0) check_dictionary();
          if constexpr (kEvents) {
            if (Status s = emit_element(*sink); !s.ok()) return s;
          }
          break;
        }
        case XML_READER_TYPE_END_ELEMENT:
          if constexpr (kEvents) {
            if (!sink->end_element(view(xmlTextReaderConstName(reader_)))) {
              return Status::stopped();
            }
          }
          break;
        case XML_READER_TYPE_TEXT:
        case XML_READER_TYPE_CDATA:
        case XML_READER_TYPE_WHITESPACE:
        case XML_READER_TYPE_SIGNIFICANT_WHITESPACE:
          if constexpr (kEvents) {
            if (!sink->text(view(xmlTextReaderConstValue(reader_)))) return Status::stopped();
          }
          break;
        case XML_READER_TYPE_DOCUMENT_TYPE:
          // The reader reports the DOCTYPE once its internal subset is parsed (the reader's
          // parser context is not reachable to refuse earlier); libxml2's entity limits bound
          // that work, and nothing external is loaded.
          if (!limits_.allow_doctype) return doctype_refused(where());
          break;
        case XML_READER_TYPE_ENTITY_REFERENCE:
          // Only with an allowed DOCTYPE (no XML_PARSE_NOENT): its replacement text, as text,
          // like the DOM adapter.
          if constexpr (kEvents) {
            xmlChar* s = xmlNodeGetContent(xmlTextReaderCurrentNode(reader_));
            const bool more = sink->text(view(s));
            xmlFree(s);
            if (!more) return Status::stopped();
          }
          break;
        default:  // comments, processing instructions
          break;
      }
    }
    if (r < 0) return errors_.failure(nullptr);
    return Status::success();
  }

  // Start tag (and end tag of an empty element). Names from xmlTextReaderConstName are interned
  // in the reader's dictionary; a value from xmlTextReaderConstValue is the attribute's own text
  // node when it has exactly one, else the reader's scratch buffer (overwritten by the next
  // call), which is then copied.
  template <class Sink>
  Status emit_element(Sink& sink) {
    const std::string_view name = view(xmlTextReaderConstName(reader_));
    const bool empty = xmlTextReaderIsEmptyElement(reader_) == 1;
    attributes_.clear();
    if (xmlTextReaderHasAttributes(reader_) == 1) {
      while (xmlTextReaderMoveToNextAttribute(reader_) == 1) {
        const AttributeScratch::Piece attr_name =
            AttributeScratch::borrow(xmlTextReaderConstName(reader_));
        const std::string_view value = view(xmlTextReaderConstValue(reader_));
        const xmlNodePtr node = xmlTextReaderCurrentNode(reader_);
        const bool stable = node->type == XML_NAMESPACE_DECL ||
                            (node->children != nullptr && node->children->next == nullptr &&
                             node->children->type == XML_TEXT_NODE);
        attributes_.add(attr_name,
                        stable ? AttributeScratch::borrow(value) : attributes_.copy(value));
      }
      xmlTextReaderMoveToElement(reader_);
    }
    if (!sink.start_element(name, attributes_.finish())) return Status::stopped();
    if (empty && !sink.end_element(name)) return Status::stopped();
    return Status::success();
  }

  // The reader keeps its parser context, and so its name dictionary, across messages; once the
  // dictionary passes the bound the reader is recreated before the next message.
  void check_dictionary() {
    const xmlNodePtr node = xmlTextReaderCurrentNode(reader_);
    if (node != nullptr && node->doc != nullptr && libxml2::dictionary_full(node->doc->dict)) {
      recreate_ = true;
    }
  }

  Limits limits_;                      // depth and DOCTYPE policy
  xmlTextReaderPtr reader_ = nullptr;  // reused reader (xmlReaderNewMemory per message)
  bool recreate_ = false;              // the dictionary passed the bound: new reader next time
  libxml2::ErrorCapture errors_;       // the first error of the current message
  AttributeScratch attributes_;        // scratch: one element's attributes
};

}  // namespace

const AdapterInfo& libxml2_reader_info() {
  static const AdapterInfo info{
      .name = "libxml2/reader",
      .library = "libxml2",
      .version = libxml2::version(),
      .format = Format::xml,
      .model = Model::pull,
      .mode = std::string("xmlTextReader, xmlReaderNewMemory, ") + libxml2::kParseOptionsName,
      .validates_utf8 = true,
      .expands_entities = true,
      .processes_namespaces = true,
      .modifies_input = false,
      .reuses_state = true,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          "xmlTextReader (its parser context and name dictionary) reused via "
          "xmlReaderNewMemory; copies the input; DOCTYPE refused when the reader reports "
          "it, after its internal subset is parsed",
      // The library is quadratic in attributes per element: decode pre-scans the bounds.
      .decode_markup_guard = true,
  };
  return info;
}

std::unique_ptr<Adapter> make_libxml2_reader(const Limits& limits) {
  return make_adapter<Libxml2Reader>(libxml2_reader_info(), limits);
}

}  // namespace sb
