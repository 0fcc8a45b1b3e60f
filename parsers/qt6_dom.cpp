// Qt 6 in its DOM model: QDomDocument::setContent (Qt6::Xml, built on QXmlStreamReader), one
// document reused for every message.
#include <QtCore/QByteArray>
#include <QtXml/QDomDocument>
#include <QtXml/QDomNamedNodeMap>

#include <climits>
#include <string>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/qt6_common.h"
#include "parsers/rapidxml_prescan.h"

namespace sb {
namespace {

using rapidxml_prescan::at_most_lt;
using rapidxml_prescan::pre_scan;
using rapidxml_prescan::Scan;
using rapidxml_prescan::ScanResult;

class Qt6Dom {
 public:
  static constexpr Format kFormat = Format::xml;

  explicit Qt6Dom(const Limits& limits) : limits_(limits) {}

  Status parse(MessageBuffer& message) {
    if (message.size() > INT_MAX) return Status::limit("message larger than INT_MAX bytes");
    if (Status s = check_markup(message); !s.ok()) return s;
    QString error;
    int line = 0;
    int column = 0;
    // namespaceProcessing=false: qualified names as written, xmlns declarations kept as
    // attributes. fromRawData: the reader underneath reads the caller's bytes without a copy.
    if (!doc_.setContent(
            QByteArray::fromRawData(message.data(), static_cast<qsizetype>(message.size())), false,
            &error, &line, &column)) {
      return Status::malformed(error.toStdString(), Location{.line = line, .column = column});
    }
    // Every DOCTYPE has a name: the one check for messages the pre-scan did not read.
    if (!limits_.allow_doctype && !doc_.doctype().name().isEmpty()) return doctype_refused();
    return Status::success();
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    Status s = parse(message);
    if (!s.ok()) return s;
    const QDomElement root = doc_.documentElement();
    if (root.isNull()) return Status::malformed("no root element");
    return emit_tree(root, sink);
  }

 private:
  // QDomDocument's build is quadratic in nesting depth (16,000 levels take 6 s), so depth is
  // bounded before it runs: messages with at most max_depth '<' cannot nest deeper; the others
  // are pre-scanned (which also refuses a DOCTYPE before Qt reads its subset).
  Status check_markup(const MessageBuffer& message) const {
    const char* begin = message.data();
    const char* end = begin + message.size();
    if (at_most_lt(begin, end, limits_.max_depth)) return Status::success();
    const Scan scan = pre_scan(begin, end, limits_.max_depth, limits_.allow_doctype);
    const Location where{.offset = scan.where - begin};
    if (scan.result == ScanResult::doctype) return doctype_refused(where);
    if (scan.result == ScanResult::too_deep) return too_deep(limits_.max_depth, where);
    return Status::success();
  }

  // Iterative pre-order walk (no recursion).
  template <class Sink>
  Status emit_tree(const QDomNode& root, Sink& sink) {
    QDomNode n = root;
    std::size_t depth = 0;
    for (;;) {
      if (n.isElement()) {
        if (++depth > limits_.max_depth) return too_deep(limits_.max_depth);
        if (!sink.start_element(utf8_.convert(n.nodeName(), name_), attributes_of(n))) {
          return Status::stopped();
        }
        if (QDomNode child = n.firstChild(); !child.isNull()) {
          n = child;
          continue;
        }
        if (!sink.end_element(utf8_.convert(n.nodeName(), name_))) return Status::stopped();
        --depth;
      } else if (n.isText()) {  // QDomCDATASection is a QDomText
        if (!sink.text(utf8_.convert(n.nodeValue(), text_))) return Status::stopped();
      }
      // Advance: the next sibling, or close parents until one has a next sibling.
      for (;;) {
        if (n == root) return Status::success();
        if (QDomNode next = n.nextSibling(); !next.isNull()) {
          n = next;
          break;
        }
        n = n.parentNode();
        if (!sink.end_element(utf8_.convert(n.nodeName(), name_))) return Status::stopped();
        --depth;
      }
    }
  }

  // An element's attributes in UTF-8. QDomNamedNodeMap keeps them in a hash (no document order;
  // the sinks do not need it) and item(i) steps i entries from the start.
  XmlAttributes attributes_of(const QDomNode& element) {
    attributes_.clear();
    const QDomNamedNodeMap attrs = element.attributes();
    const int count = attrs.length();
    for (int i = 0; i < count; ++i) {
      const QDomNode a = attrs.item(i);
      attributes_.add(utf8_, a.nodeName(), a.nodeValue());
    }
    return attributes_.views();
  }

  Limits limits_;                     // depth and DOCTYPE policy
  QDomDocument doc_;                  // reused; setContent replaces the previous tree
  qt6::Utf8 utf8_;                    // UTF-16 -> UTF-8 for every string handed to the sink
  qt6::AttributeScratch attributes_;  // one element's attributes in UTF-8
  std::string name_;                  // UTF-8 of one element name
  std::string text_;                  // UTF-8 of one text node
};

}  // namespace

const AdapterInfo& qt6_dom_info() {
  static const AdapterInfo info{
      .name = "qt6/dom",
      .library = "Qt 6",
      .version = qt6::version(),
      .format = Format::xml,
      .model = Model::dom,
      .mode = "QDomDocument::setContent(QByteArray::fromRawData, namespaceProcessing=false)",
      .validates_utf8 = true,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = false,
      .reuses_state = true,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          "QDomDocument reused; holds every string in UTF-16, converted back to UTF-8 for the "
          "walk (an inherent cost with a UTF-8 consumer); its build is quadratic in depth, so "
          "messages with more '<' than max_depth are pre-scanned for depth and DOCTYPE (the "
          "RapidXML adapter's scan); attributes come in hash order; no QCoreApplication needed; "
          "whitespace-only text is dropped (6.4 has no option to keep it; "
          "ParseOption::PreserveSpacingOnlyNodes came with 6.5): decode restores it from the "
          "message (parsers/leaf_text.h)",
      .keeps_whitespace_text = false,
      .decode_restores_text = TextLoss::whitespace_runs,
      // QDomNamedNodeMap::item(i) is linear in i: decode pre-scans the attribute bounds.
      .decode_markup_guard = true,
  };
  return info;
}

std::unique_ptr<Adapter> make_qt6_dom(const Limits& limits) {
  return make_adapter<Qt6Dom>(qt6_dom_info(), limits);
}

}  // namespace sb
