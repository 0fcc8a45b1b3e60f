#include "harness/answer_check.h"

#include <bit>
#include <climits>
#include <cstdlib>

#include "codecs/canonical_json.h"
#include "harness/roundtrip_calls.h"
#include "harness/service.h"
#include "parsers/registry.h"

namespace sb {

namespace {

// The family's getChain answer: its corpus response, decoded and checked against the manifest.
std::optional<rpc::Message> chain_answer(const Corpus& corpus, const std::string& family) {
  const CorpusEntry* e = find_corpus_entry(corpus, family, "getChain.response");
  if (e == nullptr) return std::nullopt;
  MessageBuffer buffer(corpus.read(*e));
  rpc::DecodeContext context;
  context.method = "getChain";
  rpc::Message m;
  DecodeReport report;
  if (!make_adapter(default_adapter(family == "jsonrpc"))
           ->decode(buffer, context, m, report)
           .ok() ||
      !e->canonical_matches(rpc::to_canonical_json(m)))
    return std::nullopt;
  return m;
}

// Where the JSON number starting at text[i] ends.
std::size_t number_end(std::string_view text, std::size_t i) {
  while (i < text.size() && std::string_view("0123456789+-.eE").find(text[i]) != text.npos) ++i;
  return i;
}

// A double written by canonical JSON (Python's repr: always a '.' or an exponent).
bool is_double(std::string_view token) { return token.find_first_of(".eE") != token.npos; }

// The two texts from `at` on, for a message.
std::string mismatch(std::string_view got, std::string_view expected, std::size_t at) {
  const std::size_t from = at < 160 ? 0 : at - 40;  // the first 200 characters when they show it
  return "canonical JSON differs at " + std::to_string(at) + ": got " +
         std::string(got.substr(from, 200)) + " expected " +
         std::string(expected.substr(from, 200));
}

}  // namespace

std::uint64_t ulps(double a, double b) {
  auto ordered = [](double d) {
    const auto i = std::bit_cast<std::int64_t>(d);
    return i >= 0 ? i : INT64_MIN - i;  // sign-magnitude to a monotonic integer
  };
  const std::int64_t x = ordered(a);
  const std::int64_t y = ordered(b);
  return x > y ? static_cast<std::uint64_t>(x) - static_cast<std::uint64_t>(y)
               : static_cast<std::uint64_t>(y) - static_cast<std::uint64_t>(x);
}

std::optional<rpc::Message> expected_answer(const Corpus& corpus, const std::string& family,
                                            const rpc::Message& request) {
  if (request.method == "getChain") return chain_answer(corpus, family);
  static const Service service;
  return service.dispatch(request).response;
}

std::string exact_check(const rpc::Message& got, const rpc::Message& expected) {
  const std::string a = rpc::to_canonical_json(got);
  const std::string b = rpc::to_canonical_json(expected);
  return a == b ? "" : "response " + a.substr(0, 200) + " != expected " + b.substr(0, 200);
}

std::string json_check(std::string_view got, std::string_view expected, std::uint64_t max_ulps,
                       std::uint64_t& drift) {
  drift = 0;
  bool in_string = false;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < got.size() && j < expected.size()) {
    const char c = got[i];
    const bool number = !in_string && (c == '-' || (c >= '0' && c <= '9'));
    if (!number) {
      if (c != expected[j]) return mismatch(got, expected, i);
      if (c == '\\' && in_string && i + 1 < got.size()) {
        if (j + 1 >= expected.size() || got[i + 1] != expected[j + 1])
          return mismatch(got, expected, i);
        ++i, ++j;  // the escaped character cannot end the string
      } else if (c == '"') {
        in_string = !in_string;
      }
      ++i, ++j;
      continue;
    }
    const std::size_t ie = number_end(got, i);
    const std::size_t je = number_end(expected, j);
    const std::string a(got.substr(i, ie - i));
    const std::string b(expected.substr(j, je - j));
    if (a != b) {
      if (!is_double(a) || !is_double(b)) return mismatch(got, expected, i);
      const std::uint64_t d =
          ulps(std::strtod(a.c_str(), nullptr), std::strtod(b.c_str(), nullptr));
      if (d > max_ulps) return mismatch(got, expected, i);
      drift = std::max(drift, d);
    }
    i = ie;
    j = je;
  }
  return i == got.size() && j == expected.size() ? "" : mismatch(got, expected, i);
}

}  // namespace sb
