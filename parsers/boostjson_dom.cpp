// Boost.JSON in its DOM model: a reused basic_parser feeding a value_stack, which is what
// boost::json::parser is (its handler, written out here so that doubles are read correctly
// rounded: parsers/boostjson_common.h). boostjson/dom allocates the tree with the default
// resource (new/delete per node); boostjson/dom-monotonic with a monotonic_resource over a
// reused buffer, rebuilt per message, as Boost's documentation recommends for parse and discard.
#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/value.hpp>
#include <boost/json/value_stack.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/boostjson_common.h"

namespace sb {
namespace {

namespace bj = boost::json;

// The monotonic resource's reused first buffer; larger messages take blocks from the heap.
constexpr std::size_t kMonotonicBytes = 64 * 1024;

// boost::json::parser's handler: every event pushed onto a value_stack. Only on_double differs.
struct StackHandler {
  static constexpr std::size_t max_object_size = bj::object::max_size();
  static constexpr std::size_t max_array_size = bj::array::max_size();
  static constexpr std::size_t max_key_size = bj::string::max_size();
  static constexpr std::size_t max_string_size = bj::string::max_size();

  bj::value_stack st;         // the tree being built
  bool out_of_range = false;  // a number beyond double stopped the parser

  bool on_document_begin(bj::error_code&) { return true; }
  bool on_document_end(bj::error_code&) { return true; }
  bool on_object_begin(bj::error_code&) { return true; }
  bool on_object_end(std::size_t n, bj::error_code&) { return st.push_object(n), true; }
  bool on_array_begin(bj::error_code&) { return true; }
  bool on_array_end(std::size_t n, bj::error_code&) { return st.push_array(n), true; }
  bool on_key_part(bj::string_view s, std::size_t, bj::error_code&) {
    return st.push_chars(s), true;
  }
  bool on_key(bj::string_view s, std::size_t, bj::error_code&) { return st.push_key(s), true; }
  bool on_string_part(bj::string_view s, std::size_t, bj::error_code&) {
    return st.push_chars(s), true;
  }
  bool on_string(bj::string_view s, std::size_t, bj::error_code&) {
    return st.push_string(s), true;
  }
  bool on_number_part(bj::string_view, bj::error_code&) { return true; }
  bool on_int64(std::int64_t i, bj::string_view, bj::error_code&) { return st.push_int64(i), true; }
  bool on_uint64(std::uint64_t u, bj::string_view, bj::error_code&) {
    return st.push_uint64(u), true;
  }
  bool on_double(double, bj::string_view s, bj::error_code&) {
    double d = 0;
    if (!boostjson_precise_double({s.data(), s.size()}, d)) return !(out_of_range = true);
    return st.push_double(d), true;
  }
  bool on_bool(bool b, bj::error_code&) { return st.push_bool(b), true; }
  bool on_null(bj::error_code&) { return st.push_null(), true; }
  bool on_comment_part(bj::string_view, bj::error_code&) { return true; }
  bool on_comment(bj::string_view, bj::error_code&) { return true; }
};

// The parse options: the library's defaults (strict JSON, UTF-8 validated) except max_depth,
// whose default is 32.
bj::parse_options options(const Limits& limits) {
  bj::parse_options o;
  o.max_depth = limits.max_depth;
  return o;
}

template <bool kMonotonic>
class BoostjsonDom {
 public:
  static constexpr Format kFormat = Format::json;

  explicit BoostjsonDom(const Limits& limits)
      : limits_(limits),
        buffer_(kMonotonic ? std::make_unique<unsigned char[]>(kMonotonicBytes) : nullptr),
        parser_(options(limits)) {}

  Status parse(MessageBuffer& message) {
    root_.reset();  // the previous tree goes before its memory is reused
    // Rebuilt rather than release()d: 1.81's release() frees the heap blocks but keeps the next
    // block size, which doubles with every block ever taken, so a resource reused this way soon
    // asks for an impossible block (std::bad_alloc after a few dozen large messages).
    if constexpr (kMonotonic) resource_.emplace(buffer_.get(), kMonotonicBytes);
    parser_.reset();
    StackHandler& h = parser_.handler();
    h.out_of_range = false;
    h.st.reset(kMonotonic ? bj::storage_ptr(&*resource_) : bj::storage_ptr());
    bj::error_code ec;
    const std::size_t n = parser_.write_some(false, message.data(), message.size(), ec);
    const Location where{.offset = static_cast<std::int64_t>(n)};
    if (h.out_of_range) return Status::malformed(std::string(kBoostjsonNumberRange), where);
    if (ec == bj::error::too_deep) return too_deep(limits_.max_depth, where);
    if (ec) return Status::malformed(ec.message(), where);
    // What boost::json::parser::write adds: nothing may follow the value.
    if (n != message.size())
      return Status::malformed(bj::error_code(bj::error::extra_data).message(), where);
    root_.emplace(h.st.release());  // moved, so the tree keeps its resource
    return Status::success();
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
    const bj::value* container;  // object or array
    std::size_t index;           // next member / element to visit
  };

