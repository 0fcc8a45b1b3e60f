// Poco's JSON in its DOM model: Poco::JSON::Parser with its ParseHandler, which builds Object and
// Array values (Poco::Dynamic::Var) in document order (ParseHandler(preserveObjectOrder=true)).
#include <Poco/Dynamic/Var.h>
#include <Poco/Exception.h>
#include <Poco/JSON/Array.h>
#include <Poco/JSON/JSONException.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/ParseHandler.h>
#include <Poco/JSON/Parser.h>

#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/poco_common.h"

namespace sb {
namespace {

using Poco::Dynamic::Var;
using Poco::JSON::Array;
using Poco::JSON::Object;

// The text of the JSONException Poco's parser throws past setDepth() levels.
constexpr std::string_view kPocoDepthMessage = "Maximum depth exceeded";

class PocoJsonDom {
 public:
  static constexpr Format kFormat = Format::json;

  // Poco's default object order is its std::map's (sorted by key); document order is asked for.
  // setDepth: Poco's parser recurses once per level, so it must stop at the limit itself.
  explicit PocoJsonDom(const Limits& limits)
      : limits_(limits), parser_(new Poco::JSON::ParseHandler(true)) {
    parser_.setDepth(limits.max_depth);
  }

  Status parse(MessageBuffer& message) {
    result_.empty();
    // Poco parses a std::string (or an istream): the message is copied into a reused one.
    json_.assign(message.view());
    try {
      parser_.reset();
      result_ = parser_.parse(json_);
    } catch (const Poco::JSON::JSONException& e) {
      if (e.message() == kPocoDepthMessage) return too_deep(limits_.max_depth);
      return Status::malformed(e.displayText());
    } catch (const Poco::Exception& e) {
      return Status::malformed(e.displayText());
    }
    return Status::success();
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    Status s = parse(message);
    if (!s.ok()) return s;
    return emit_tree(result_, sink);
  }

 private:
  // An open container during the walk. Frames are reused across messages (open_ counts them).
  struct Frame {
    Object::Ptr object;              // set for an object
    Array::Ptr array;                // set for an array
    std::vector<std::string> names;  // an object's member names in document order
    std::size_t index = 0;           // next member / element to visit
    Var member;                      // the member being visited (Object::get returns a copy)
  };

  // Iterative pre-order walk (no recursion).
  template <class Sink>
  Status emit_tree(const Var& root, Sink& sink) {
    open_ = 0;
    const Var* v = &root;
    for (;;) {
      if (Status s = emit_value(*v, sink); !s.ok()) return s;
      // Next: the next child of the innermost open container, closing the finished ones.
      for (;;) {
        if (open_ == 0) return Status::success();
        Frame& f = frames_[open_ - 1];
        if (f.object) {
          if (f.index < f.names.size()) {
            const std::string& name = f.names[f.index++];
            if (!sink.key(name)) return Status::stopped();
            f.member = f.object->get(name);
            v = &f.member;
            break;
          }
          if (!sink.end_object()) return Status::stopped();
        } else {
          if (f.index < f.array->size()) {
            v = &*(f.array->begin() + static_cast<std::ptrdiff_t>(f.index++));
            break;
          }
          if (!sink.end_array()) return Status::stopped();
        }
        f.object = nullptr;
        f.array = nullptr;
        --open_;
      }
    }
  }

  // A value's own event: a scalar, or the opening of a container (closed by emit_tree; an empty
  // one is closed here).
  template <class Sink>
  Status emit_value(const Var& v, Sink& sink) {
    if (v.isEmpty()) return sink.null_value() ? Status::success() : Status::stopped();
    const std::type_info& type = v.type();
    bool more = true;
    if (type == typeid(Object::Ptr)) {
      const Object::Ptr& o = v.extract<Object::Ptr>();
      more = sink.start_object() && (o->size() > 0 || sink.end_object());
      if (more && o->size() > 0) return open(o, nullptr);
    } else if (type == typeid(Array::Ptr)) {
      const Array::Ptr& a = v.extract<Array::Ptr>();
      more = sink.start_array() && (a->size() > 0 || sink.end_array());
      if (more && a->size() > 0) return open(nullptr, a);
    } else if (type == typeid(std::string)) {
      more = sink.string_value(v.extract<std::string>());
    } else if (type == typeid(Poco::Int64)) {
      more = sink.int_value(v.extract<Poco::Int64>());
    } else if (type == typeid(Poco::UInt64)) {
      // Integers above INT64_MAX are doubles in the event contract.
      more = sink.double_value(static_cast<double>(v.extract<Poco::UInt64>()));
    } else if (type == typeid(double)) {
      more = sink.double_value(v.extract<double>());
    } else if (type == typeid(bool)) {
      more = sink.bool_value(v.extract<bool>());
    } else {
      return Status::malformed(std::string("unexpected value type ") + type.name());
    }
    return more ? Status::success() : Status::stopped();
  }

  // Pushes a frame for a non-empty container. By value: the caller's pointer may live in a
  // frame's member, which growing frames_ moves.
  Status open(Object::Ptr object, Array::Ptr array) {
    if (open_ >= limits_.max_depth) return too_deep(limits_.max_depth);
    if (frames_.size() == open_) frames_.emplace_back();
    Frame& f = frames_[open_++];
    f.object = std::move(object);
    f.array = std::move(array);
    f.index = 0;
    if (f.object) f.object->getNames(f.names);
    return Status::success();
  }

  Limits limits_;              // depth policy
  Poco::JSON::Parser parser_;  // reused; reset() per message
  std::string json_;           // the message as the std::string Poco parses
  Var result_;                 // the last message's root (an Object::Ptr or Array::Ptr)
  std::vector<Frame> frames_;  // the walk's open containers (reused)
  std::size_t open_ = 0;       // frames in use
};

}  // namespace

const AdapterInfo& poco_json_dom_info() {
  static const AdapterInfo info{
      .name = "poco-json/dom",
      .library = "Poco",
      .version = poco::version(),
      .format = Format::json,
      .model = Model::dom,
      .mode =
          "Parser(new ParseHandler(preserveObjectOrder=true)), setDepth(max_depth), "
          "parse(std::string)",
      .validates_utf8 = true,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = false,
      .reuses_state = true,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          "Parser reused; the message is copied into a std::string (Poco parses std::string or "
          "istream); every value is a Poco::Dynamic::Var, objects a std::map plus a key list "
          "for document order, read through getNames() and get() (which copies each member's "
          "Var); depth bounded by setDepth (Poco's parser recurses); the key list is searched "
          "linearly on every insertion: quadratic in an object's members; a top-level scalar "
          "is refused (JSONTestSuite y_structure_lonely_*)",
      // Quadratic in members: 100,000 in one object take over a minute.
      .decode_markup_guard = true,
  };
  return info;
}

std::unique_ptr<Adapter> make_poco_json_dom(const Limits& limits) {
  return make_adapter<PocoJsonDom>(poco_json_dom_info(), limits);
}

}  // namespace sb
