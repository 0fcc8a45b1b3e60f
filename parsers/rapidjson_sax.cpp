// RapidJSON in its SAX model: a reused GenericReader drives a handler that forwards every
// callback to the sink and stops the Reader beyond the depth limit.
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/null_sink.h"
#include "parsers/rapidjson_numbers.h"

namespace sb {
namespace {

// kParseFullPrecisionFlag: RapidJSON's default number parsing is not correctly rounded (its
// docs allow 3 ULP of error), and the Digest hashes the IEEE bits of every double. On 1e6
// shortest-form doubles drawn like the corpus's (uniform in ±1e6) the default differs from
// strtod on 10.3% of them; full precision on none. The default does not validate UTF-8
// (kParseValidateEncodingFlag off) and we keep it so.
constexpr unsigned kParseFlags = rapidjson::kParseFullPrecisionFlag;

// A RapidJSON Handler that forwards to a JsonSink. The Reader recurses once per nesting level,
// so StartObject/StartArray stop it (kParseErrorTermination) beyond max_depth: 100,000-deep
// input cannot overflow the stack. Cost: one counter per container.
template <class Sink>
class SinkHandler {
 public:
  SinkHandler(Sink& sink, std::size_t max_depth, const rapidjson::StringStream& stream)
      : sink_(sink), max_depth_(max_depth), stream_(stream) {}

  bool Null() { return sink_.null_value(); }
  bool Bool(bool b) { return sink_.bool_value(b); }
  bool Int(int i) { return sink_.int_value(i); }
  bool Uint(unsigned u) { return sink_.int_value(u); }
  bool Int64(std::int64_t i) { return sink_.int_value(i); }
  bool Uint64(std::uint64_t u) {
    // Integers above INT64_MAX are doubles in the event contract.
    return u <= static_cast<std::uint64_t>(INT64_MAX)
               ? sink_.int_value(static_cast<std::int64_t>(u))
               : sink_.double_value(static_cast<double>(u));
  }
  bool Double(double d) { return sink_.double_value(rapidjson_corrected_double(d, stream_.src_)); }
  // Only called with kParseNumbersAsStringsFlag, which is off.
  bool RawNumber(const char*, rapidjson::SizeType, bool) { return false; }
  bool String(const char* s, rapidjson::SizeType n, bool) { return sink_.string_value({s, n}); }
  bool StartObject() { return enter() && sink_.start_object(); }
  bool Key(const char* s, rapidjson::SizeType n, bool) { return sink_.key({s, n}); }
  bool EndObject(rapidjson::SizeType) {
    --depth_;
    return sink_.end_object();
  }
  bool StartArray() { return enter() && sink_.start_array(); }
  bool EndArray(rapidjson::SizeType) {
    --depth_;
    return sink_.end_array();
  }

  bool depth_exceeded() const { return depth_exceeded_; }

 private:
  bool enter() {
    if (++depth_ <= max_depth_) return true;
    depth_exceeded_ = true;
    return false;
  }

  Sink& sink_;                             // where events go
  std::size_t max_depth_;                  // deepest container nesting accepted
  const rapidjson::StringStream& stream_;  // the Reader's stream: at a number's text in Double()
  std::size_t depth_ = 0;                  // open containers
  bool depth_exceeded_ = false;  // the Reader was stopped by the depth limit, not the sink
};

class RapidjsonSax {
 public:
  static constexpr Format kFormat = Format::json;

  explicit RapidjsonSax(const Limits& limits) : limits_(limits) {}

  Status parse(MessageBuffer& message) {
    NullSink sink;
    return events(message, sink);
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    // StringStream reads up to the terminating NUL that MessageBuffer guarantees.
    rapidjson::StringStream stream(message.data());
    SinkHandler<Sink> handler(sink, limits_.max_depth, stream);
    const rapidjson::ParseResult r = reader_.Parse<kParseFlags>(stream, handler);
    if (r.IsError()) {
      const Location where{.offset = static_cast<std::int64_t>(r.Offset())};
      if (r.Code() == rapidjson::kParseErrorTermination) {
        if (handler.depth_exceeded()) {
          return too_deep(limits_.max_depth, where);
        }
        return Status::stopped();
      }
      return Status::malformed(rapidjson::GetParseError_En(r.Code()), where);
    }
    // A NUL byte inside the message ends a StringStream early: the rest would go unread.
    if (stream.Tell() != message.size()) {
      return Status::malformed("NUL byte before the end of the message",
                               Location{.offset = static_cast<std::int64_t>(stream.Tell())});
    }
    return Status::success();
  }

 private:
  Limits limits_;             // depth policy
  rapidjson::Reader reader_;  // reused: its string stack keeps its capacity across messages
};

}  // namespace

const AdapterInfo& rapidjson_sax_info() {
  static const AdapterInfo info{
      .name = "rapidjson/sax",
      .library = "RapidJSON",
      // RapidJSON exposes no run-time version: the header macro.
      .version = RAPIDJSON_VERSION_STRING,
      .format = Format::json,
      .model = Model::sax,
      .mode = "Reader::Parse<kParseFullPrecisionFlag>(StringStream)",
      .validates_utf8 = false,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = false,
      .reuses_state = true,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          "Reader reused (its string stack keeps its capacity: no allocation per message); "
          "strings are copied to that stack; kParseFullPrecisionFlag: default number "
          "parsing is not correctly rounded (10% of corpus doubles differ); the handler "
          "stops the recursive Reader beyond max_depth",
  };
  return info;
}
std::unique_ptr<Adapter> make_rapidjson_sax(const Limits& limits) {
  return make_adapter<RapidjsonSax>(rapidjson_sax_info(), limits);
}

}  // namespace sb
