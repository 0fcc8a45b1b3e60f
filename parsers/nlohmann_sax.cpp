// nlohmann/json in its SAX model: json::sax_parse drives a handler that forwards every event to
// the sink and stops the parser beyond the depth limit.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/nul_guard.h"
#include "parsers/null_sink.h"

namespace sb {
namespace {

using Json = nlohmann::json;

// A handler of the library's SAX interface (nlohmann::json_sax) that forwards to a JsonSink.
// The parser itself is iterative and has no depth limit: start_object/start_array stop it
// beyond max_depth. Cost: one counter per container.
template <class Sink>
class SinkHandler {
 public:
  SinkHandler(Sink& sink, std::size_t max_depth) : sink_(sink), max_depth_(max_depth) {}

  bool null() { return sink_.null_value(); }
  bool boolean(bool b) { return sink_.bool_value(b); }
  bool number_integer(Json::number_integer_t i) { return sink_.int_value(i); }
  bool number_unsigned(Json::number_unsigned_t u) {
    // Every non-negative integer arrives here; above INT64_MAX it is a double in the event
    // contract.
    return u <= static_cast<std::uint64_t>(INT64_MAX)
               ? sink_.int_value(static_cast<std::int64_t>(u))
               : sink_.double_value(static_cast<double>(u));
  }
  bool number_float(Json::number_float_t d, const Json::string_t&) { return sink_.double_value(d); }
  bool string(Json::string_t& s) { return sink_.string_value(s); }
  // Only from binary formats (CBOR, MessagePack), never from JSON text.
  bool binary(Json::binary_t&) { return false; }
  bool start_object(std::size_t) { return enter() && sink_.start_object(); }
  bool key(Json::string_t& k) { return sink_.key(k); }
  bool end_object() {
    --depth_;
    return sink_.end_object();
  }
  bool start_array(std::size_t) { return enter() && sink_.start_array(); }
  bool end_array() {
    --depth_;
    return sink_.end_array();
  }
  bool parse_error(std::size_t position, const std::string&, const Json::exception& e) {
    error_ = Status::malformed(e.what(), Location{.offset = static_cast<std::int64_t>(position)});
    return false;
  }

  // Why sax_parse returned false: the library's error, the depth limit or the sink.
  Status failure(std::size_t max_depth) const {
    if (!error_.ok()) return error_;
    return depth_exceeded_ ? too_deep(max_depth) : Status::stopped();
  }

 private:
  bool enter() {
    if (++depth_ <= max_depth_) return true;
    depth_exceeded_ = true;
    return false;
  }

  Sink& sink_;                   // where events go
  std::size_t max_depth_;        // deepest container nesting accepted
  std::size_t depth_ = 0;        // open containers
  bool depth_exceeded_ = false;  // the parser was stopped by the depth limit, not the sink
  Status error_;                 // the library's parse error, if it reported one
};

class NlohmannSax {
 public:
  static constexpr Format kFormat = Format::json;

  explicit NlohmannSax(const Limits& limits) : limits_(limits) {}

  Status parse(MessageBuffer& message) {
    NullSink sink;
    return events(message, sink);
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    SinkHandler<Sink> handler(sink, limits_.max_depth);
    const char* begin = message.data();
    // strict = true: nothing may follow the value; ignore_comments = false: the defaults.
    if (!Json::sax_parse(begin, begin + message.size(), &handler,
                         nlohmann::json::input_format_t::json, true, false)) {
      return handler.failure(limits_.max_depth);
    }
    return check_no_nul(message);
  }

 private:
  Limits limits_;  // depth policy
};

}  // namespace

const AdapterInfo& nlohmann_sax_info() {
  static const AdapterInfo info{
      .name = "nlohmann/sax",
      .library = "nlohmann/json",
      // nlohmann/json is header only: the header's version.
      .version = std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                 std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                 std::to_string(NLOHMANN_JSON_VERSION_PATCH),
      .format = Format::json,
      .model = Model::sax,
      .mode = "json::sax_parse(first, last, handler, json, strict, no comments)",
      .validates_utf8 = true,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = false,
      .reuses_state = false,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          "a new parser and lexer per message (sax_parse has no reusable form); strings "
          "are copied into the lexer's token buffer; no depth limit in the library (its "
          "parser is iterative): the handler stops it beyond max_depth",
  };
  return info;
}
std::unique_ptr<Adapter> make_nlohmann_sax(const Limits& limits) {
  return make_adapter<NlohmannSax>(nlohmann_sax_info(), limits);
}

}  // namespace sb
