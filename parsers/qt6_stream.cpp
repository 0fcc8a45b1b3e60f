// Qt 6 in its pull model: QXmlStreamReader, read token by token to the end, reused with clear()
// and addData() per message.
#include <QtCore/QByteArray>
#include <QtCore/QXmlStreamReader>

#include <climits>
#include <string>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/qt6_common.h"

namespace sb {
namespace {

// The `parse` level's stand-in sink type: never called (events are compiled out).
struct NoSink {};

class Qt6Stream {
 public:
  static constexpr Format kFormat = Format::xml;

  explicit Qt6Stream(const Limits& limits) : limits_(limits) {}

  Status parse(MessageBuffer& message) { return run<false, NoSink>(message, nullptr); }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    return run<true>(message, &sink);
  }

 private:
  Location where() const {
    return Location{.line = reader_.lineNumber(),
                    .column = reader_.columnNumber() + 1,
                    .offset = reader_.characterOffset()};
  }

  // Reads to the end; with kEvents, delivers every element, attribute and text token.
  template <bool kEvents, class Sink>
  Status run(MessageBuffer& message, Sink* sink) {
    if (message.size() > INT_MAX) return Status::limit("message larger than INT_MAX bytes");
    // fromRawData: the reader reads the caller's bytes without a copy.
    reader_.clear();
    // Namespace processing off (clear() turns it back on): qualified names as written, xmlns
    // declarations as ordinary attributes (what the sinks expect), no namespace bookkeeping.
    reader_.setNamespaceProcessing(false);
    reader_.addData(
        QByteArray::fromRawData(message.data(), static_cast<qsizetype>(message.size())));
    std::size_t depth = 0;
    while (!reader_.atEnd()) {
      switch (reader_.readNext()) {
        case QXmlStreamReader::StartElement:
          if (++depth > limits_.max_depth) return too_deep(limits_.max_depth, where());
          if constexpr (kEvents) {
            attributes_.clear();
            for (const QXmlStreamAttribute& a : reader_.attributes()) {
              attributes_.add(utf8_, a.qualifiedName(), a.value());
            }
            if (!sink->start_element(utf8_.convert(reader_.qualifiedName(), name_),
                                     attributes_.views())) {
              return Status::stopped();
            }
          }
          break;
        case QXmlStreamReader::EndElement:
          --depth;
          if constexpr (kEvents) {
            if (!sink->end_element(utf8_.convert(reader_.qualifiedName(), name_))) {
              return Status::stopped();
            }
          }
          break;
        case QXmlStreamReader::Characters:
          // Text, CDATA sections and resolved references; nothing outside the root element.
          if constexpr (kEvents) {
            if (depth > 0 && !sink->text(utf8_.convert(reader_.text(), text_))) {
              return Status::stopped();
            }
          }
          break;
        case QXmlStreamReader::DTD:
          // Reported once the whole DOCTYPE, internal subset included, is read; the reader
          // loads nothing external and bounds entity expansion (entityExpansionLimit).
          if (!limits_.allow_doctype) return doctype_refused(where());
          break;
        default:  // document start/end, comments, PIs, unresolved entity references
          break;
      }
    }
    if (reader_.hasError()) {
      return Status::malformed(reader_.errorString().toStdString(), where());
    }
    return Status::success();
  }

  Limits limits_;                     // depth and DOCTYPE policy
  QXmlStreamReader reader_;           // reused: clear() and addData() per message
  qt6::Utf8 utf8_;                    // UTF-16 -> UTF-8 for every string handed to the sink
  qt6::AttributeScratch attributes_;  // one element's attributes in UTF-8
  std::string name_;                  // UTF-8 of the current element's name
  std::string text_;                  // UTF-8 of the current text token
};

}  // namespace

const AdapterInfo& qt6_stream_info() {
  static const AdapterInfo info{
      .name = "qt6/stream",
      .library = "Qt 6",
      .version = qt6::version(),
      .format = Format::xml,
      .model = Model::pull,
      .mode = "QXmlStreamReader, setNamespaceProcessing(false), clear()+addData(fromRawData)",
      .validates_utf8 = true,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = false,
      .reuses_state = true,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          "QXmlStreamReader reused; decodes the input to UTF-16 as it reads, and every name, "
          "value and text is converted back to UTF-8 for the sinks (an inherent cost with a "
          "UTF-8 consumer); DOCTYPE refused at its DTD token, after the internal subset is "
          "read; no QCoreApplication needed",
      // The reader's duplicate-attribute check is quadratic in attributes per element (85 s on
      // 100,000) and a 16 MiB value takes 176 MiB: decode pre-scans the bounds.
      .decode_markup_guard = true,
  };
  return info;
}

std::unique_ptr<Adapter> make_qt6_stream(const Limits& limits) {
  return make_adapter<Qt6Stream>(qt6_stream_info(), limits);
}

}  // namespace sb
