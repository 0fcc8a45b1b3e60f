// Qt 6's JSON in its DOM model: QJsonDocument::fromJson, walked through QJsonObject/QJsonArray.
#include <QtCore/QByteArray>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QJsonValue>
#include <QtCore/QVariant>

#include <algorithm>
#include <climits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/json_key_order.h"
#include "parsers/qt6_common.h"

namespace sb {
namespace {

// Qt's JSON parser refuses nesting deeper than this itself (QJsonParseError::DeepNesting).
constexpr std::size_t kQtNestingLimit = 1024;

class Qt6JsonDom {
 public:
  static constexpr Format kFormat = Format::json;

  explicit Qt6JsonDom(const Limits& limits) : limits_(limits) {}

  Status parse(MessageBuffer& message) {
    if (message.size() > INT_MAX) return Status::limit("message larger than INT_MAX bytes");
    QJsonParseError error;
    doc_ = QJsonDocument::fromJson(
        QByteArray::fromRawData(message.data(), static_cast<qsizetype>(message.size())), &error);
    if (error.error == QJsonParseError::DeepNesting) {
      return too_deep(std::min(limits_.max_depth, kQtNestingLimit),
                      Location{.offset = error.offset});
    }
    if (error.error != QJsonParseError::NoError) {
      return Status::malformed(error.errorString().toStdString(), Location{.offset = error.offset});
    }
    return Status::success();
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    Status s = parse(message);
    if (!s.ok()) return s;
    order_ = nullptr;
    return emit_tree(root(), sink);
  }

  // The decode level: members in the order sent, which QJsonObject does not keep (it sorts its
  // keys), read from the message (parsers/json_key_order.h); the walk keeps Qt's order.
  template <class Sink>
  Status decode_events(MessageBuffer& message, Sink& sink) {
    Status s = parse(message);
    if (!s.ok()) return s;
    if (!key_order_.read(message.view())) {
      return order_unread();
    }
    order_ = &key_order_;
    objects_ = numbers_ = 0;
    return emit_tree(root(), sink);
  }

 private:
  // An open container during the walk and the index of its next child.
  struct Frame {
    QJsonValue container;  // object or array (shares the document's data)
    qsizetype index;       // next member / element to visit
    std::size_t object;    // an object's number in document order (order_'s)
  };

  // fromJson accepts only an object or an array at the top (RFC 4627).
  QJsonValue root() const {
    return doc_.isObject() ? QJsonValue(doc_.object()) : QJsonValue(doc_.array());
  }

