// What a correct answer to a call is, and how an answer is judged against it: exactly (canonical
// JSON equal), or with doubles within a stack's documented drift (its declared DRIFT_ULPS, for a
// stack whose double parser and formatter are not correctly rounded: docs/peers.md).
// stacks_bench's round-trip rows and `soapbench interop` check every answer with these.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "codecs/value.h"
#include "harness/corpus.h"

namespace sb {

// Distance of two doubles in units in the last place (-0.0 and 0.0 are 0 apart).
std::uint64_t ulps(double a, double b);

// The correct answer to `request` in `family` (codecs/family.h name): what sb::Service answers,
// except getChain, whose answer is the family's corpus response (decoded by the default XML
// adapter, checked against the manifest). nullopt when that file is missing or wrong.
std::optional<rpc::Message> expected_answer(const Corpus& corpus, const std::string& family,
                                            const rpc::Message& request);

// "" when `got` is the expected answer (canonical JSON equal), else why not.
std::string exact_check(const rpc::Message& got, const rpc::Message& expected);

// "" when the canonical JSON `got` equals `expected` except for doubles at most `max_ulps` apart
// (`drift` gets the largest distance seen), else why not (the first 200 characters of each).
std::string json_check(std::string_view got, std::string_view expected, std::uint64_t max_ulps,
                       std::uint64_t& drift);

}  // namespace sb
