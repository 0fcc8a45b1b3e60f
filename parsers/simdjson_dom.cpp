// simdjson in its DOM model: a reused dom::parser builds its tape straight from the caller's
// buffer (MessageBuffer carries the SIMDJSON_PADDING zero bytes simdjson needs, so no copy).
#include <simdjson.h>

#include <cstdint>
#include <string>
#include <vector>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"

namespace sb {
namespace {

static_assert(MessageBuffer::kPadding >= simdjson::SIMDJSON_PADDING);

// First capacity of the parser; it grows to the largest message seen.
constexpr std::size_t kInitialCapacity = 64 * 1024;

// How emitting one value ended.
enum class Step { ok, stopped, limit };

// A sink's answer as a Step.
Step step(bool sink_continues) { return sink_continues ? Step::ok : Step::stopped; }

class SimdjsonDom {
 public:
  static constexpr Format kFormat = Format::json;

  explicit SimdjsonDom(const Limits& limits) : limits_(limits) {
    // simdjson checks depth only when a non-empty container opens, and rejects at
    // depth >= max_depth: max_depth + 1 accepts exactly max_depth levels of non-empty
    // containers. An empty container one level deeper still passes the parser (simdjson never
    // checks empty ones); the walk below rejects it, so only the `parse` level lets that one
    // case through. The parser's stage 2 is iterative: no stack risk. Growth keeps max_depth.
    init_error_ = parser_.allocate(kInitialCapacity, limits.max_depth + 1);
  }

  Status parse(MessageBuffer& message) {
    if (init_error_ != simdjson::SUCCESS) return failure(init_error_);
    // realloc_if_needed = false: the padding is already there.
    const simdjson::error_code e = parser_.parse(message.data(), message.size(), false).get(root_);
    if (e != simdjson::SUCCESS) return failure(e);
    return Status::success();
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    Status s = parse(message);
    if (!s.ok()) return s;
    return emit_tree(sink);
  }

 private:
  // An open container during the walk: the position of its next child and its end.
  struct Frame {
    bool object;                            // which pair of iterators is in use
    simdjson::dom::array::iterator a;       // next element
    simdjson::dom::array::iterator a_end;   // past the last element
    simdjson::dom::object::iterator o;      // next member
    simdjson::dom::object::iterator o_end;  // past the last member
  };

  // DEPTH_ERROR is our policy (the parser's max_depth comes from limits.max_depth); simdjson's
  // DOM reports no error position.
  Status failure(simdjson::error_code e) const {
    if (e == simdjson::DEPTH_ERROR) {
      return too_deep(limits_.max_depth);
    }
    return Status::malformed(simdjson::error_message(e));
  }

  // Iterative pre-order walk over the tape (no recursion).
  template <class Sink>
  Status emit_tree(Sink& sink) {
    stack_.clear();
    simdjson::dom::element v = root_;
    for (;;) {
      if (const Step step = emit_value(v, sink); step != Step::ok) {
        return step == Step::limit ? too_deep(limits_.max_depth) : Status::stopped();
      }
      // Next: the next child of the innermost open container, closing the finished ones.
      for (;;) {
        if (stack_.empty()) return Status::success();
        Frame& f = stack_.back();
        if (f.object ? f.o != f.o_end : f.a != f.a_end) {
          if (f.object) {
            if (!sink.key(f.o.key())) return Status::stopped();
            v = f.o.value();
            ++f.o;
          } else {
            v = *f.a;
            ++f.a;
          }
          break;
        }
        if (!(f.object ? sink.end_object() : sink.end_array())) return Status::stopped();
        stack_.pop_back();
      }
    }
  }

  // Emits a value's own event; a container is opened and pushed (closed by emit_tree), unless
  // it is one level too deep (see the constructor).
  template <class Sink>
  Step emit_value(simdjson::dom::element v, Sink& sink) {
    using simdjson::dom::element_type;
    switch (v.type()) {
      case element_type::ARRAY: {
        if (stack_.size() >= limits_.max_depth) return Step::limit;
        const simdjson::dom::array a = v.get_array().value_unsafe();
        stack_.push_back({.object = false, .a = a.begin(), .a_end = a.end(), .o = {}, .o_end = {}});
        return step(sink.start_array());
      }
      case element_type::OBJECT: {
        if (stack_.size() >= limits_.max_depth) return Step::limit;
        const simdjson::dom::object o = v.get_object().value_unsafe();
        stack_.push_back({.object = true, .a = {}, .a_end = {}, .o = o.begin(), .o_end = o.end()});
        return step(sink.start_object());
      }
      case element_type::INT64:
        return step(sink.int_value(v.get_int64().value_unsafe()));
      case element_type::UINT64:
        // Integers above INT64_MAX are doubles in the event contract.
        return step(sink.double_value(static_cast<double>(v.get_uint64().value_unsafe())));
      case element_type::DOUBLE:
        return step(sink.double_value(v.get_double().value_unsafe()));
      case element_type::STRING:
        return step(sink.string_value(v.get_string().value_unsafe()));
      case element_type::BOOL:
        return step(sink.bool_value(v.get_bool().value_unsafe()));
      case element_type::NULL_VALUE:
        return step(sink.null_value());
    }
    return Step::ok;
  }

  Limits limits_;                    // depth policy
  simdjson::dom::parser parser_;     // reused: buffers grow to the largest message
  simdjson::error_code init_error_;  // allocation failure in the constructor
  simdjson::dom::element root_;      // the last parse's root
  std::vector<Frame> stack_;         // scratch for the walk
};

}  // namespace

const AdapterInfo& simdjson_dom_info() {
#define SB_STR_(x) #x
#define SB_STR(x) SB_STR_(x)
  static const AdapterInfo info{
      .name = "simdjson/dom",
      .library = "simdjson",
      // simdjson exposes no run-time version: the header macro of the installed library.
      .version = SB_STR(SIMDJSON_VERSION),
      .format = Format::json,
      .model = Model::dom,
      .mode = "dom::parser::parse(buf, len, realloc_if_needed=false), max_depth=limit+1",
      .validates_utf8 = true,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = false,
      .reuses_state = true,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          std::string("dom::parser reused (tape and string buffers grow to the largest message); "
                      "parse and tape are run-time dispatched to the '") +
          simdjson::get_active_implementation()->name() +
          "' kernel; integers beyond uint64 are rejected (NUMBER_ERROR); an empty container "
          "one level past max_depth passes `parse` (simdjson skips its depth check) and is "
          "rejected by walk/decode",
  };
#undef SB_STR
#undef SB_STR_
  return info;
}
std::unique_ptr<Adapter> make_simdjson_dom(const Limits& limits) {
  return make_adapter<SimdjsonDom>(simdjson_dom_info(), limits);
}

}  // namespace sb
