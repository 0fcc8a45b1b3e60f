// simdjson in its On-Demand model (a pull model): a reused ondemand::parser indexes the caller's
// padded buffer (stage 1), then every value is visited in document order.
//
// What `parse` means here: iterate() alone only indexes the structure (validating UTF-8 and
// string termination); skipping the document from there (document::raw_json) still accepts
// `[tru, 1x, "\q"]` and even `[1,2}` (checked with 3.0.1). So `parse` = iterate() + visit
// every value with a no-op sink (numbers parsed, strings unescaped, literals and brackets
// checked): the pull reader read to the end, validating what `walk` validates. `walk` is the
// same loop with the digest sink.
#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/null_sink.h"

namespace sb {
namespace {

namespace od = simdjson::ondemand;

static_assert(MessageBuffer::kPadding >= simdjson::SIMDJSON_PADDING);

// First capacity of the parser; it grows to the largest message seen.
constexpr std::size_t kInitialCapacity = 64 * 1024;

// How a visit ended; on `error`, error_ holds simdjson's code.
enum class Step { ok, error, limit, stopped };

class SimdjsonOndemand {
 public:
  static constexpr Format kFormat = Format::json;

  explicit SimdjsonOndemand(const Limits& limits) : limits_(limits) {
    // On-Demand does not check depth itself (the walk below does); max_depth is set anyway.
    init_error_ = parser_.allocate(kInitialCapacity, limits.max_depth);
  }

  Status parse(MessageBuffer& message) {
    NullSink sink;
    return events(message, sink);
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    if (init_error_ != simdjson::SUCCESS) {
      return Status::malformed(simdjson::error_message(init_error_));
    }
    od::document doc;
    // No copy: MessageBuffer's capacity() covers the padding.
    error_ = parser_.iterate(message.data(), message.size(), message.capacity()).get(doc);
    if (error_ != simdjson::SUCCESS) return Status::malformed(simdjson::error_message(error_));
    const Step step = visit_root(doc, sink);
    switch (step) {
      case Step::ok:
        return Status::success();
      case Step::stopped:
        return Status::stopped();
      case Step::limit:
        return too_deep(limits_.max_depth, where(doc, message));
      case Step::error:
        break;
    }
    return Status::malformed(simdjson::error_message(error_), where(doc, message));
  }

 private:
  // The document's root: containers are walked; a scalar root uses the document's own getters.
  // Either way nothing may follow the root value.
  template <class Sink>
  Step visit_root(od::document& doc, Sink& sink) {
    od::json_type type;
    if (fails(doc.type().get(type))) return Step::error;
    Step step;
    switch (type) {
      case od::json_type::array: {
        od::array a;
        if (fails(doc.get_array().get(a))) return Step::error;
        step = visit_array(a, 1, sink);
        break;
      }
      case od::json_type::object: {
        od::object o;
        if (fails(doc.get_object().get(o))) return Step::error;
        step = visit_object(o, 1, sink);
        break;
      }
      default:
        // The getters check what follows a root number, true, false or null, but not what
        // follows a root string (simdjson 3.0.1 accepts `""x`): the check below covers both.
        step = visit_scalar(doc, type, sink);
        break;
    }
    if (step != Step::ok) return step;
    // On-Demand stops after the root value: anything left over is trailing content.
    const char* rest = nullptr;
    if (doc.current_location().get(rest) == simdjson::SUCCESS) {
      error_ = simdjson::TRAILING_CONTENT;
      return Step::error;
    }
    return Step::ok;
  }

  // Visits one value inside a container at nesting `depth` (the root container is depth 1).
  template <class Sink>
  Step visit_value(od::value& v, std::size_t depth, Sink& sink) {
    od::json_type type;
    if (fails(v.type().get(type))) return Step::error;
    switch (type) {
      case od::json_type::array: {
        od::array a;
        if (fails(v.get_array().get(a))) return Step::error;
        return visit_array(a, depth + 1, sink);
      }
      case od::json_type::object: {
        od::object o;
        if (fails(v.get_object().get(o))) return Step::error;
        return visit_object(o, depth + 1, sink);
      }
      default:
        return visit_scalar(v, type, sink);
    }
  }

  // Recursion is bounded: the depth is checked before descending.
  template <class Sink>
  Step visit_array(od::array& a, std::size_t depth, Sink& sink) {
    if (depth > limits_.max_depth) return Step::limit;
    if (!sink.start_array()) return Step::stopped;
    for (auto element : a) {
      od::value v;
      if (fails(std::move(element).get(v))) return Step::error;
      if (const Step s = visit_value(v, depth, sink); s != Step::ok) return s;
    }
    return sink.end_array() ? Step::ok : Step::stopped;
  }

