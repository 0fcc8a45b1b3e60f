// YAJL in its SAX model (callbacks): a handle per message, the message handed over in one
// yajl_parse call, then yajl_complete_parse; the callbacks forward every event to the sink and
// stop the parser beyond the depth limit.
#include <yajl/yajl_parse.h>
#include <yajl/yajl_version.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "parsers/adapter_impl.h"
#include "parsers/adapters.h"
#include "parsers/null_sink.h"

namespace sb {
namespace {

// What the callbacks see through YAJL's context pointer.
template <class Sink>
struct Context {
  Sink& sink;                   // where events go
  std::size_t max_depth;        // deepest container nesting accepted
  std::size_t depth = 0;        // open containers
  bool depth_exceeded = false;  // the parser was stopped by the depth limit, not the sink

  // Counts a container in; false (stop) beyond max_depth.
  bool enter() {
    if (++depth <= max_depth) return true;
    depth_exceeded = true;
    return false;
  }
};

// YAJL's callback table for a sink type. YAJL's own parser is a state machine with a heap
// stack (no recursion) and no depth limit, so start_map/start_array apply max_depth.
template <class Sink>
struct Callbacks {
  static Context<Sink>& ctx(void* c) { return *static_cast<Context<Sink>*>(c); }
  static std::string_view text(const unsigned char* s, std::size_t n) {
    return {reinterpret_cast<const char*>(s), n};
  }

  static int on_null(void* c) { return ctx(c).sink.null_value(); }
  static int on_boolean(void* c, int b) { return ctx(c).sink.bool_value(b != 0); }
  static int on_integer(void* c, long long i) { return ctx(c).sink.int_value(i); }
  static int on_double(void* c, double d) { return ctx(c).sink.double_value(d); }
  static int on_string(void* c, const unsigned char* s, std::size_t n) {
    return ctx(c).sink.string_value(text(s, n));
  }
  static int on_start_map(void* c) { return ctx(c).enter() && ctx(c).sink.start_object(); }
  static int on_map_key(void* c, const unsigned char* s, std::size_t n) {
    return ctx(c).sink.key(text(s, n));
  }
  static int on_end_map(void* c) {
    --ctx(c).depth;
    return ctx(c).sink.end_object();
  }
  static int on_start_array(void* c) { return ctx(c).enter() && ctx(c).sink.start_array(); }
  static int on_end_array(void* c) {
    --ctx(c).depth;
    return ctx(c).sink.end_array();
  }

  // yajl_number stays null: integers then go to yajl_integer (beyond long long: an error) and
  // other numbers to yajl_double (strtod).
  static constexpr yajl_callbacks kTable = {
      on_null,      on_boolean, on_integer, on_double,      nullptr,      on_string,
      on_start_map, on_map_key, on_end_map, on_start_array, on_end_array,
  };
};

// Frees a handle (unique_ptr deleter).
struct HandleFree {
  void operator()(yajl_handle h) const { yajl_free(h); }
};
using Handle = std::unique_ptr<yajl_handle_t, HandleFree>;

// YAJL's non-verbose error text for the handle ("parse error: ..."), without its newline.
Status yajl_failure(yajl_handle h, const MessageBuffer& message) {
  const auto* data = reinterpret_cast<const unsigned char*>(message.data());
  unsigned char* raw = yajl_get_error(h, 0, data, message.size());
  std::string reason(reinterpret_cast<const char*>(raw));
  yajl_free_error(h, raw);
  while (!reason.empty() && (reason.back() == '\n' || reason.back() == ' ')) reason.pop_back();
  return Status::malformed(
      reason, Location{.offset = static_cast<std::int64_t>(yajl_get_bytes_consumed(h))});
}

class YajlSax {
 public:
  static constexpr Format kFormat = Format::json;

  explicit YajlSax(const Limits& limits) : limits_(limits) {}

  Status parse(MessageBuffer& message) {
    NullSink sink;
    return events(message, sink);
  }

  template <class Sink>
  Status events(MessageBuffer& message, Sink& sink) {
    Context<Sink> context{.sink = sink, .max_depth = limits_.max_depth};
    // YAJL 2 has no reset: a handle parses one document. Every option stays at its default
    // (no comments, UTF-8 validated, nothing after the value, no partial values).
    const Handle h(yajl_alloc(&Callbacks<Sink>::kTable, nullptr, &context));
    if (!h) return Status::malformed("yajl_alloc failed");
    yajl_status st =
        yajl_parse(h.get(), reinterpret_cast<const unsigned char*>(message.data()), message.size());
    if (st == yajl_status_ok) st = yajl_complete_parse(h.get());
    switch (st) {
      case yajl_status_ok:
        return Status::success();
      case yajl_status_client_canceled:
        return context.depth_exceeded ? too_deep(limits_.max_depth) : Status::stopped();
      case yajl_status_error:
        break;
    }
    return yajl_failure(h.get(), message);
  }

 private:
  Limits limits_;  // depth policy
};

// "2.1.0" from yajl_version()'s 20100.
std::string yajl_version_string() {
  const int v = yajl_version();
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
         std::to_string(v % 100);
}

}  // namespace

const AdapterInfo& yajl_sax_info() {
  static const AdapterInfo info{
      .name = "yajl/sax",
      .library = "YAJL",
      .version = yajl_version_string(),
      .format = Format::json,
      .model = Model::sax,
      .mode = "yajl_alloc(callbacks, default options); yajl_parse; yajl_complete_parse",
      .validates_utf8 = true,
      .expands_entities = true,
      .processes_namespaces = false,
      .modifies_input = false,
      .reuses_state = false,
      .fastest_mode = false,
      .digest_exempt = false,
      .notes =
          "a handle per message (YAJL 2 has no reset: yajl_alloc/yajl_free each time); "
          "strings without escapes point into the message, escaped ones are decoded into "
          "the handle's buffer; integers beyond long long are a parse error (integer "
          "overflow); no depth limit in the library (its parser is iterative): the "
          "callbacks stop it beyond max_depth; takes a form feed for whitespace "
          "(JSONTestSuite n_structure_whitespace_formfeed)",
  };
  return info;
}
std::unique_ptr<Adapter> make_yajl_sax(const Limits& limits) {
  return make_adapter<YajlSax>(yajl_sax_info(), limits);
}

}  // namespace sb
