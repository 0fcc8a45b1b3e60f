#include "codecs/service_rules.h"

#include <array>
#include <cctype>
#include <stdexcept>

namespace sb::rpc {

namespace {

constexpr Bound kRespondBounds[] = {{0, 0, kMaxRespondWords}, {1, 0, 60'000}};
constexpr Bound kReceiveStringBounds[] = {{0, 0, kMaxLetters}};
// The faults below name these numbers.
static_assert(kMaxRespondWords == 900'000 && kMaxLetters == 8'000'000);

// The table: one row per operation, in the contract's order (docs/service.md).
constexpr Rule kRules[] = {
    {"add",
     Answer::sum,
     {},
     {},
     false,
     fault::invalid_params,
     "invalid params: add overflows a 32-bit int"},
    {"concat", Answer::concatenation, {}, {}},
    {"echoArray", Answer::both_arrays, {}, {}, true},
    {"boolean", Answer::truth, {}, {}},
    {"now", Answer::now, {}, {}},
    {"complex", Answer::typed_people, {}, {}, true},
    {"fail", Answer::fault, {}, {}, false, fault::division_by_zero, "division by zero"},
    {"getRate", Answer::rate, {}, {}, false, fault::invalid_params},
    {"respond", Answer::document, kRespondBounds,
     "invalid params: respond takes 0..900000 words and 0..60000 ms"},
    {"sendString", Answer::nothing, {}, {}},
    {"receiveString", Answer::letters, kReceiveStringBounds,
     "invalid params: length must be 0..8000000"},
    {"sendInt", Answer::nothing, {}, {}},
    {"getChain",
     Answer::stored,
     {},
     {},
     false,
     fault::internal_error,
     "getChain document not loaded"},
    {"echoInts", Answer::first_param, {}, {}, true},
    {"echoDoubles", Answer::first_param, {}, {}, true},
    {"echoStrings", Answer::first_param, {}, {}, true},
    {"echoBase64", Answer::first_param, {}, {}, true},
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A small deterministic generator (SplitMix64): the same wordcount gives the same document.
struct SplitMix {
  std::uint64_t state;  // advanced by every draw
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
};

}  // namespace

const Operation& Rule::operation() const {
  const Operation* op = service_contract().find(method);
  if (op == nullptr)
    throw std::logic_error("service rule without an operation: " + std::string(method));
  return *op;
}

std::span<const Rule> service_rules() { return kRules; }

const Rule* find_rule(std::string_view method) {
  for (const Rule& r : kRules) {
    if (r.method == method) return &r;
  }
  return nullptr;
}

std::string invalid_params(std::string_view why) { return "invalid params: " + std::string(why); }

std::string bounds_violation(const Rule& rule, std::span<const std::int64_t> ints) {
  for (const Bound& b : rule.bounds) {
    if (b.param < ints.size() && (ints[b.param] < b.min || ints[b.param] > b.max)) {
      return std::string(rule.bounds_fault);
    }
  }
  return "";
}

std::optional<std::int32_t> checked_sum(std::int32_t a, std::int32_t b) {
  const std::int64_t sum = std::int64_t{a} + b;
  if (sum < INT32_MIN || sum > INT32_MAX) return std::nullopt;
  return static_cast<std::int32_t>(sum);
}

std::optional<double> exchange_rate(std::string_view from, std::string_view to) {
  // Units of `to` per unit of `from`; the classic pair first.
  struct Rate {
    const char* from;  // lower-case country
    const char* to;    // lower-case country
    double value;      // units of `to` per unit of `from`
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

std::string no_rate_fault(std::string_view from, std::string_view to) {
  return invalid_params("no rate from " + std::string(from) + " to " + std::string(to));
}

Value respond_document(std::int32_t words) {
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

std::string letters(std::int32_t length) {
  std::string s(static_cast<std::size_t>(length), 'x');
  for (std::int32_t i = 0; i < length; ++i) {
    s[static_cast<std::size_t>(i)] = static_cast<char>('a' + i % 26);
  }
  return s;
}

}  // namespace sb::rpc
