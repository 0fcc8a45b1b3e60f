#include "load/load_answer_judge.h"

#include <algorithm>

#include "codecs/canonical_json.h"
#include "harness/answer_check.h"
#include "parsers/registry.h"

namespace sb {

AnswerJudge::AnswerJudge(const LoadCall& call, std::uint32_t decode_every)
    : call_(call),
      decode_every_(std::max<std::uint32_t>(1, decode_every)),
      adapter_(make_adapter(default_adapter(!rpc::is_xml(call.family)))) {}

std::optional<LoadError> AnswerJudge::judge(int status, std::string_view body, bool& decoded) {
  decoded = false;
  ++answers_;
  // Byte-equal to an answer found right: right (a fault or any other answer differs).
  if (status == call_.status && !right_.empty() && body == right_ && answers_ % decode_every_ != 0)
    return std::nullopt;
  decoded = true;
  const std::optional<LoadError> error = decode_and_check(status, body);
  if (!error) right_.assign(body);
  return error;
}

std::optional<LoadError> AnswerJudge::decode_and_check(int status, std::string_view body) {
  const std::string http = "HTTP " + std::to_string(status);
  if (!call_.check_body) {
    if (status == call_.status) return std::nullopt;
    why_ = http + ", expected " + std::to_string(call_.status);
    return LoadError::http_status;
  }
  buffer_.assign(body);
  rpc::DecodeContext context;
  context.protocol = rpc::protocol_of(call_.family);
  context.method = call_.operation;
  context.batch = call_.batch;
  rpc::Message m;
  DecodeReport report;
  const Status decode = adapter_->decode(buffer_, context, m, report);
  if (!decode.ok()) {
    why_ = http + ", body does not decode: " + decode.describe().substr(0, 200);
    return status == call_.status ? LoadError::wrong_answer : LoadError::http_status;
  }
  if (m.kind == rpc::MessageKind::fault && !call_.expects_fault) {
    why_ = http + ", fault " + rpc::to_canonical_json(m).substr(0, 200);
    return LoadError::fault;
  }
  if (status != call_.status) {
    why_ = http + ", expected " + std::to_string(call_.status);
    return LoadError::http_status;
  }
  std::uint64_t drift = 0;
  why_ = json_check(rpc::to_canonical_json(m), call_.expected, call_.max_drift_ulps, drift);
  const rpc::MessageKind want = call_.batch ? rpc::MessageKind::batch : rpc::MessageKind::response;
  if (m.kind != want && !call_.expects_fault && why_.empty())
    why_ = call_.batch ? "the answer is not a batch" : "the answer is not a response";
  if (!why_.empty()) return LoadError::wrong_answer;
  return std::nullopt;
}

}  // namespace sb
