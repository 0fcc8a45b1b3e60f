#include "peers/xmlrpc-c/xmlrpc_c_service.h"

#include <xmlrpc-c/base.hpp>
#include <xmlrpc-c/xml.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <ctime>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "codecs/scalars.h"
#include "codecs/service_contract.h"
#include "codecs/service_rules.h"
#include "harness/corpus.h"
#include "peers/xmlrpc-c/xmlrpc_c_values.h"

namespace sb::peers {

namespace {

using xmlrpc_c::paramList;
using xmlrpc_c::value;

// One operation: a function of the params, run by xmlrpc-c's registry.
class Operation : public xmlrpc_c::method {
 public:
  using Body = std::function<value(const paramList&)>;
  explicit Operation(Body body) : body_(std::move(body)) {}
  void execute(const paramList& params, value* result) override { *result = body_(params); }

 private:
  Body body_;  // computes the result or throws xmlrpc_c::fault
};

// Throws xmlrpc-c's type fault for wrong params.
[[noreturn]] void invalid(const std::string& why) {
  throw xmlrpc_c::fault(rpc::invalid_params(why), xmlrpc_c::fault::CODE_TYPE);
}

// Throws the rule's own fault (codecs/service_rules.h), in xmlrpc-c's own codes where it has
// one (type and internal faults), else the contract's.
[[noreturn]] void rule_fault(const rpc::Rule& rule, const std::string& message) {
  const auto code = rule.fault_code == rpc::fault::invalid_params ? xmlrpc_c::fault::CODE_TYPE
                    : rule.fault_code == rpc::fault::internal_error
                        ? xmlrpc_c::fault::CODE_INTERNAL
                        : static_cast<xmlrpc_c::fault::code_t>(rule.fault_code);
  throw xmlrpc_c::fault(message, code);
}
[[noreturn]] void rule_fault(const rpc::Rule& rule) {
  rule_fault(rule, std::string(rule.fault_message));
}

// Throws the rule's bounds fault when an int argument is outside its bounds.
void check_bounds(const rpc::Rule& rule, std::span<const std::int64_t> ints) {
  if (std::string e = rpc::bounds_violation(rule, ints); !e.empty())
    throw xmlrpc_c::fault(e, xmlrpc_c::fault::CODE_TYPE);
}

value people_out(const value& in, const std::string& where);

// A PersonIn as a Person: a birthdate sent as a string becomes a dateTime (docs/service.md).
value person_out(const value& in, const std::string& where) {
  if (in.type() != value::TYPE_STRUCT) invalid(where + ": expected Person");
  // A new member list: xmlrpc_c::value refuses assignment once it holds a value.
  std::vector<std::pair<std::string, value>> out;
  for (const auto& [name, v] : struct_members(in)) {
    if (name == "birthdate" && v.type() == value::TYPE_STRING) {
      const std::string text = xmlrpc_c::value_string(v);
      const std::optional<std::string> d = rpc::parse_datetime_text(text);
      if (!d) invalid(where + ".birthdate: bad dateTime '" + text + "'");
      out.emplace_back(name, datetime_value(*d));
    } else if (name == "children") {
      out.emplace_back(name, people_out(v, where + ".children"));
    } else {
      out.emplace_back(name, v);
    }
  }
  return ordered_struct(out);
}

// A PersonIn[] as a Person[].
value people_out(const value& in, const std::string& where) {
  if (in.type() != value::TYPE_ARRAY) invalid(where + ": expected Person[]");
  const xmlrpc_c::carray items = xmlrpc_c::value_array(in).vectorValueValue();
  xmlrpc_c::carray out;
  out.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i)
    out.push_back(person_out(items[i], where + "[" + std::to_string(i) + "]"));
  return xmlrpc_c::value_array(out);
}

// echoInts/echoDoubles/echoStrings: the array back after checking its element type (ints are
// taken as doubles where doubles are due, as sb::Service does).
value echo_array(const paramList& params, value::type_t type) {
  params.verifyEnd(1);
  const xmlrpc_c::carray items = params.getArray(0);
  bool widen = false;
  for (const value& item : items) {
    const bool as_double = type == value::TYPE_DOUBLE && item.type() == value::TYPE_INT;
    widen |= as_double;
    if (item.type() != type && !as_double) invalid("values: wrong element type");
  }
  if (!widen) return params[0];
  xmlrpc_c::carray out;
  out.reserve(items.size());
  for (const value& item : items) {
    out.push_back(item.type() == value::TYPE_INT
                      ? value(xmlrpc_c::value_double(xmlrpc_c::value_int(item).cvalue()))
                      : item);
  }
  return xmlrpc_c::value_array(out);
}

// respond(wordcount, delay): sb::Service's document, after the delay.
value respond(const paramList& params) {
  const int words = params.getInt(0);
  const int delay = params.getInt(1);
  params.verifyEnd(2);
  check_bounds(*rpc::find_rule("respond"), std::array<std::int64_t, 2>{words, delay});
  value doc = to_xmlrpc_c(rpc::respond_document(words));
  std::this_thread::sleep_for(std::chrono::milliseconds(delay));
  return doc;
}

// receiveString(length): "abc…" of that many bytes.
value receive_string(const paramList& params) {
  const int n = params.getInt(0);
  params.verifyEnd(1);
  check_bounds(*rpc::find_rule("receiveString"), std::array<std::int64_t, 1>{n});
  return xmlrpc_c::value_string(rpc::letters(n));
}

// add(a, b), refusing a 32-bit overflow.
value add(const paramList& params) {
  const std::optional<std::int32_t> sum = rpc::checked_sum(params.getInt(0), params.getInt(1));
  params.verifyEnd(2);
  if (!sum) rule_fault(*rpc::find_rule("add"));
  return xmlrpc_c::value_int(*sum);
}

// concat(s1, s2[, s3]).
value concat(const paramList& params) {
  std::string s = params.getString(0) + params.getString(1);
  if (params.size() > 2) s += params.getString(2);
  params.verifyEnd(std::min<unsigned>(params.size(), 3));
  return xmlrpc_c::value_string(s);
}

// echoArray(a, b): a followed by b.
value echo_two_arrays(const paramList& params) {
  xmlrpc_c::carray out = params.getArray(0);
  const xmlrpc_c::carray b = params.getArray(1);
  params.verifyEnd(2);
  out.insert(out.end(), b.begin(), b.end());
  return xmlrpc_c::value_array(out);
}

// getRate(from, to) from sb::Service's table.
value get_rate(const paramList& params) {
  const std::string from = params.getString(0);
  const std::string to = params.getString(1);
  params.verifyEnd(2);
  const std::optional<double> r = rpc::exchange_rate(from, to);
  if (!r) rule_fault(*rpc::find_rule("getRate"), rpc::no_rate_fault(from, to));
  return xmlrpc_c::value_double(*r);
}

}  // namespace

