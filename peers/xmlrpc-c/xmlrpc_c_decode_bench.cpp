// decode/xmlrpc-c/xmlrpc/<file>: xmlrpc-c's own deserializer (xmlrpc_c::xml::parseCall for
// calls, parseResponse for responses and faults) on the corpus's XML-RPC messages, from memory.
// Checked before timing: the suite's default XML adapter decodes the file and must give the
// manifest's canonical JSON; xmlrpc-c's message, converted to the value model, must equal that
// one except for doubles within kMaxDriftUlps (xmlrpc-c's own double parser is not correctly
// rounded: docs/peers.md); the drift is the counter double_drift_ulps. Anything else is
// SkipWithError.
#include <benchmark/benchmark.h>
#include <xmlrpc-c/xml.hpp>

#include <cstdint>
#include <deque>
#include <exception>
#include <optional>
#include <string>

#include "codecs/canonical_json.h"
#include "parsers/registry.h"
#include "peers/stacks_bench.h"
#include "peers/xmlrpc-c/xmlrpc_c_check.h"
#include "peers/xmlrpc-c/xmlrpc_c_values.h"

namespace sb::peers {

namespace {

// Room for the corpus's largest messages (xmlrpc-c's default limit is 512 KiB).
constexpr std::size_t kMaxXml = std::size_t{256} << 20;
// The message xmlrpc-c decodes from bytes, in the value model.
rpc::Message xmlrpc_c_message(const CorpusEntry& e, const std::string& bytes) {
  rpc::Message m;
  if (e.direction == "call") {
    xmlrpc_c::paramList params;
    xmlrpc_c::xml::parseCall(bytes, &m.method, &params);
    m.kind = rpc::MessageKind::call;
    for (unsigned i = 0; i < params.size(); ++i) m.params.push_back(from_xmlrpc_c(params[i]));
    return m;
  }
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
  return m;
}

// "" when xmlrpc-c's decoding is right (drift set), else why not.
std::string check(const CorpusEntry& e, const std::string& bytes, std::uint64_t& ulps_out) {
  MessageBuffer buffer(bytes);
  rpc::DecodeContext context;
  context.method = e.direction == "call" ? "" : e.operation;
  rpc::Message reference;
  DecodeReport report;
  if (!make_adapter(kDefaultXmlAdapter)->decode(buffer, context, reference, report).ok() ||
      !e.canonical_matches(rpc::to_canonical_json(reference)))
    return "the reference adapter disagrees with the manifest";
  const rpc::Message m = xmlrpc_c_message(e, bytes);
  const std::optional<std::uint64_t> d = double_drift(m, reference);
  if (!d || *d > kMaxDriftUlps)
    return "canonical JSON differs: " + rpc::to_canonical_json(m).substr(0, 200);
  ulps_out = *d;
  return "";
}

void decode_benchmark(benchmark::State& state, const CorpusEntry& e, const std::string& bytes) {
  std::uint64_t drift_ulps = 0;
  try {
    if (const std::string why = check(e, bytes, drift_ulps); !why.empty()) {
      state.SkipWithError((e.path + ": " + why).c_str());
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
  state.counters["double_drift_ulps"] = static_cast<double>(drift_ulps);
}

std::size_t register_decode(const Corpus& corpus, const std::string& set) {
  static std::deque<std::string> bytes;  // every registered file's bytes, for the whole run
  xmlrpc_limit_set(XMLRPC_XML_SIZE_LIMIT_ID, kMaxXml);
  std::size_t n = 0;
  for (const CorpusEntry& e : corpus.entries()) {
    if (e.hostile || e.family != "xmlrpc" || (set == "default" && !e.in_set("seed"))) continue;
    bytes.push_back(corpus.read(e));
    const std::string& b = bytes.back();
    benchmark::RegisterBenchmark(("decode/xmlrpc-c/" + e.name()).c_str(),
                                 [&e, &b](benchmark::State& s) { decode_benchmark(s, e, b); });
    ++n;
  }
  return n;
}

[[maybe_unused]] const bool registered = stacks::add_registrar(register_decode);

}  // namespace

}  // namespace sb::peers
