#include "harness/client/interop.h"

#include <algorithm>
#include <stdexcept>

#include "codecs/base64.h"
#include "codecs/canonical_json.h"
#include "codecs/service_contract.h"
#include "harness/answer_check.h"
#include "harness/client/http_client.h"
#include "harness/peer_process.h"
#include "harness/roundtrip_calls.h"

namespace sb::interop {

namespace {

// A param as a command-line JSON value: canonical JSON, but a dateTime or base64 as its text
// (harness/call_args.h types it back by the contract).
void append_arg(std::string& out, const rpc::Value& v) {
  switch (v.kind()) {
    case rpc::Kind::datetime:
      return rpc::append_json_string(out, v.text());
    case rpc::Kind::base64:
      return rpc::append_json_string(out, rpc::base64_encode(v.text()));
    case rpc::Kind::array:
    case rpc::Kind::structure: {
      const bool array = v.kind() == rpc::Kind::array;
      out += array ? '[' : '{';
      for (std::size_t i = 0; i < v.items().size(); ++i) {
        if (i > 0) out += ',';
        if (!array) rpc::append_json_string(out, v.names()[i]), out += ':';
        append_arg(out, v.items()[i]);
      }
      out += array ? ']' : '}';
      return;
    }
    default:
      rpc::append_canonical_json(out, v);
  }
}

// The first seed JSON-RPC call of `operation` in corpus order, or nullptr.
const CorpusEntry* seed_call(const Corpus& corpus, std::string_view operation) {
  for (const CorpusEntry& e : corpus.entries()) {
    if (!e.hostile && e.family == "jsonrpc" && e.direction == "call" && e.operation == operation &&
        e.in_set("seed"))
      return &e;
  }
  return nullptr;
}

// The answer line's canonical JSON: the first line of `out`.
std::string first_line(const std::string& out) { return out.substr(0, out.find('\n')); }

}  // namespace

std::vector<Call> calls(const Corpus& corpus, bool representative) {
  std::vector<Call> out;
  for (const rpc::Operation& op : rpc::service_contract().operations()) {
    const std::string name(op.name);
    if (representative && std::ranges::find(kRepresentative, name) == std::end(kRepresentative))
      continue;
    const CorpusEntry* e = seed_call(corpus, name);
    std::string stem = e == nullptr ? "" : e->name();
    stem = stem.substr(stem.find('/') + 1);
    std::optional<rpc::Message> request = request_from_corpus(corpus, stem);
    if (!request) throw std::runtime_error("no seed JSON-RPC call of " + name + " in the corpus");
    Call call{name, {}, std::move(*request)};
    for (const rpc::Value& p : call.request.params) append_arg(call.args.emplace_back(), p);
    out.push_back(std::move(call));
  }
  return out;
}

Verdict judge(const std::string& operation, const std::string& answer, const std::string& error,
              const rpc::Message& expected, std::uint64_t max_ulps) {
  if (answer.empty()) return {"fail", error};
  if (operation == "now") {  // {"kind":"response","method":"now","result":{"$dateTime":"…"}}
    const std::string head = R"({"kind":"response","method":"now","result":{"$dateTime":")";
    const bool ok = answer.starts_with(head) && answer.size() == head.size() + 19 + 3;
    return {ok ? "ok" : "fail", ok ? "" : "not a dateTime response: " + answer.substr(0, 200)};
  }
  std::uint64_t drift = 0;
  const std::string why = json_check(answer, rpc::to_canonical_json(expected), max_ulps, drift);
  if (!why.empty()) return {"fail", why};
  return {"ok", drift == 0 ? "" : "doubles within " + std::to_string(drift) + " ulps"};
}

std::string soapbench_answer(const std::string& url, rpc::Family family,
                             const rpc::Message& request, std::chrono::milliseconds timeout,
                             std::string& error) {
  ClientConfig config;
  config.url = url;
  config.family = family;
  config.io_timeout = timeout;
  RpcClient client(config);
  const CallResult r = client.call(request);
  if (!r.ok) error = r.error;
  return r.ok ? rpc::to_canonical_json(r.response) : "";
}

std::string child_answer(const std::string& path, const std::vector<std::string>& args,
                         std::chrono::milliseconds timeout, std::string& error) {
  try {
    const peers::ChildRun run = peers::run_child(path, args, timeout);
    if (run.timed_out)
      error = "no answer within " + std::to_string(timeout.count()) + " ms";
    else if (run.exit_code != 0 && run.exit_code != 2)  // 2: the answer is a fault
      error = "exited " + std::to_string(run.exit_code) + " (its stderr above)";
    else if (run.out.empty())
      error = "printed nothing";
    return error.empty() ? first_line(run.out) : "";
  } catch (const std::exception& e) {
    error = e.what();
    return "";
  }
}

Verdict malformed_request(const std::string& url, rpc::Family family,
                          std::chrono::milliseconds timeout) {
  ClientConfig config;
  config.url = url;
  config.family = family;
  config.io_timeout = timeout;
  config.rewrite_body = [family](std::string& body) {
    const std::string three = family == rpc::Family::jsonrpc ? ",3]" : ">3<";
    const std::size_t at = body.rfind(three);
    if (at != std::string::npos) body.replace(at + 1, 1, "two");
  };
  rpc::Message add;
  add.kind = rpc::MessageKind::call;
  add.method = "add";
  add.params = {rpc::Value::integer(2), rpc::Value::integer(3)};
  RpcClient client(config);
  const CallResult r = client.call(add);
  if (!r.ok) return {"fail", "no fault: " + r.error};
  const std::string answer = rpc::to_canonical_json(r.response);
  if (r.response.kind != rpc::MessageKind::fault)
    return {"fail", "answered " + answer.substr(0, 200)};
  return {"fault-ok", "HTTP " + std::to_string(r.http_status) + " " + answer.substr(0, 200)};
}

}  // namespace sb::interop
