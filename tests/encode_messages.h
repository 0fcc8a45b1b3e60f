// The messages the encoder tests write: random values of every contract type with a fixed seed
// (kRandomVariants calls and responses per operation) and the edge cases, and small builders.
#pragma once

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "codecs/service_contract.h"
#include "codecs/value.h"

namespace sb::encode_test {

using rpc::Family;
using rpc::Kind;
using rpc::Message;
using rpc::MessageKind;
using rpc::Value;

inline constexpr std::uint64_t kSeed = 0x5eed5eedULL;
inline constexpr int kRandomVariants = 4;  // random calls and responses per operation

// ---------------------------------------------------------------- messages

// Random values of a contract type. Strings mix markup characters, quotes, whitespace and
// multi-byte UTF-8 (never CR or control characters: those have their own tests).
class ValueGen {
 public:
  explicit ValueGen(std::uint64_t seed) : rng_(seed) {}

  Value of(const rpc::Type& t, int depth = 0) {
    switch (t.kind) {
      case Kind::boolean:
        return Value::boolean(rng_() & 1);
      case Kind::integer:
        return Value::integer(random_int());
      case Kind::floating:
        return Value::floating(random_double());
      case Kind::string:
        return Value::string(random_string());
      case Kind::datetime:
        return Value::datetime(random_datetime());
      case Kind::base64:
        return Value::base64(random_bytes(uniform(0, 40)));
      case Kind::array: {
        Value a = Value::array();
        const int n = depth < 3 ? uniform(0, 4) : 0;
        for (int i = 0; i < n; ++i) a.push(of(*t.element, depth + 1));
        return a;
      }
      case Kind::structure: {
        Value s = Value::structure();
        for (const rpc::Member& m : t.structure->members) {
          s.add_member(std::string(m.name), of(*m.type, depth + 1));
        }
        return s;
      }
      case Kind::nil:
        break;
    }
    return Value();
  }

  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

  std::string random_string() {
    static const char* const kPieces[] = {
        "a", "b", "Zz", "0",  " ", "<", "&",      ">",      "]]>",   "\"",   "'",  "\t", "\n",
        "é", "ß", "中", "文", "😀", "€", "\u00a0", "\u2028", "&amp;", "\x7f", "--", "?>"};
    std::string s;
    const int n = uniform(0, 12);
    for (int i = 0; i < n; ++i) s += kPieces[uniform(0, std::size(kPieces) - 1)];
    // Whitespace-only strings have their own tests (whitespace_only()): DOM adapters drop them.
    if (!s.empty() && s.find_first_not_of(" \t\n") == std::string::npos) s += 'a';
    return s;
  }

  std::string random_bytes(int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += static_cast<char>(rng_() & 0xFF);
    return s;
  }

 private:
  std::int32_t random_int() {
    switch (uniform(0, 3)) {
      case 0:
        return uniform(-100, 100);
      case 1:
        return uniform(0, 1) ? INT_MAX : INT_MIN;
      default:
        return static_cast<std::int32_t>(rng_());
    }
  }

  double random_double() {
    for (;;) {
      double d = 0;
      switch (uniform(0, 2)) {
        case 0:
          d = std::bit_cast<double>(rng_());  // any finite double, subnormals included
          break;
        case 1:
          d = std::uniform_real_distribution<double>(-1e6, 1e6)(rng_);
          break;
        default:
          d = uniform(-1000, 1000) / 8.0;
          break;
      }
      if (std::isfinite(d)) return d;
    }
  }

  std::string random_datetime() {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d", uniform(1, 9999),
                  uniform(1, 12), uniform(1, 28), uniform(0, 23), uniform(0, 59), uniform(0, 59));
    return buf;
  }

  std::mt19937_64 rng_;  // fixed seed: every run writes the same messages
};

inline Message call(std::string method, std::vector<Value> params) {
  Message m;
  m.kind = MessageKind::call;
  m.method = std::move(method);
  m.params = std::move(params);
  return m;
}

inline Message response(std::string method, Value result) {
  Message m;
  m.kind = MessageKind::response;
  m.method = std::move(method);
  m.result = std::move(result);
  return m;
}

inline Message fault(std::int32_t code, std::string message) {
  Message m;
  m.kind = MessageKind::fault;
  m.fault_code = code;
  m.fault_message = std::move(message);
  return m;
}

inline Value array_of(std::vector<Value> items) {
  Value a = Value::array();
  for (Value& v : items) a.push(std::move(v));
  return a;
}

inline Value strings(std::vector<std::string> items) {
  Value a = Value::array();
  for (std::string& s : items) a.push(Value::string(std::move(s)));
  return a;
}

inline Value doubles(std::vector<double> items) {
  Value a = Value::array();
  for (double d : items) a.push(Value::floating(d));
  return a;
}

inline Value ints(std::vector<std::int32_t> items) {
  Value a = Value::array();
  for (std::int32_t i : items) a.push(Value::integer(i));
  return a;
}

inline Value person(std::int32_t id, Value name, double weight, std::string birthdate,
                    Value children) {
  Value p = Value::structure();
  p.add_member("id", Value::integer(id));
  p.add_member("name", std::move(name));
  p.add_member("weight", Value::floating(weight));
  p.add_member("birthdate", Value::datetime(std::move(birthdate)));
  p.add_member("children", std::move(children));
  return p;
}

