// nlohmann/json in its DOM model: ordered_json::parse builds the tree, which the walk visits in
// document order. ordered_json, not nlohmann::json: nlohmann::json keeps objects in a std::map,
// so its members come back sorted by name and the Digest (document order) would differ;
// ordered_json is the library's documented type for keeping insertion order (the decoded
// struct's members follow the document too). Its ordered_map finds each key by linear search, so
// building an object is quadratic in its members (10,000 keys, 100 KB: 1.9 s; 40,000: 24 s).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/nul_guard.h"

namespace sb {
namespace {

using Json = nlohmann::ordered_json;

class NlohmannDom {
 public:
  static constexpr Format kFormat = Format::json;

  explicit NlohmannDom(const Limits& limits) : limits_(limits) {}

  Status parse(MessageBuffer& message) {
    root_ = nullptr;  // the previous tree goes before the next one is built
    const char* begin = message.data();
    try {
      // No callback, exceptions on, comments refused: the library's defaults. Its parser is
      // iterative and has no depth limit; the walk below applies max_depth.
      root_ = Json::parse(begin, begin + message.size(), nullptr, true, false);
    } catch (const Json::parse_error& e) {
      return Status::malformed(e.what(), Location{.offset = static_cast<std::int64_t>(e.byte)});
    } catch (const Json::exception& e) {
      // out_of_range 406: a number beyond double ("1e999999").
      return Status::malformed(e.what());
    }
    Status rest = check_no_nul(message);
    if (!rest.ok()) root_ = nullptr;
    return rest;
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    Status s = parse(message);
    if (!s.ok()) return s;
    return emit_tree(sink);
  }

 private:
  // An open container during the walk and the index of its next child.
  struct Frame {
    const Json* container;  // object or array
    std::size_t index;      // next member / element to visit
  };

  // How emitting one value ended.
  enum class Step { ok, stopped, limit };

  // Iterative pre-order walk (no recursion: the tree may be far deeper than max_depth).
  template <class Sink>
  Status emit_tree(Sink& sink) {
    stack_.clear();
    const Json* v = &root_;
    for (;;) {
      if (const Step step = emit_value(*v, sink); step != Step::ok) {
        return step == Step::limit ? too_deep(limits_.max_depth) : Status::stopped();
      }
      // Next: the next child of the innermost open container, closing the finished ones.
      for (;;) {
        if (stack_.empty()) return Status::success();
        Frame& f = stack_.back();
        if (f.index < f.container->size()) {
          v = child(f, sink);
          if (v == nullptr) return Status::stopped();
          ++f.index;
          break;
        }
        if (!(f.container->is_object() ? sink.end_object() : sink.end_array())) {
          return Status::stopped();
        }
        stack_.pop_back();
      }
    }
  }

  // Emits a value's own event; a non-empty container is opened and pushed (closed by emit_tree).
  template <class Sink>
  Step emit_value(const Json& v, Sink& sink) {
    using nlohmann::detail::value_t;
    switch (v.type()) {
      case value_t::object:
      case value_t::array: {
        if (stack_.size() >= limits_.max_depth) return Step::limit;
        const bool object = v.is_object();
        if (!(object ? sink.start_object() : sink.start_array())) return Step::stopped;
        if (v.empty())
          return (object ? sink.end_object() : sink.end_array()) ? Step::ok : Step::stopped;
        stack_.push_back({&v, 0});
        return Step::ok;
      }
      case value_t::string:
        return step(sink.string_value(v.get_ref<const Json::string_t&>()));
      case value_t::number_integer:
        return step(sink.int_value(v.get<std::int64_t>()));
      case value_t::number_unsigned: {
        // Every non-negative integer is unsigned here; above INT64_MAX it is a double in the
        // event contract.
        const std::uint64_t u = v.get<std::uint64_t>();
        return step(u <= static_cast<std::uint64_t>(INT64_MAX)
                        ? sink.int_value(static_cast<std::int64_t>(u))
                        : sink.double_value(static_cast<double>(u)));
      }
      case value_t::number_float:
        return step(sink.double_value(v.get<double>()));
      case value_t::boolean:
        return step(sink.bool_value(v.get<bool>()));
      case value_t::null:
        return step(sink.null_value());
      case value_t::binary:     // only from binary formats (CBOR, MessagePack), never JSON text
      case value_t::discarded:  // only with a parser callback, which we do not pass
        return Step::ok;
    }
    return Step::ok;
  }

  static Step step(bool sink_continues) { return sink_continues ? Step::ok : Step::stopped; }

  // The frame's current child; for an object, its key is emitted first. nullptr: stopped.
  template <class Sink>
  static const Json* child(const Frame& f, Sink& sink) {
    if (f.container->is_array()) {
      return &f.container->get_ref<const Json::array_t&>()[f.index];
    }
    const auto& member = f.container->get_ref<const Json::object_t&>().begin()[f.index];
    if (!sink.key(member.first)) return nullptr;
    return &member.second;
  }

  Limits limits_;             // depth policy
  Json root_;                 // the last parse's tree
  std::vector<Frame> stack_;  // scratch for the walk
};

}  // namespace

const AdapterInfo& nlohmann_dom_info() {
  static const AdapterInfo info{
      .name = "nlohmann/dom",
      .library = "nlohmann/json",
      // nlohmann/json is header only: the header's version.
      .version = std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                 std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                 std::to_string(NLOHMANN_JSON_VERSION_PATCH),
      .format = Format::json,
      .model = Model::dom,
      .mode = "ordered_json::parse(first, last, no callback, exceptions, no comments)",
      .validates_utf8 = true,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = false,
      .reuses_state = false,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          "a new tree per message (every value, string and container its own allocation); "
          "ordered_json keeps members in document order (nlohmann::json's std::map sorts "
          "them), but finds each key by linear search: quadratic in an object's members; "
          "no depth limit in the library (its parser is iterative): the walk refuses "
          "beyond max_depth, so `parse` accepts any depth",
      // Quadratic in members: 100,000 in one object take over 30 s.
      .decode_markup_guard = true,
  };
  return info;
}
std::unique_ptr<Adapter> make_nlohmann_dom(const Limits& limits) {
  return make_adapter<NlohmannDom>(nlohmann_dom_info(), limits);
}

}  // namespace sb
