// decode/xmlrpc-c/xmlrpc/<file>: xmlrpc-c's own deserializer (xmlrpc_c::xml::parseCall for
// calls, parseResponse for responses and faults) on the corpus's XML-RPC messages, from memory.
// Before timing, the decoded message is converted to canonical JSON and must equal the
// manifest's; a mismatch or a rejection is SkipWithError.
#include <benchmark/benchmark.h>
#include <xmlrpc-c/xml.hpp>

#include <deque>
#include <exception>
#include <string>

#include "codecs/canonical_json.h"
#include "peers/stacks_bench.h"
#include "peers/xmlrpc-c/xmlrpc_c_values.h"

namespace sb::peers {

namespace {

// Room for the corpus's largest messages (xmlrpc-c's default limit is 512 KiB).
constexpr std::size_t kMaxXml = std::size_t{256} << 20;

// The message xmlrpc-c decodes from bytes, as the suite's canonical JSON.
std::string decoded_json(const CorpusEntry& e, const std::string& bytes) {
  rpc::Message m;
  if (e.direction == "call") {
    std::string method;
    xmlrpc_c::paramList params;
    xmlrpc_c::xml::parseCall(bytes, &method, &params);
    m.kind = rpc::MessageKind::call;
    m.method = method;
    for (unsigned i = 0; i < params.size(); ++i) m.params.push_back(from_xmlrpc_c(params[i]));
  } else {
    xmlrpc_c::rpcOutcome outcome;
    xmlrpc_c::xml::parseResponse(bytes, &outcome);
    if (outcome.succeeded()) {
      m.kind = rpc::MessageKind::response;
      m.method = e.operation;
      m.result = from_xmlrpc_c(outcome.getResult());
    } else {
      m.kind = rpc::MessageKind::fault;
      m.fault_code = static_cast<int>(outcome.getFault().getCode());
      m.fault_message = outcome.getFault().getDescription();
    }
  }
  return rpc::to_canonical_json(m);
}

void decode_benchmark(benchmark::State& state, const CorpusEntry& e, const std::string& bytes) {
  try {
    const std::string json = decoded_json(e, bytes);
    if (!e.canonical_matches(json)) {
      state.SkipWithError((e.path + ": canonical JSON differs: " + json.substr(0, 200)).c_str());
      return;
    }
  } catch (const std::exception& ex) {
    state.SkipWithError((e.path + ": " + ex.what()).c_str());
    return;
  }
  const bool call = e.direction == "call";
  for (auto _ : state) {
    if (call) {
      std::string method;
      xmlrpc_c::paramList params;
      xmlrpc_c::xml::parseCall(bytes, &method, &params);
      benchmark::DoNotOptimize(params);
    } else {
      xmlrpc_c::rpcOutcome outcome;
      xmlrpc_c::xml::parseResponse(bytes, &outcome);
      benchmark::DoNotOptimize(outcome);
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(bytes.size()));
  state.counters["msgs_per_s"] =
      benchmark::Counter(1, benchmark::Counter::kIsIterationInvariantRate);
}

std::size_t register_decode(const Corpus& corpus, const std::string& set) {
  static std::deque<std::string> bytes;  // every registered file's bytes, for the whole run
  xmlrpc_limit_set(XMLRPC_XML_SIZE_LIMIT_ID, kMaxXml);
  std::size_t n = 0;
  for (const CorpusEntry& e : corpus.entries()) {
    if (e.hostile || e.family != "xmlrpc" || (set == "default" && !e.in_set("seed"))) continue;
    const std::string name = e.name();  // "xmlrpc/getRate.call"
    bytes.push_back(corpus.read(e));
    const std::string& b = bytes.back();
    benchmark::RegisterBenchmark(("decode/xmlrpc-c/" + name).c_str(),
                                 [&e, &b](benchmark::State& s) { decode_benchmark(s, e, b); });
    ++n;
  }
  return n;
}

[[maybe_unused]] const bool registered = stacks::add_registrar(register_decode);

}  // namespace

}  // namespace sb::peers