// For every operation: kRandomVariants random calls and responses (a void result is nil).
inline std::vector<Message> random_messages() {
  ValueGen gen(kSeed);
  std::vector<Message> out;
  for (const rpc::Operation& op : rpc::service_contract().operations()) {
    for (int v = 0; v < kRandomVariants; ++v) {
      std::vector<Value> params;
      for (const rpc::Param& p : op.params) {
        if (p.optional && gen.uniform(0, 1) == 0) break;
        params.push_back(gen.of(*p.type));
      }
      out.push_back(call(std::string(op.name), std::move(params)));
      out.push_back(response(std::string(op.name), gen.of(*op.result)));
    }
  }
  return out;
}

// Hand-picked values every encoder must carry exactly (no CR, no control characters).
// complex's people as the classic client sends them: birthdates as str(datetime) text. (A dateTime
// also goes out, but SOAP and JSON-RPC read PersonIn.birthdate back as text: docs/service.md.)
inline Value birthdates_as_text(Value v) {
  for (std::size_t i = 0; i < v.items().size(); ++i) {
    Value& m = v.items()[i];
    if (v.kind() == Kind::structure && v.names()[i] == "birthdate" && m.kind() == Kind::datetime) {
      std::string text = m.text();
      text[10] = ' ';
      m = Value::string(std::move(text));
    } else {
      m = birthdates_as_text(std::move(m));
    }
  }
  return v;
}

inline std::vector<Message> edge_messages() {
  ValueGen gen(kSeed + 1);
  std::string long_string;
  while (long_string.size() < 200000) long_string += gen.random_string() + "x";
  const Value leaf = array_of({});
  Value family =
      array_of({person(1, Value::string("Ana <&> \"Silva\""), 61.5, "1975-02-14T08:30:00",
                       array_of({person(11, Value::string("子供 😀"), 18.5, "2012-03-04T05:06:07",
                                        array_of({person(111, Value::string(""), 3.25,
                                                         "2020-01-01T00:00:00", leaf)})),
                                 person(12, Value(), -0.0, "2009-11-30T22:15:00", Value())})),
                person(INT_MIN, Value::string("]]>"), 5e-324, "0001-01-01T00:00:00", leaf)});
  Value document = Value::structure();
  for (const char* e : {"e1", "e2", "e3", "e4", "e5"}) {
    Value para = Value::structure();
    para.add_member("words", Value::string(std::string(e) + " <b>&amp;</b> ]]> 中文"));
    document.add_member(e, std::move(para));
  }
  Value chain = Value::structure();
  chain.add_member("step", Value::integer(1));
  chain.add_member("name", Value::string("build"));
  chain.add_member("host", Value::string("h\"ost'"));
  chain.add_member("start", Value::datetime("9999-12-31T23:59:59"));
  chain.add_member("duration", Value::floating(DBL_MAX));
  chain.add_member("status", Value::string(""));
  chain.add_member("args", strings({}));
  std::string all_bytes;
  for (int i = 0; i < 256; ++i) all_bytes += static_cast<char>(i);

  return {
      call("add", {Value::integer(INT_MIN), Value::integer(INT_MAX)}),
      response("add", Value::integer(INT_MIN)),
      call("concat", {Value::string(""), Value::string("<&>]]>\"'"), Value::string("中文 😀 é")}),
      call("concat", {Value::string("]]>"), Value::string("&lt;not an entity")}),
      call("concat", {Value(), Value::string("nil first")}),
      response("concat", Value::string(long_string)),
      response("concat", Value::string("")),
      call("echoStrings", {strings({"", "x", "  padded  ", "<&>]]>", "\"'", "中文", "😀", "a\tb\nc",
                                    "&amp;", "\x7f\u00a0\u2028", "\n leading LF"})}),
      call("echoDoubles", {doubles({0.1, 1e-300, -0.0, 5e-324, DBL_MAX, -DBL_MAX, DBL_MIN, 0.0,
                                    1e16, 1e-5, 123456789012345680.0, 2.5e-07, 4.9e-324})}),
      response("echoDoubles", doubles({})),
      call("echoInts", {ints({})}),
      response("echoInts", ints({INT_MIN, -1, 0, 1, INT_MAX})),
      call("echoArray", {ints({}), ints({})}),
      response("echoArray", ints({})),
      call("echoBase64", {Value::base64("")}),
      response("echoBase64", Value::base64(all_bytes)),
      call("echoBase64", {Value::base64(gen.random_bytes(3000))}),
      call("complex", {birthdates_as_text(family)}),
      response("complex", array_of({})),
      response("complex", family),
      call("sendString", {Value()}),
      response("sendString", Value()),
      response("sendInt", Value()),
      response("now", Value::datetime("0001-01-01T00:00:00")),
      response("boolean", Value::boolean(false)),
      response("boolean", Value::boolean(true)),
      response("getRate", Value::floating(1e-300)),
      response("getRate", Value::floating(-0.0)),
      call("getRate", {Value::string("USA"), Value::string("日本")}),
      response("respond", document),
      response("getChain", array_of({chain})),
      call("getChain", {}),
      call("boolean", {}),
      fault(4, "division by zero"),
      fault(rpc::fault::method_not_found, "method not found: x<y>&z"),
      fault(rpc::fault::parse_error, "parse error: ]]> \"q\" 中"),
      fault(INT_MIN, ""),
      fault(0, "zero"),
  };
}

inline const std::vector<Message>& all_messages() {
  static const std::vector<Message> all = [] {
    std::vector<Message> m = random_messages();
    for (Message& e : edge_messages()) m.push_back(std::move(e));
    return m;
  }();
  return all;
}

}  // namespace sb::encode_test
