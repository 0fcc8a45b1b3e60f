// AnswerJudge: whether one answer of a load run is right (harness/load/load_call.h). Every answer's
// HTTP status is checked and every answer is compared with the last answer found right; one
// differing (a fault, another body) and every K-th answer are decoded in full and checked
// against the contract. A wrong answer is an error, never throughput.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/message_buffer.h"
#include "harness/load/load_call.h"
#include "harness/load/load_point.h"
#include "parsers/adapter.h"

namespace sb {

class AnswerJudge {
 public:
  // Judges answers to `call` (which must outlive it), decoding 1 answer in `decode_every` (≥ 1).
  AnswerJudge(const LoadCall& call, std::uint32_t decode_every);

  // nullopt when the answer (HTTP status, body) is right, else the kind of error; why() says
  // why. `decoded` is set when the body was decoded in full.
  std::optional<LoadError> judge(int status, std::string_view body, bool& decoded);
  // Why the last answer judged wrong was wrong (one line).
  const std::string& why() const { return why_; }

 private:
  // Decodes and checks the body against the contract.
  std::optional<LoadError> decode_and_check(int status, std::string_view body);

  const LoadCall& call_;              // the request and its correct answer
  std::uint32_t decode_every_;        // 1 answer in this many is decoded in full
  std::uint64_t answers_ = 0;         // answers judged
  std::string right_;                 // the last body found right: equal bytes are right too
  std::unique_ptr<Adapter> adapter_;  // the family's default adapter
  MessageBuffer buffer_;              // padded copy of a body being decoded
  std::string why_;                   // the last wrong answer's problem
};

}  // namespace sb