  template <class Sink>
  Step visit_object(od::object& o, std::size_t depth, Sink& sink) {
    if (depth > limits_.max_depth) return Step::limit;
    if (!sink.start_object()) return Step::stopped;
    for (auto member : o) {
      od::field f;
      std::string_view key;
      if (fails(std::move(member).get(f)) || fails(f.unescaped_key().get(key))) return Step::error;
      if (!sink.key(key)) return Step::stopped;
      if (const Step s = visit_value(f.value(), depth, sink); s != Step::ok) return s;
    }
    return sink.end_object() ? Step::ok : Step::stopped;
  }

  // A scalar from a value or from a scalar document (same getters).
  template <class Source, class Sink>
  Step visit_scalar(Source& v, od::json_type type, Sink& sink) {
    bool ok = true;
    switch (type) {
      case od::json_type::number: {
        // Classify, then read with the typed getter. Not get_number(): in simdjson 3.0.1 it
        // returns 0.0 for doubles written with 19 or more significant digits
        // ("123456789012345680.0"; simdjson issue #2099), while get_double() is right.
        od::number_type kind;
        if (fails(v.get_number_type().get(kind))) return Step::error;
        switch (kind) {
          case od::number_type::signed_integer: {
            std::int64_t i;
            if (fails(v.get_int64().get(i))) return Step::error;
            ok = sink.int_value(i);
            break;
          }
          case od::number_type::unsigned_integer: {
            // Integers above INT64_MAX are doubles in the event contract.
            std::uint64_t u;
            if (fails(v.get_uint64().get(u))) return Step::error;
            ok = sink.double_value(static_cast<double>(u));
            break;
          }
          case od::number_type::floating_point_number: {
            double d;
            if (fails(v.get_double().get(d))) return Step::error;
            ok = sink.double_value(d);
            break;
          }
        }
        break;
      }
      case od::json_type::string: {
        std::string_view s;
        if (fails(v.get_string().get(s))) return Step::error;
        ok = sink.string_value(s);
        break;
      }
      case od::json_type::boolean: {
        bool b;
        if (fails(v.get_bool().get(b))) return Step::error;
        ok = sink.bool_value(b);
        break;
      }
      case od::json_type::null: {
        bool is_null;
        if (fails(v.is_null().get(is_null))) return Step::error;
        if (!is_null) {  // starts with 'n' but is not `null`
          error_ = simdjson::N_ATOM_ERROR;
          return Step::error;
        }
        ok = sink.null_value();
        break;
      }
      default:  // containers are handled by the callers
        break;
    }
    return ok ? Step::ok : Step::stopped;
  }

  // Records a failed simdjson call.
  bool fails(simdjson::error_code e) {
    error_ = e;
    return e != simdjson::SUCCESS;
  }

  // Where the iterator stopped, as an offset into the message (when simdjson knows).
  static Location where(od::document& doc, const MessageBuffer& message) {
    const char* p = nullptr;
    if (doc.current_location().get(p) != simdjson::SUCCESS || p < message.data() ||
        p > message.data() + message.size()) {
      return {};
    }
    return Location{.offset = p - message.data()};
  }

  Limits limits_;      // depth policy
  od::parser parser_;  // reused: its index and string buffer grow to the largest message
  simdjson::error_code init_error_;                 // allocation failure in the constructor
  simdjson::error_code error_ = simdjson::SUCCESS;  // the last failed call's code
};

}  // namespace

const AdapterInfo& simdjson_ondemand_info() {
#define SB_STR_(x) #x
#define SB_STR(x) SB_STR_(x)
  static const AdapterInfo info{
      .name = "simdjson/ondemand",
      .library = "simdjson",
      // simdjson exposes no run-time version: the header macro of the installed library.
      .version = SB_STR(SIMDJSON_VERSION),
      .format = Format::json,
      .model = Model::pull,
      .mode = "ondemand::parser::iterate(padded_string_view), every value visited",
      .validates_utf8 = true,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = false,
      .reuses_state = true,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes = std::string(
                   "ondemand::parser reused (buffers grow to the largest message); parse "
                   "level = iterate() + visiting every value with a no-op sink (skipping "
                   "would leave numbers, escapes, literals and brackets unchecked); stage 1 runs "
                   "the run-time dispatched '") +
               simdjson::get_active_implementation()->name() +
               "' kernel, value parsing the compile-time '" +
               simdjson::builtin_implementation()->name() +
               "' one (this file is compiled for AVX2 where the build machine has it: "
               "parsers/CMakeLists.txt); depth checked by the adapter, and trailing content "
               "after the root value (the library does not check it after a root string)",
  };
#undef SB_STR
#undef SB_STR_
  return info;
}
std::unique_ptr<Adapter> make_simdjson_ondemand(const Limits& limits) {
  return make_adapter<SimdjsonOndemand>(simdjson_ondemand_info(), limits);
}

}  // namespace sb