  // Iterative pre-order walk; the parser already refused anything deeper than max_depth.
  template <class Sink>
  Status emit_tree(Sink& sink) {
    stack_.clear();
    const bj::value* v = &*root_;
    for (;;) {
      if (!emit_value(*v, sink)) return Status::stopped();
      // Next: the next child of the innermost open container, closing the finished ones.
      for (;;) {
        if (stack_.empty()) return Status::success();
        Frame& f = stack_.back();
        const bool object = f.container->is_object();
        if (f.index <
            (object ? f.container->get_object().size() : f.container->get_array().size())) {
          v = child(f, sink);
          if (v == nullptr) return Status::stopped();
          ++f.index;
          break;
        }
        if (!(object ? sink.end_object() : sink.end_array())) return Status::stopped();
        stack_.pop_back();
      }
    }
  }

  // Emits a value's own event; a non-empty container is opened and pushed (closed by emit_tree).
  template <class Sink>
  bool emit_value(const bj::value& v, Sink& sink) {
    switch (v.kind()) {
      case bj::kind::object:
        if (!sink.start_object()) return false;
        if (v.get_object().empty()) return sink.end_object();
        stack_.push_back({&v, 0});
        return true;
      case bj::kind::array:
        if (!sink.start_array()) return false;
        if (v.get_array().empty()) return sink.end_array();
        stack_.push_back({&v, 0});
        return true;
      case bj::kind::string:
        return sink.string_value({v.get_string().data(), v.get_string().size()});
      case bj::kind::int64:
        return sink.int_value(v.get_int64());
      case bj::kind::uint64:
        // Only above INT64_MAX (smaller ones are int64): a double in the event contract.
        return sink.double_value(static_cast<double>(v.get_uint64()));
      case bj::kind::double_:
        return sink.double_value(v.get_double());
      case bj::kind::bool_:
        return sink.bool_value(v.get_bool());
      case bj::kind::null:
        return sink.null_value();
    }
    return true;
  }

  // The frame's current child; for an object, its key is emitted first. nullptr: stopped.
  template <class Sink>
  static const bj::value* child(const Frame& f, Sink& sink) {
    if (f.container->is_array()) return &f.container->get_array()[f.index];
    const bj::key_value_pair& m = f.container->get_object().begin()[f.index];
    if (!sink.key({m.key().data(), m.key().size()})) return nullptr;
    return &m.value();
  }

  Limits limits_;                                   // depth policy (the parser applies it)
  std::unique_ptr<unsigned char[]> buffer_;         // dom-monotonic: the resource's first buffer
  std::optional<bj::monotonic_resource> resource_;  // dom-monotonic: the tree's memory
  bj::basic_parser<StackHandler> parser_;           // reused: its state stack keeps its capacity
  std::optional<bj::value> root_;                   // the last parse's tree
  std::vector<Frame> stack_;                        // scratch for the walk
};

AdapterInfo boostjson_dom_info_for(bool monotonic) {
  return AdapterInfo{
      .name = monotonic ? "boostjson/dom-monotonic" : "boostjson/dom",
      .library = "Boost.JSON",
      .version = boostjson_version(),
      .format = Format::json,
      .model = Model::dom,
      .mode = std::string("basic_parser + value_stack (boost::json::parser's handler), "
                          "parse_options{max_depth=limit}, storage: ") +
              (monotonic ? "monotonic_resource(64 KiB buffer), rebuilt per message"
                         : "default resource (new/delete)"),
      .validates_utf8 = true,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = false,
      .reuses_state = true,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          std::string("parser and value_stack reused; ") +
          (monotonic
               ? "the tree lives in a monotonic_resource whose 64 KiB buffer is "
                 "reused (larger messages take heap blocks, freed when it is rebuilt per message: "
                 "1.81's release() keeps doubling the next block size)"
               : "a new tree per message, every container and long string its "
                 "own allocation") +
          "; doubles re-read with std::from_chars (1.81 is not correctly rounded: 10% of "
          "corpus doubles differ); the library's max_depth (default 32) set to the limit",
  };
}

}  // namespace

const AdapterInfo& boostjson_dom_info() {
  static const AdapterInfo info = boostjson_dom_info_for(false);
  return info;
}
std::unique_ptr<Adapter> make_boostjson_dom(const Limits& limits) {
  return make_adapter<BoostjsonDom<false>>(boostjson_dom_info(), limits);
}

const AdapterInfo& boostjson_dom_monotonic_info() {
  static const AdapterInfo info = boostjson_dom_info_for(true);
  return info;
}
std::unique_ptr<Adapter> make_boostjson_dom_monotonic(const Limits& limits) {
  return make_adapter<BoostjsonDom<true>>(boostjson_dom_monotonic_info(), limits);
}

}  // namespace sb