xmlrpc_c::registryPtr make_registry(const std::optional<value>& chain) {
  xmlrpc_c::registryPtr reg(new xmlrpc_c::registry);
  auto op = [&](const char* name, Operation::Body body) {
    reg->addMethod(name, xmlrpc_c::methodPtr(new Operation(std::move(body))));
  };
  op("add", add);
  op("concat", concat);
  op("echoArray", echo_two_arrays);
  op("boolean", [](const paramList& p) {
    p.verifyEnd(0);
    return value(xmlrpc_c::value_boolean(true));
  });
  op("now", [](const paramList& p) {
    p.verifyEnd(0);
    return value(xmlrpc_c::value_datetime(std::time(nullptr)));
  });
  op("complex", [](const paramList& p) {
    p.verifyEnd(1);
    return people_out(p[0], "obj");
  });
  op("fail", [](const paramList& p) -> value {
    p.verifyEnd(0);
    rule_fault(*rpc::find_rule("fail"));
  });
  op("getRate", get_rate);
  op("respond", respond);
  op("sendString", [](const paramList& p) {
    p.getString(0);
    p.verifyEnd(1);
    return value(xmlrpc_c::value_nil());
  });
  op("receiveString", receive_string);
  op("sendInt", [](const paramList& p) {
    p.getInt(0);
    p.verifyEnd(1);
    return value(xmlrpc_c::value_nil());
  });
  op("getChain", [chain](const paramList& p) -> value {
    p.verifyEnd(0);
    if (!chain) rule_fault(*rpc::find_rule("getChain"));
    return *chain;
  });
  op("echoInts", [](const paramList& p) { return echo_array(p, value::TYPE_INT); });
  op("echoDoubles", [](const paramList& p) { return echo_array(p, value::TYPE_DOUBLE); });
  op("echoStrings", [](const paramList& p) { return echo_array(p, value::TYPE_STRING); });
  op("echoBase64", [](const paramList& p) {
    p.getBytestring(0);
    p.verifyEnd(1);
    return p[0];
  });
  return reg;
}

value load_chain(const std::filesystem::path& corpus_dir) {
  const std::filesystem::path dir = corpus_dir / "xmlrpc";
  std::filesystem::path file;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().filename().string().starts_with("getChain.response.")) file = entry.path();
  }
  if (file.empty()) throw std::runtime_error("no getChain document under " + dir.string());
  xmlrpc_c::rpcOutcome outcome;
  xmlrpc_c::xml::parseResponse(read_message_file(file), &outcome);
  if (!outcome.succeeded()) throw std::runtime_error(file.string() + " is a fault");
  return outcome.getResult();
}

}  // namespace sb::peers
