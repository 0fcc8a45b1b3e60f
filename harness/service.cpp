#include "harness/service.h"

#include <ctime>

#include "codecs/scalars.h"
#include "codecs/service_rules.h"

namespace sb {

namespace {

using rpc::Answer;
using rpc::Kind;
using rpc::Value;

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

// One call being answered: its rule, operation, checked params and the result being built.
struct Call {
  const rpc::Rule& rule;       // the operation's rules (codecs/service_rules.h)
  const rpc::Operation& op;    // its types
  std::vector<Value>& params;  // checked against op (ints widened where doubles are due)
  DispatchResult& out;         // out.response is a response for `method`, result nil

  void fault(int code, std::string message) { out.response = make_fault(code, std::move(message)); }
  void rule_fault() { fault(rule.fault_code, std::string(rule.fault_message)); }
  void result(Value v) { out.response.result = std::move(v); }
};

void answer_sum(Call& c) {
  const auto sum = rpc::checked_sum(c.params[0].as_int(), c.params[1].as_int());
  sum ? c.result(Value::integer(*sum)) : c.rule_fault();
}

void answer_concatenation(Call& c) {
  std::string s = c.params[0].text() + c.params[1].text();
  if (c.params.size() > 2) s += c.params[2].text();
  c.result(Value::string(std::move(s)));
}

void answer_both_arrays(Call& c) {
  Value a = Value::array();
  for (std::size_t i = 0; i < 2; ++i) {
    if (c.params[i].kind() == Kind::array) {
      for (const Value& v : c.params[i].items()) a.push(v);
    }
  }
  c.result(std::move(a));
}

void answer_truth(Call& c) { c.result(Value::boolean(true)); }

void answer_now(Call& c) {
  const std::time_t t = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &utc);
  c.result(Value::datetime(buf));
}

// PersonIn[] in, Person[] out: birthdates sent as strings come back as dateTimes.
void answer_typed_people(Call& c) {
  Value people = c.params[0];
  if (std::string e = conform(people, *c.op.result, "obj", true); !e.empty()) {
    return c.fault(rpc::fault::invalid_params, rpc::invalid_params(e));
  }
  c.result(std::move(people));
}

void answer_first_param(Call& c) { c.result(c.params.empty() ? Value() : c.params[0]); }

void answer_fault(Call& c) { c.rule_fault(); }

void answer_rate(Call& c) {
  const auto rate = rpc::exchange_rate(c.params[0].text(), c.params[1].text());
  if (!rate) {
    return c.fault(c.rule.fault_code, rpc::no_rate_fault(c.params[0].text(), c.params[1].text()));
  }
  c.result(Value::floating(*rate));
}

void answer_document(Call& c) {
  c.result(rpc::respond_document(c.params[0].as_int()));
  c.out.delay = std::chrono::milliseconds(c.params[1].as_int());
}

void answer_nothing(Call& c) { c.result(Value()); }

void answer_letters(Call& c) { c.result(Value::string(rpc::letters(c.params[0].as_int()))); }

// The server answers getChain with its stored, pre-serialized document before dispatch;
// reaching here means there is none.
void answer_stored(Call& c) { c.rule_fault(); }

// One function per rpc::Answer, in its order.
using AnswerFunction = void (*)(Call&);
constexpr AnswerFunction kAnswers[] = {
    answer_sum,          answer_concatenation, answer_both_arrays, answer_truth, answer_now,
    answer_typed_people, answer_first_param,   answer_fault,       answer_rate,  answer_document,
    answer_nothing,      answer_letters,       answer_stored};
static_assert(std::size(kAnswers) == static_cast<std::size_t>(Answer::stored) + 1);

// The rule's own checks before answering: nil params where the rule takes none, int bounds.
std::string rule_violation(const rpc::Rule& rule, const rpc::Operation& op,
                           const std::vector<Value>& params) {
  std::int64_t ints[4] = {};
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (params[i].is_nil() && !rule.nil_params) {
      return rpc::invalid_params(std::string(op.params[i].name) + " is nil");
    }
    if (i < std::size(ints) && params[i].kind() == Kind::integer) ints[i] = params[i].as_int();
  }
  return rpc::bounds_violation(rule, std::span(ints, std::min(params.size(), std::size(ints))));
}

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

DispatchResult Service::dispatch(const rpc::Message& call) const {
  DispatchResult out;
  const rpc::Operation* op = contract_.find(call.method);
  if (op == nullptr) {
    out.response = make_fault(rpc::fault::method_not_found, "method not found: " + call.method);
    return out;
  }
  std::vector<Value> params;
  if (std::string e = rpc::params_in_order(*op, call, params); !e.empty()) {
    out.response = make_fault(rpc::fault::invalid_params, "invalid params: " + e);
    return out;
  }
  if (std::string e = check_params(*op, params); !e.empty()) {
    out.response = make_fault(rpc::fault::invalid_params, "invalid params: " + e);
    return out;
  }
  const rpc::Rule* rule = rpc::find_rule(call.method);
  if (rule == nullptr) {
    out.response =
        make_fault(rpc::fault::internal_error, "operation not implemented: " + call.method);
    return out;
  }
  if (std::string e = rule_violation(*rule, *op, params); !e.empty()) {
    out.response = make_fault(rpc::fault::invalid_params, std::move(e));
    return out;
  }
  out.response.kind = rpc::MessageKind::response;
  out.response.method = call.method;
  Call c{*rule, *op, params, out};
  kAnswers[static_cast<std::size_t>(rule->answer)](c);
  return out;
}

}  // namespace sb
