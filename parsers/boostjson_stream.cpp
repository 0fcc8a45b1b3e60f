// Boost.JSON in its push model: boost::json::basic_parser with a handler that forwards every
// event to the sink. The library applies max_depth itself (parse_options).
#include <boost/json/basic_parser_impl.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/boostjson_common.h"
#include "parsers/null_sink.h"

namespace sb {
namespace {

namespace bj = boost::json;

// A basic_parser handler forwarding to a JsonSink. basic_parser hands a string or key over in
// parts when it spans its internal buffer (escaped text longer than that buffer); the parts are
// joined in `scratch` so the sink gets each one whole.
template <class Sink>
class SinkHandler {
 public:
  static constexpr std::size_t max_object_size = std::size_t(-1);
  static constexpr std::size_t max_array_size = std::size_t(-1);
  static constexpr std::size_t max_key_size = std::size_t(-1);
  static constexpr std::size_t max_string_size = std::size_t(-1);

  SinkHandler(Sink& sink, std::string& scratch) : sink_(sink), scratch_(scratch) {}

  bool on_document_begin(bj::error_code&) { return true; }
  bool on_document_end(bj::error_code&) { return true; }
  bool on_object_begin(bj::error_code&) { return go(sink_.start_object()); }
  bool on_object_end(std::size_t, bj::error_code&) { return go(sink_.end_object()); }
  bool on_array_begin(bj::error_code&) { return go(sink_.start_array()); }
  bool on_array_end(std::size_t, bj::error_code&) { return go(sink_.end_array()); }
  bool on_key_part(bj::string_view s, std::size_t, bj::error_code&) { return part(s); }
  bool on_key(bj::string_view s, std::size_t, bj::error_code&) { return go(sink_.key(whole(s))); }
  bool on_string_part(bj::string_view s, std::size_t, bj::error_code&) { return part(s); }
  bool on_string(bj::string_view s, std::size_t, bj::error_code&) {
    return go(sink_.string_value(whole(s)));
  }
  bool on_number_part(bj::string_view, bj::error_code&) { return true; }
  bool on_int64(std::int64_t i, bj::string_view, bj::error_code&) { return go(sink_.int_value(i)); }
  // Only above INT64_MAX (smaller ones come as int64): a double in the event contract.
  bool on_uint64(std::uint64_t u, bj::string_view, bj::error_code&) {
    return go(sink_.double_value(static_cast<double>(u)));
  }
  bool on_double(double, bj::string_view s, bj::error_code&) {
    double d = 0;
    if (!boostjson_precise_double({s.data(), s.size()}, d)) {
      out_of_range_ = true;
      return false;
    }
    return go(sink_.double_value(d));
  }
  bool on_bool(bool b, bj::error_code&) { return go(sink_.bool_value(b)); }
  bool on_null(bj::error_code&) { return go(sink_.null_value()); }
  bool on_comment_part(bj::string_view, bj::error_code&) { return true; }
  bool on_comment(bj::string_view, bj::error_code&) { return true; }

  bool out_of_range() const { return out_of_range_; }
  bool stopped() const { return stopped_; }

 private:
  // The sink's answer, remembered: basic_parser reports a handler's false only as "incomplete".
  bool go(bool sink_continues) {
    stopped_ = stopped_ || !sink_continues;
    return sink_continues;
  }
  bool part(bj::string_view s) {
    scratch_.append(s.data(), s.size());
    return true;
  }
  // The last part, joined with any earlier ones.
  std::string_view whole(bj::string_view s) {
    if (scratch_.empty()) return {s.data(), s.size()};
    scratch_.append(s.data(), s.size());
    joined_.swap(scratch_);
    scratch_.clear();
    return joined_;
  }

  Sink& sink_;                 // where events go
  std::string& scratch_;       // parts of the current string or key
  std::string joined_;         // the last joined string (lives until the next one)
  bool out_of_range_ = false;  // a number beyond double stopped the parser
  bool stopped_ = false;       // the sink stopped the parser
};

class BoostjsonStream {
 public:
  static constexpr Format kFormat = Format::json;

  explicit BoostjsonStream(const Limits& limits) : limits_(limits) {
    options_.max_depth = limits.max_depth;  // the library's default is 32
  }

  Status parse(MessageBuffer& message) {
    NullSink sink;
    return events(message, sink);
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    scratch_.clear();
    // A parser per message: its type depends on the sink's; construction allocates nothing.
    bj::basic_parser<SinkHandler<Sink>> parser(options_, sink, scratch_);
    bj::error_code ec;
    const std::size_t n = parser.write_some(false, message.data(), message.size(), ec);
    const Location where{.offset = static_cast<std::int64_t>(n)};
    if (parser.handler().out_of_range()) {
      return Status::malformed(std::string(kBoostjsonNumberRange), where);
    }
    if (ec == bj::error::too_deep) return too_deep(limits_.max_depth, where);
    if (parser.handler().stopped()) return Status::stopped();
    if (ec) return Status::malformed(ec.message(), where);
    if (n != message.size()) {
      return Status::malformed(bj::error_code(bj::error::extra_data).message(), where);
    }
    return Status::success();
  }

 private:
  Limits limits_;              // depth policy (the parser applies it)
  bj::parse_options options_;  // the library's defaults but max_depth
  std::string scratch_;        // reused: joins strings handed over in parts
};

}  // namespace

const AdapterInfo& boostjson_stream_info() {
  static const AdapterInfo info{
      .name = "boostjson/stream",
      .library = "Boost.JSON",
      .version = boostjson_version(),
      .format = Format::json,
      .model = Model::sax,
      .mode = "basic_parser<handler>::write_some(more=false), parse_options{max_depth=limit}",
      .validates_utf8 = true,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = false,
      .reuses_state = false,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          "a basic_parser per message (its type holds the handler's); strings without "
          "escapes point into the message, escaped ones are unescaped into the parser's "
          "buffer (joined here when longer than it); doubles re-read with std::from_chars "
          "(1.81 is not correctly rounded: 10% of corpus doubles differ); the library's "
          "max_depth (default 32) set to the limit",
  };
  return info;
}
std::unique_ptr<Adapter> make_boostjson_stream(const Limits& limits) {
  return make_adapter<BoostjsonStream>(boostjson_stream_info(), limits);
}

}  // namespace sb
