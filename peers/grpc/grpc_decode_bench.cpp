// decode/protobuf/grpc/<call>.call and .response: protobuf's parser (ParseFromString into a
// reused generated message) on the messages gRPC carries for the round trips' default calls, from
// memory. The bytes are the request built from the corpus's JSON-RPC call and the reply built from
// the contract's answer (grpc_values.h). Checked before timing: the parsed message, read back as
// the suite's values, must be the manifest's call (its canonical JSON) and the contract's answer;
// else SkipWithError. getChain's reply holds pre-serialized steps: each is parsed too, as the
// client does.
#include <benchmark/benchmark.h>
#include <google/protobuf/message.h>

#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <string>

#include "codecs/canonical_json.h"
#include "harness/answer_check.h"
#include "harness/roundtrip_calls.h"
#include "peers/grpc/grpc_client_stub.h"
#include "peers/grpc/grpc_values.h"
#include "peers/grpc/soapbench.pb.h"
#include "peers/stacks_bench.h"
#include "peers/stacks_roundtrip.h"

namespace sb::peers {

namespace {

// One message to decode and what it must decode to.
struct DecodeCase {
  const rpc::Operation* op = nullptr;                  // its operation
  bool call = true;                                    // request (else reply)
  std::unique_ptr<google::protobuf::Message> message;  // reused by every parse
  std::string bytes;                                   // the serialized message
  rpc::Message expected;                               // the suite's message it holds
  const CorpusEntry* entry = nullptr;                  // the call's manifest entry (calls only)
};

// Parses bytes into the case's message (and getChain's steps into `step`); false on failure.
bool parse(DecodeCase& c, soapbench::v1::ChainStep& step) {
  if (!c.message->ParseFromString(c.bytes)) return false;
  if (c.call || c.op->name != "getChain") return true;
  for (const std::string& s : static_cast<const soapbench::v1::ChainReply&>(*c.message).result()) {
    if (!step.ParseFromString(s)) return false;
  }
  return true;
}

// "" when the parsed message holds what it must, else why not.
std::string check(DecodeCase& c) {
  soapbench::v1::ChainStep step;
  if (!parse(c, step)) return "protobuf does not parse it";
  const rpc::Message got = c.call ? from_request(*c.op, *c.message) : from_reply(*c.op, *c.message);
  if (c.entry != nullptr && !c.entry->canonical_matches(rpc::to_canonical_json(got))) {
    return "not the manifest's call: " + rpc::to_canonical_json(got).substr(0, 200);
  }
  return exact_check(got, c.expected);
}

void decode_benchmark(benchmark::State& state, DecodeCase& c) {
  try {
    if (const std::string why = check(c); !why.empty()) {
      state.SkipWithError(why.c_str());
      return;
    }
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  soapbench::v1::ChainStep step;
  for (auto _ : state) benchmark::DoNotOptimize(parse(c, step));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(c.bytes.size()));
  state.counters["msgs_per_s"] =
      benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate);
}

// The call's request and reply as decode cases.
void add_cases(const Corpus& corpus, const stacks::RoundTripCall& call,
               std::deque<DecodeCase>& out) {
  PreparedCall p = GrpcClient::prepare(call.request);
  DecodeCase request{p.op, true,         std::move(p.request),
                     "",   call.request, find_corpus_entry(corpus, "jsonrpc", call.name + ".call")};
  request.bytes = request.message->SerializeAsString();
  to_reply(*p.op, call.expected.result, *p.reply);
  DecodeCase reply{p.op, false, std::move(p.reply), "", call.expected, nullptr};
  reply.bytes = reply.message->SerializeAsString();
  out.push_back(std::move(request));
  out.push_back(std::move(reply));
}

std::size_t register_decode(const Corpus& corpus, const std::string&) {
  static std::deque<DecodeCase> cases;  // every registered case, for the whole run
  std::size_t n = 0;
  for (const stacks::RoundTripCall& call : stacks::roundtrip_calls(corpus, "jsonrpc")) {
    try {
      add_cases(corpus, call, cases);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "stacks_bench: no decode/protobuf/grpc/%s: %s\n", call.name.c_str(),
                   e.what());
      continue;
    }
    for (auto it = cases.end() - 2; it != cases.end(); ++it) {
      DecodeCase& c = *it;
      const std::string name =
          "decode/protobuf/grpc/" + call.name + (c.call ? ".call" : ".response");
      benchmark::RegisterBenchmark(name.c_str(),
                                   [&c](benchmark::State& s) { decode_benchmark(s, c); });
      ++n;
    }
  }
  return n;
}

[[maybe_unused]] const bool registered = stacks::add_registrar(register_decode);

}  // namespace

}  // namespace sb::peers
