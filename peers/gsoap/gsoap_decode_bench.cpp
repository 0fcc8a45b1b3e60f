// decode/gsoap/<family>/<call>: gSOAP's generated deserializers reading a corpus message from
// memory into the generated types (a request as soap_serve reads it, a response or fault as the
// client stub does); checked against the manifest's canonical JSON before timing.
#include <benchmark/benchmark.h>

#include <deque>
#include <memory>
#include <string>

#include "codecs/canonical_json.h"
#include "peers/gsoap/context.h"
#include "peers/stacks_bench.h"
#include "stdsoap2.h"

namespace sb::gsoap {

namespace {

// Reads `bytes` (the entry's message) with gSOAP; into `out` when not null.
int read_entry(soap* s, const CorpusEntry& e, const Operation& op, std::string_view bytes,
               rpc::Message* out) {
  if (e.direction == "call") return op.read_call(s, bytes, out != nullptr ? &out->params : nullptr);
  if (e.direction == "response") {
    return op.read_response(s, bytes, out != nullptr ? &out->result : nullptr);
  }
  const int error = read_message(s, bytes, read_fault);
  if (error == SOAP_OK && out != nullptr) *out = fault_message(s);
  return error;
}

// The canonical JSON of what gSOAP read from `bytes`, or "" with the gSOAP error.
std::string decode_to_json(soap* s, const CorpusEntry& e, const Operation& op,
                           std::string_view bytes, std::string& error) {
  rpc::Message m;
  m.method = e.operation;
  m.kind = e.direction == "call" ? rpc::MessageKind::call : rpc::MessageKind::response;
  if (read_entry(s, e, op, bytes, &m) != SOAP_OK) {
    error = "gSOAP: " + error_text(s);
    return "";
  }
  return rpc::to_canonical_json(m);
}

void decode_benchmark(benchmark::State& state, const CorpusEntry* e, const Family* family,
                      const std::string* bytes) {
  const Operation* op = find_operation(family->binding(), e->operation);
  std::unique_ptr<soap, void (*)(soap*)> s(soap_new(), [](soap* c) {
    soap_destroy(c);
    soap_end(c);
    soap_free(c);
  });
  configure(s.get(), *family);
  std::string error;
  const std::string json = decode_to_json(s.get(), *e, *op, *bytes, error);
  soap_destroy(s.get());
  soap_end(s.get());
  if (!error.empty() || !e->canonical_matches(json)) {
    state.SkipWithError((error.empty() ? "wrong answer: " + json.substr(0, 200) : error).c_str());
    return;
  }
  for (auto _ : state) {
    benchmark::DoNotOptimize(read_entry(s.get(), *e, *op, *bytes, nullptr));
    soap_destroy(s.get());  // gSOAP's deallocation is part of its cost
    soap_end(s.get());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes->size()));
}

std::size_t register_gsoap(const Corpus& corpus, const std::string& set) {
  static std::deque<std::string> bytes;  // message bytes for the life of the run
  std::size_t n = 0;
  for (const CorpusEntry& e : corpus.entries()) {
    const Family* family = find_family(e.family);
    if (family == nullptr || e.hostile || (set == "default" && !e.in_set("seed")) ||
        find_operation(family->binding(), e.operation) == nullptr) {
      continue;
    }
    bytes.push_back(corpus.read(e));
    benchmark::RegisterBenchmark(("decode/gsoap/" + e.name()).c_str(), decode_benchmark, &e, family,
                                 &bytes.back());
    ++n;
  }
  return n;
}

const bool kRegistered = stacks::add_registrar(register_gsoap);

}  // namespace

}  // namespace sb::gsoap
