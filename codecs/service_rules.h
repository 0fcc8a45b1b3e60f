// The service's rules, written once (docs/service.md): for each operation of the contract, the
// bounds its int parameters must lie in, what it answers and the fault of its own. Our dispatcher
// (harness/service.cpp) runs them; the peers' glue (peers/gsoap/binding_service.cpp,
// peers/xmlrpc-c/xmlrpc_c_service.cpp) checks the same bounds and computes the same answers
// through the functions below. Parameter and result types are the contract's
// (service_contract.h): Rule::operation() joins the two tables by name.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "codecs/service_contract.h"
#include "codecs/value.h"

namespace sb::rpc {

// What an operation answers.
enum class Answer : std::uint8_t {
  sum,            // add: a + b; beyond a 32-bit int the rule's fault
  concatenation,  // concat: s1 + s2 (+ s3)
  both_arrays,    // echoArray: a's items, then b's
  truth,          // boolean: true
  now,            // now: the answering machine's UTC time, whole seconds
  typed_people,   // complex: the people back, birthdates sent as text read as dateTimes
  first_param,    // echoInts, echoDoubles, echoStrings, echoBase64: the parameter back
  fault,          // fail: always the rule's fault
  rate,           // getRate: exchange_rate(country1, country2); unknown pair the rule's fault
  document,       // respond: respond_document(wordcount), after `delay` ms
  nothing,        // sendString, sendInt: void
  letters,        // receiveString: letters(length)
  stored,         // getChain: the stored document, answered before dispatch; none: the fault
};

// The most answer a request may ask for, in bytes of the encoded body in any family: respond's
// wordcount and receiveString's length are bounded so that their answers stay within it, and past
// those bounds the rule's fault is answered (docs/service.md "Answer sizes"). Every other answer
// echoes what the request carried, so the request's own size (the server's --max-body) bounds it.
constexpr std::size_t kMaxAnswerBytes = 8 * 1024 * 1024;
// respond's wordcount, at most: a word is at most 8 letters and a space, so 900,000 words are
// at most 8,100,000 bytes, which leaves room for the envelope within kMaxAnswerBytes.
constexpr std::int64_t kMaxRespondWords = 900'000;
// receiveString's length, at most.
constexpr std::int64_t kMaxLetters = 8'000'000;

// An inclusive range an int parameter must lie in.
struct Bound {
  std::size_t param;  // its position
  std::int64_t min;   // smallest accepted
  std::int64_t max;   // largest accepted
};

// One operation's rules.
struct Rule {
  std::string_view method;              // the contract's operation name
  Answer answer;                        // what it answers
  std::span<const Bound> bounds;        // int parameters' ranges, checked before answering
  std::string_view bounds_fault;        // the fault message when one is out of range
  bool nil_params = false;              // nil accepted for its parameters (echo*, complex)
  int fault_code = 0;                   // its own fault (Answer comments say when), 0: none
  std::string_view fault_message = {};  // that fault's message ({} for getRate: no_rate_fault())

  // Its operation in the built-in contract.
  const Operation& operation() const;
};

// Every rule, in the contract's order; one per operation of service_contract().
std::span<const Rule> service_rules();
// The rule for `method`, or nullptr.
const Rule* find_rule(std::string_view method);

// The rule's bounds_fault (code fault::invalid_params) when an int argument (by position) is
// outside its bounds, else "". Arguments beyond `ints` are not checked.
std::string bounds_violation(const Rule& rule, std::span<const std::int64_t> ints);
// "invalid params: <why>": the message every implementation gives wrong parameters.
std::string invalid_params(std::string_view why);

// The answers the implementations share.
std::optional<std::int32_t> checked_sum(std::int32_t a, std::int32_t b);  // nullopt: overflow
// The exchange rate (units of `to` per unit of `from`; names case-insensitive), or nullopt.
std::optional<double> exchange_rate(std::string_view from, std::string_view to);
// getRate's fault message for an unknown pair.
std::string no_rate_fault(std::string_view from, std::string_view to);
// respond's document: `words` pseudo-random words spread over five paragraphs (fixed seed, so
// the same wordcount always gives the same bytes).
Value respond_document(std::int32_t words);
// receiveString's answer: "abc…z" repeated to `length` bytes.
std::string letters(std::int32_t length);

}  // namespace sb::rpc
