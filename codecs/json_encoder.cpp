#include "codecs/json_encoder.h"

#include <cmath>

#include "codecs/base64.h"

namespace sb::rpc {

namespace {

// Values nested deeper than this are refused: the encoder recurses (see xml_encoder.cpp).
constexpr int kMaxDepth = 256;

// "YYYY-MM-DDThh:mm:ss": Value::datetime's promise; the decoder refuses anything else.
bool is_canonical_datetime(std::string_view s) {
  if (s.size() != 19) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char want = i == 4 || i == 7 ? '-' : i == 10 ? 'T' : i == 13 || i == 16 ? ':' : '0';
    if (want == '0' ? (s[i] < '0' || s[i] > '9') : s[i] != want) return false;
  }
  return true;
}

// One message being written; W is DirectJsonWriter (direct calls) or JsonWriter (virtual calls).
template <class W>
class Encoder {
 public:
  // w receives the events; error the reason of a failure.
  Encoder(W& w, std::string& error) : w_(w), error_(error) {}

  // Writes m; false with error_ set on failure.
  bool encode(const Message& m, const JsonRpcOptions& options) {
    w_.start_object();
    w_.key("jsonrpc");
    w_.string_value("2.0");
    switch (m.kind) {
      case MessageKind::call:
        if (m.method.empty()) return fail("a call needs a method name");
        w_.key("method");
        w_.string_value(m.method);
        w_.key("params");
        w_.start_array();
        for (std::size_t i = 0; i < m.params.size(); ++i) {
          if (!value(m.params[i], 0)) return located("param " + std::to_string(i + 1));
        }
        w_.end_array();
        break;
      case MessageKind::response:
        w_.key("result");
        if (!value(m.result, 0)) return located("result");
        break;
      case MessageKind::fault:
        w_.key("error");
        w_.start_object();
        w_.key("code");
        w_.int_value(m.fault_code);
        w_.key("message");
        w_.string_value(m.fault_message);
        w_.end_object();
        break;
      case MessageKind::batch:
        return fail("a batch is written message by message");
    }
    if (!options.notification || m.kind != MessageKind::call) {
      w_.key("id");
      w_.int_value(options.id);
    }
    w_.end_object();
    return true;
  }

 private:
  // One value; dateTime and base64 as strings (the contract types them back).
  bool value(const Value& v, int depth) {
    if (depth > kMaxDepth) return fail("values nested deeper than " + std::to_string(kMaxDepth));
    switch (v.kind()) {
      case Kind::nil:
        if (v.is_reference()) return fail("an unresolved SOAP href (#" + v.text() + ")");
        w_.null_value();
        break;
      case Kind::boolean:
        w_.bool_value(v.as_bool());
        break;
      case Kind::integer:
        w_.int_value(v.as_int());
        break;
      case Kind::floating:
        if (!std::isfinite(v.as_double())) {
          return fail("JSON-RPC cannot carry NaN or infinity (JSON has no spelling for them)");
        }
        w_.double_value(v.as_double());
        break;
      case Kind::string:
        w_.string_value(v.text());
        break;
      case Kind::datetime:
        if (!is_canonical_datetime(v.text())) {
          return fail("dateTime '" + v.text() + "' is not YYYY-MM-DDThh:mm:ss");
        }
        w_.string_value(v.text());
        break;
      case Kind::base64:
        w_.string_value(base64_encode(v.text()));
        break;
      case Kind::array:
        w_.start_array();
        for (const Value& item : v.items()) {
          if (!value(item, depth + 1)) return false;
        }
        w_.end_array();
        break;
      case Kind::structure:
        w_.start_object();
        for (std::size_t i = 0; i < v.items().size(); ++i) {
          w_.key(v.names()[i]);
          if (!value(v.items()[i], depth + 1)) return located("member " + v.names()[i]);
        }
        w_.end_object();
        break;
    }
    return true;
  }

  // Records the reason; always false.
  bool fail(std::string reason) {
    error_ = std::move(reason);
    return false;
  }

  // Prefixes the recorded reason with where it happened; always false.
  bool located(const std::string& where) {
    error_ = where + ": " + error_;
    return false;
  }

  W& w_;                // the writer
  std::string& error_;  // the caller's error slot
};

}  // namespace

template <class Writer>
bool encode_json(const Message& m, Writer& w, std::string& out, std::string& error,
                 const JsonRpcOptions& options) {
  error.clear();
  w.reset();
  Encoder<Writer> encoder(w, error);
  if (!encoder.encode(m, options)) return false;
  if (!w.finish(out)) {
    error = std::string(w.error());
    return false;
  }
  return true;
}

template bool encode_json<DirectJsonWriter>(const Message&, DirectJsonWriter&, std::string&,
                                            std::string&, const JsonRpcOptions&);
template bool encode_json<JsonWriter>(const Message&, JsonWriter&, std::string&, std::string&,
                                      const JsonRpcOptions&);

}  // namespace sb::rpc
