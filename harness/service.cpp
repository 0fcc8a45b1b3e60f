#include "harness/service.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <optional>

#include "codecs/scalars.h"

namespace sb {

namespace {

using rpc::Kind;
using rpc::Value;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Checks (and where lossless converts) one value against a type; "" when it conforms. With
// parse_text, a string where a dateTime is due is read as one (complex's typed result).
std::string conform(Value& v, const rpc::Type& t, const std::string& where, bool parse_text) {
  if (v.is_nil()) return "";  // nil is accepted for any type, as xsi:nil and JSON null allow
  auto mismatch = [&] {
    return where + ": expected " + std::string(t.name) + ", got " +
           std::string(rpc::kind_name(v.kind()));
  };
  switch (t.kind) {
    case Kind::floating:
      if (v.kind() == Kind::integer) v = Value::floating(v.as_int());
      return v.kind() == Kind::floating ? "" : mismatch();
    case Kind::datetime:
      if (parse_text && v.kind() == Kind::string) {
        auto d = rpc::parse_datetime_text(v.text());
        if (!d) return where + ": bad dateTime '" + v.text() + "'";
        v = Value::datetime(std::move(*d));
      }
      return v.kind() == Kind::datetime ? "" : mismatch();
    case Kind::array:
      if (v.kind() != Kind::array) return mismatch();
      for (std::size_t i = 0; i < v.items().size(); ++i) {
        std::string e =
            conform(v.items()[i], *t.element, where + "[" + std::to_string(i) + "]", parse_text);
        if (!e.empty()) return e;
      }
      return "";
    case Kind::structure:
      if (v.kind() != Kind::structure) return mismatch();
      for (std::size_t i = 0; i < v.items().size(); ++i) {
        const rpc::Type* mt = nullptr;
        for (const rpc::Member& m : t.structure->members) {
          if (m.name == v.names()[i]) mt = m.type;
        }
        if (mt == nullptr) return where + ": unknown member " + v.names()[i];
        std::string e = conform(v.items()[i], *mt, where + "." + v.names()[i], parse_text);
        if (!e.empty()) return e;
      }
      return "";
    default:
      return t.admits(v.kind()) ? "" : mismatch();
  }
}

// A small deterministic generator (SplitMix64): the same wordcount gives the same document.
struct SplitMix {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
};

}  // namespace

rpc::Message make_fault(int code, std::string message) {
  rpc::Message m;
  m.kind = rpc::MessageKind::fault;
  m.fault_code = code;
  m.fault_message = std::move(message);
  return m;
}

std::string check_params(const rpc::Operation& op, std::vector<Value>& params) {
  std::size_t required = 0;
  for (const rpc::Param& p : op.params) required += p.optional ? 0 : 1;
  if (params.size() < required || params.size() > op.params.size()) {
    return std::string(op.name) + " takes " +
           (required == op.params.size()
                ? std::to_string(required)
                : std::to_string(required) + " to " + std::to_string(op.params.size())) +
           " params, got " + std::to_string(params.size());
  }
  for (std::size_t i = 0; i < params.size(); ++i) {
    std::string e = conform(params[i], *op.params[i].type, std::string(op.params[i].name), false);
    if (!e.empty()) return e;
  }
  return "";
}

Service::Service(const rpc::Contract& contract) : contract_(contract) {}

std::optional<double> Service::rate(std::string_view from, std::string_view to) {
  // Units of `to` per unit of `from`; the classic pair first.
  struct Rate {
    const char* from;
    const char* to;
    double value;
  };
  static constexpr Rate kRates[] = {
      {"usa", "japan", 1.25}, {"usa", "uk", 0.79},   {"usa", "germany", 0.92},
      {"uk", "usa", 1.27},    {"japan", "usa", 0.8}, {"germany", "usa", 1.09},
  };
  const std::string f = lower(from);
  const std::string t = lower(to);
  if (f == t) return 1.0;
  for (const Rate& r : kRates) {
    if (f == r.from && t == r.to) return r.value;
  }
  return std::nullopt;
}

Value Service::document(std::int32_t words) {
  static constexpr const char* kWords[] = {
      "soap",    "envelope", "parser", "latency", "header",   "binding", "message", "schema",
      "element", "encoding", "socket", "request", "response", "fault",   "service", "literal",
      "array",   "struct",   "value",  "network", "payload",  "stream",  "buffer",  "token"};
  constexpr std::size_t kCount = sizeof kWords / sizeof kWords[0];
  SplitMix rng{static_cast<std::uint64_t>(words) * 7919u + 1};
  Value doc = Value::structure();
  for (int p = 0; p < 5; ++p) {
    // Words are spread evenly; the first paragraphs take the remainder.
    const std::int32_t n = words / 5 + (p < words % 5 ? 1 : 0);
    std::string text;
    for (std::int32_t i = 0; i < n; ++i) {
      if (i > 0) text += ' ';
      text += kWords[rng.next() % kCount];
    }
    Value para = Value::structure();
    para.add_member("words", Value::string(std::move(text)));
    doc.add_member("e" + std::to_string(p + 1), std::move(para));
  }
  return doc;
}

DispatchResult Service::dispatch(const rpc::Message& call) const {
  DispatchResult out;
  const rpc::Operation* op = contract_.find(call.method);
  if (op == nullptr) {
    out.response = make_fault(rpc::fault::method_not_found, "method not found: " + call.method);
    return out;
  }
  std::vector<Value> params = call.params;
  if (std::string e = check_params(*op, params); !e.empty()) {
    out.response = make_fault(rpc::fault::invalid_params, "invalid params: " + e);
    return out;
  }
  rpc::Message& r = out.response;
  r.kind = rpc::MessageKind::response;
  r.method = call.method;
  auto nil_param = [&](std::size_t i) { return i < params.size() && params[i].is_nil(); };
  const std::string_view m = call.method;
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (nil_param(i) && m != "complex" && m != "echoArray" && !m.starts_with("echo")) {
      out.response = make_fault(rpc::fault::invalid_params,
                                "invalid params: " + std::string(op->params[i].name) + " is nil");
      return out;
    }
  }
  if (m == "add") {
    const std::int64_t sum = std::int64_t{params[0].as_int()} + params[1].as_int();
    if (sum < INT32_MIN || sum > INT32_MAX) {
      out.response =
          make_fault(rpc::fault::invalid_params, "invalid params: add overflows a 32-bit int");
      return out;
    }
    r.result = Value::integer(static_cast<std::int32_t>(sum));
  } else if (m == "concat") {
    std::string s = params[0].text() + params[1].text();
    if (params.size() > 2) s += params[2].text();
    r.result = Value::string(std::move(s));
  } else if (m == "echoArray") {
    Value a = Value::array();
    for (std::size_t i = 0; i < 2; ++i) {
      if (params[i].kind() == Kind::array) {
        for (const Value& v : params[i].items()) a.push(v);
      }
    }
    r.result = std::move(a);
  } else if (m == "boolean") {
    r.result = Value::boolean(true);
  } else if (m == "now") {
    const std::time_t t = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &utc);
    r.result = Value::datetime(buf);
  } else if (m == "complex") {
    // PersonIn[] in, Person[] out: birthdates sent as strings come back as dateTimes.
    r.result = params[0];
    if (std::string e = conform(r.result, *op->result, "obj", true); !e.empty()) {
      out.response = make_fault(rpc::fault::invalid_params, "invalid params: " + e);
      return out;
    }
  } else if (m.starts_with("echo")) {
    r.result = params.empty() ? Value() : params[0];
  } else if (m == "fail") {
    out.response = make_fault(rpc::fault::division_by_zero, "division by zero");
  } else if (m == "getRate") {
    auto v = rate(params[0].text(), params[1].text());
    if (!v) {
      out.response =
          make_fault(rpc::fault::invalid_params, "invalid params: no rate from " +
                                                     params[0].text() + " to " + params[1].text());
      return out;
    }
    r.result = Value::floating(*v);
  } else if (m == "respond") {
    const std::int32_t words = params[0].as_int();
    const std::int32_t delay = params[1].as_int();
    if (words < 0 || words > 10'000'000 || delay < 0 || delay > 60'000) {
      out.response = make_fault(rpc::fault::invalid_params,
                                "invalid params: respond takes 0..10000000 words and 0..60000 ms");
      return out;
    }
    r.result = document(words);
    out.delay = std::chrono::milliseconds(delay);
  } else if (m == "sendString" || m == "sendInt") {
    r.result = Value();
  } else if (m == "receiveString") {
    const std::int32_t n = params[0].as_int();
    if (n < 0 || n > 64 * 1024 * 1024) {
      out.response =
          make_fault(rpc::fault::invalid_params, "invalid params: length must be 0..67108864");
      return out;
    }
    std::string s(static_cast<std::size_t>(n), 'x');
    for (std::int32_t i = 0; i < n; ++i)
      s[static_cast<std::size_t>(i)] = static_cast<char>('a' + i % 26);
    r.result = Value::string(std::move(s));
  } else if (m == "getChain") {
    // The server answers getChain with its stored, pre-serialized document before dispatch;
    // reaching here means there is none.
    out.response = make_fault(rpc::fault::internal_error, "getChain document not loaded");
  } else {
    out.response =
        make_fault(rpc::fault::internal_error, "operation not implemented: " + call.method);
  }
  return out;
}

}  // namespace sb