  // The `index`th member of object `o` (number `object`) in the order sent: its key on the sink,
  // its value in *v. Status::invalid when Qt's object does not hold the members sent: a key sent
  // twice, of which QJsonObject keeps only the last.
  template <class Sink>
  Status member_as_sent(const QJsonObject& o, std::size_t object, qsizetype index, Sink& sink,
                        QJsonValue* v) {
    // Qt's tree and the order read from the bytes must be the same objects; should Qt ever
    // read one the order did not, refuse rather than index past it.
    if (object >= order_->objects()) {
      return order_unread();
    }
    const std::span<const std::string_view> keys = order_->keys(object);
    if (static_cast<qsizetype>(keys.size()) != o.size()) return duplicate_key(keys);
    const std::string_view key = keys[static_cast<std::size_t>(index)];
    const bool latin1 = std::all_of(key.begin(), key.end(),
                                    [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    const auto it = latin1 ? o.constFind(QLatin1StringView(key.data(), key.size()))
                           : o.constFind(QString::fromUtf8(key.data(), key.size()));
    if (it == o.constEnd()) return duplicate_key(keys);
    if (!sink.key(key)) return Status::stopped();
    *v = it.value();
    return Status::success();
  }

  static Status order_unread() {
    return Status::invalid("the members' order of this message cannot be read (Qt sorts them)");
  }

  static Status duplicate_key(std::span<const std::string_view> keys) {
    std::vector<std::string_view> sorted(keys.begin(), keys.end());
    std::sort(sorted.begin(), sorted.end());
    const auto it = std::adjacent_find(sorted.begin(), sorted.end());
    return Status::invalid(
        "Qt's QJsonObject keeps only the last value of a key sent twice" +
        (it != sorted.end() ? " (\"" + std::string(*it) + "\")" : std::string()) +
        ": the object cannot be delivered as sent");
  }

  // Iterative pre-order walk (no recursion); max_depth is applied here (the parse level only
  // has Qt's own kQtNestingLimit).
  template <class Sink>
  Status emit_tree(const QJsonValue& root, Sink& sink) {
    stack_.clear();
    QJsonValue v = root;
    for (;;) {
      if (!emit_value(v, sink)) return Status::stopped();
      if (v.isObject() || v.isArray()) {
        // Every container counts, empty ones too; a non-empty one stays open (emit_value
        // closed an empty one).
        if (stack_.size() >= limits_.max_depth) return too_deep(limits_.max_depth);
        const std::size_t object = v.isObject() ? objects_++ : 0;
        if (v.isObject() ? !v.toObject().isEmpty() : !v.toArray().isEmpty()) {
          stack_.push_back({v, 0, object});
        }
      }
      // Next: the next child of the innermost open container, closing the finished ones.
      for (;;) {
        if (stack_.empty()) return Status::success();
        Frame& f = stack_.back();
        if (f.container.isObject()) {
          const QJsonObject o = f.container.toObject();
          if (f.index < o.size() && order_ != nullptr) {
            if (Status s = member_as_sent(o, f.object, f.index++, sink, &v); !s.ok()) return s;
            break;
          }
          if (f.index < o.size()) {
            const auto it = o.begin() + f.index++;
            if (!sink.key(utf8_.convert(it.key(), text_))) return Status::stopped();
            v = it.value();
            break;
          }
          if (!sink.end_object()) return Status::stopped();
        } else {
          const QJsonArray a = f.container.toArray();
          if (f.index < a.size()) {
            v = a.at(f.index++);
            break;
          }
          if (!sink.end_array()) return Status::stopped();
        }
        stack_.pop_back();
      }
    }
  }

  // A value's own event: a scalar, or the opening of a container (an empty one closed here).
  template <class Sink>
  bool emit_value(const QJsonValue& v, Sink& sink) {
    switch (v.type()) {
      case QJsonValue::Null:
      case QJsonValue::Undefined:
        return sink.null_value();
      case QJsonValue::Bool:
        return sink.bool_value(v.toBool());
      case QJsonValue::Double:
        // Qt stores a number as an integer when its value is one (2.0, 1e2 and -0.0 too), so
        // "written without fraction" cannot be told apart: the stored type decides.
        if (v.toVariant().typeId() == QMetaType::LongLong) {
          // Decoding, the message says how the number was written (parsers/json_key_order.h).
          const std::size_t n = numbers_++;
          if (order_ == nullptr || !order_->written_as_double(n))
            return sink.int_value(v.toInteger());
          const auto d = static_cast<double>(v.toInteger());
          return sink.double_value(d == 0 && order_->written_negative(n) ? -0.0 : d);
        }
        ++numbers_;
        return sink.double_value(v.toDouble());
      case QJsonValue::String:
        return sink.string_value(utf8_.convert(v.toString(), text_));
      case QJsonValue::Object:
        return sink.start_object() && (!v.toObject().isEmpty() || sink.end_object());
      case QJsonValue::Array:
        return sink.start_array() && (!v.toArray().isEmpty() || sink.end_array());
    }
    return true;
  }

  Limits limits_;                        // depth policy
  QJsonDocument doc_;                    // the last message's document
  JsonKeyOrder key_order_;               // the members' order as sent (decode)
  const JsonKeyOrder* order_ = nullptr;  // &key_order_ while decoding, else Qt's order
  std::size_t objects_ = 0;              // objects opened so far (decode)
  std::size_t numbers_ = 0;              // numbers delivered so far (decode)
  qt6::Utf8 utf8_;                       // UTF-16 -> UTF-8 for keys and strings
  std::string text_;                     // UTF-8 of one key or string
  std::vector<Frame> stack_;             // scratch for the walk
};

}  // namespace

const AdapterInfo& qt6_json_dom_info() {
  static const AdapterInfo info{
      .name = "qt6-json/dom",
      .library = "Qt 6",
      .version = qt6::version(),
      .format = Format::json,
      .model = Model::dom,
      .mode = "QJsonDocument::fromJson(QByteArray::fromRawData)",
      .validates_utf8 = true,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = false,
      .reuses_state = false,
      .fastest_mode = false,
      // Object members come sorted by key with duplicates dropped, and integral doubles as
      // integers: the Digest (document order, int vs double) cannot match.
      .digest_exempt = true,
      .notes =
          "a new QJsonDocument per message; keys and strings are held in UTF-16 (or Latin-1) "
          "and converted to UTF-8 for the walk; objects are sorted by key, a duplicate key "
          "keeps its last value, a number whose value is integral (2.0, 1e2, -0.0) is stored "
          "as an integer; Qt's own nesting limit is 1024; no QCoreApplication needed; lenient "
          "by design (accepts 2., .2e-3, \\x escapes and raw control characters: "
          "JSONTestSuite); a document is an object or an array, never a top-level scalar",
  };
  return info;
}

std::unique_ptr<Adapter> make_qt6_json_dom(const Limits& limits) {
  return make_adapter<Qt6JsonDom>(qt6_json_dom_info(), limits);
}

}  // namespace sb
