// The service's rules (codecs/service_rules.h): one per operation of the contract, and the
// dispatcher (harness/service.cpp) answering by them.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <set>
#include <string>

#include "codecs/family.h"
#include "codecs/service_contract.h"
#include "codecs/service_rules.h"
#include "harness/encoders.h"
#include "harness/service.h"

namespace sb {
namespace {

rpc::Message call(std::string method, std::vector<rpc::Value> params) {
  rpc::Message m;
  m.kind = rpc::MessageKind::call;
  m.method = std::move(method);
  m.params = std::move(params);
  return m;
}

TEST(ServiceRules, OneRulePerOperationOfTheContract) {
  std::set<std::string_view> operations;
  for (const rpc::Operation& op : rpc::service_contract().operations()) {
    operations.insert(op.name);
    const rpc::Rule* rule = rpc::find_rule(op.name);
    ASSERT_NE(rule, nullptr) << op.name;
    EXPECT_EQ(&rule->operation(), &op);
    EXPECT_EQ(op.always_faults, rule->answer == rpc::Answer::fault) << op.name;
  }
  std::set<std::string_view> rules;
  for (const rpc::Rule& r : rpc::service_rules()) {
    EXPECT_TRUE(rules.insert(r.method).second) << "two rules for " << r.method;
    for (const rpc::Bound& b : r.bounds) {
      ASSERT_LT(b.param, r.operation().params.size()) << r.method;
      EXPECT_EQ(r.operation().params[b.param].type->kind, rpc::Kind::integer) << r.method;
    }
    EXPECT_EQ(r.bounds.empty(), r.bounds_fault.empty()) << r.method;
  }
  EXPECT_EQ(rules, operations);
}

TEST(ServiceRules, BoundsAreInclusive) {
  const rpc::Rule& respond = *rpc::find_rule("respond");
  EXPECT_EQ(rpc::bounds_violation(respond, std::array<std::int64_t, 2>{0, 0}), "");
  EXPECT_EQ(rpc::bounds_violation(respond, std::array<std::int64_t, 2>{900'000, 60'000}), "");
  EXPECT_EQ(rpc::bounds_violation(respond, std::array<std::int64_t, 2>{900'001, 0}),
            "invalid params: respond takes 0..900000 words and 0..60000 ms");
  EXPECT_NE(rpc::bounds_violation(respond, std::array<std::int64_t, 2>{5, -1}), "");
  const rpc::Rule& receive = *rpc::find_rule("receiveString");
  EXPECT_EQ(rpc::bounds_violation(receive, std::array<std::int64_t, 1>{8'000'000}), "");
  EXPECT_NE(rpc::bounds_violation(receive, std::array<std::int64_t, 1>{8'000'001}), "");
  EXPECT_EQ(rpc::checked_sum(INT32_MAX, 1), std::nullopt);
  EXPECT_EQ(rpc::checked_sum(INT32_MIN, INT32_MAX), -1);
  EXPECT_EQ(rpc::exchange_rate("USA", "Japan"), 1.25);
  EXPECT_EQ(rpc::exchange_rate("mars", "usa"), std::nullopt);
  EXPECT_EQ(rpc::letters(28), "abcdefghijklmnopqrstuvwxyzab");
}

// The dispatcher answers each rule's faults with the rule's code and message.
TEST(ServiceRules, DispatcherFaultsByTheRules) {
  const Service service;
  struct Case {
    rpc::Message call;  // what is sent
    int code;           // the fault expected
    std::string text;   // its message
  };
  using rpc::Value;
  const Case cases[] = {
      {call("add", {Value::integer(INT32_MAX), Value::integer(1)}), rpc::fault::invalid_params,
       "invalid params: add overflows a 32-bit int"},
      {call("fail", {}), rpc::fault::division_by_zero, "division by zero"},
      {call("getRate", {Value::string("mars"), Value::string("usa")}), rpc::fault::invalid_params,
       "invalid params: no rate from mars to usa"},
      {call("respond", {Value::integer(1), Value::integer(60'001)}), rpc::fault::invalid_params,
       "invalid params: respond takes 0..900000 words and 0..60000 ms"},
      {call("receiveString", {Value::integer(-1)}), rpc::fault::invalid_params,
       "invalid params: length must be 0..8000000"},
      {call("getChain", {}), rpc::fault::internal_error, "getChain document not loaded"},
      {call("sendInt", {Value()}), rpc::fault::invalid_params, "invalid params: i is nil"},
      {call("nosuch", {}), rpc::fault::method_not_found, "method not found: nosuch"},
  };
  for (const Case& c : cases) {
    const DispatchResult r = service.dispatch(c.call);
    ASSERT_EQ(r.response.kind, rpc::MessageKind::fault) << c.call.method;
    EXPECT_EQ(r.response.fault_code, c.code) << c.call.method;
    EXPECT_EQ(r.response.fault_message, c.text) << c.call.method;
  }
  const DispatchResult echo = service.dispatch(call("echoInts", {Value()}));
  EXPECT_EQ(echo.response.kind, rpc::MessageKind::response);  // echo* take nil
  const DispatchResult respond =
      service.dispatch(call("respond", {Value::integer(10), Value::integer(3)}));
  EXPECT_EQ(respond.delay.count(), 3);
  EXPECT_EQ(respond.response.result.items().size(), 5u);
}

// The largest answers a request may ask for (respond's most words, receiveString's most letters),
// as the dispatcher answers them and encoded in every family, stay within kMaxAnswerBytes; one
// more word or letter is the rule's fault (respond(10000000) made a 74 MB answer before the cap).
TEST(ServiceRules, AnswersAskedForStayWithinTheCap) {
  using rpc::Value;
  const Service service;
  const rpc::Message largest[] = {
      call("respond", {Value::integer(rpc::kMaxRespondWords), Value::integer(0)}),
      call("receiveString", {Value::integer(rpc::kMaxLetters)}),
  };
  for (const rpc::Message& c : largest) {
    const DispatchResult r = service.dispatch(c);
    ASSERT_EQ(r.response.kind, rpc::MessageKind::response) << c.method;
    for (const rpc::Family f : rpc::kAllFamilies) {
      std::string out;
      ASSERT_EQ(encode_message("direct", r.response, f, out), "") << c.method;
      EXPECT_LE(out.size(), rpc::kMaxAnswerBytes) << c.method << " " << rpc::family_name(f);
      EXPECT_GT(out.size(), rpc::kMaxAnswerBytes / 2) << c.method << ": the cap is not wasted";
    }
    rpc::Message more = c;
    more.params[0] = Value::integer(more.params[0].as_int() + 1);
    EXPECT_EQ(service.dispatch(more).response.kind, rpc::MessageKind::fault) << c.method;
  }
}

}  // namespace
}  // namespace sb
