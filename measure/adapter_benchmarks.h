// Benchmark bodies for bench/parse_bench and `soapbench compare` (one timed loop for both, so
// their numbers and instruction counts are the same work): one function per kind of benchmark.
// Each checks its result against the corpus manifest (or compare's reference, harness/
// equal_work.h) BEFORE timing (a mismatch is SkipWithError) and never asserts inside the loop.
#pragma once

#include <benchmark/benchmark.h>

#include <chrono>
#include <string>

#include "codecs/decode.h"
#include "codecs/value.h"
#include "harness/corpus.h"
#include "harness/encoders.h"
#include "harness/equal_work.h"
#include "parsers/registry.h"

namespace sb::bench {

// What decode is told about `file`: its operation (the method of an XML-RPC / JSON-RPC
// response), batches accepted, and the contract (nullptr: the built-in service).
rpc::DecodeContext decode_context(const CorpusEntry& file, const rpc::Contract* contract);

// The message of a benchmark repetition skipped because the deadline had passed (not an error:
// measure/summary_reporter.h counts these apart).
inline constexpr const char* kCutByDeadline = "cut: the time budget was spent";

// From now on, a benchmark body called after `at` (or whose check ends after it) skips with
// kCutByDeadline instead of timing (soapbench compare --budget). Without a call: no deadline.
void set_benchmark_deadline(std::chrono::steady_clock::time_point at);

// One adapter at one level on one corpus file; `contract` types its literal SOAP (a user's WSDL).
// Its check and allocation figures are settled on the first call for `name` and kept for later
// calls (Google Benchmark calls a body per repetition and per round of its iteration search).
void adapter_benchmark(benchmark::State& state, const std::string& name, Level level,
                       const AdapterEntry& entry, const CorpusEntry& file, const std::string& bytes,
                       const rpc::Contract* contract = nullptr);

// Speed-of-light floors on the same bytes: memcpy of the message, and a memchr scan for the
// format's most frequent markup byte ('<' for XML, '"' for JSON).
void memcpy_floor(benchmark::State& state, const std::string& name, const std::string& bytes);
void memchr_floor(benchmark::State& state, const std::string& name, const CorpusEntry& file,
                  const std::string& bytes);

// The library called directly, without the adapter, in the same mode as its dom adapter
// (parsers/reference_calls.h); `library` is "pugixml" or "libxml2".
void direct_benchmark(benchmark::State& state, const std::string& name, const std::string& library,
                      const CorpusEntry& file, const std::string& bytes);

// One encoder writing `message` (decoded from `file`, a corpus response) in the file's family.
// Before timing, the output is decoded by `reader` and must give the manifest's canonical JSON.
void encode_benchmark(benchmark::State& state, const std::string& name, const EncoderEntry& encoder,
                      const rpc::Message& message, const CorpusEntry& file,
                      const AdapterEntry& reader);

// Brackets a timed loop for callgrind (tools/icount, which starts callgrind with
// --collect-atstart=no): zeroes the counters and turns collection on at entry; turns it off and
// dumps them labelled with the benchmark name at exit. Outside valgrind these are a few no-op
// instructions, outside the timed loop.
class InstructionScope {
 public:
  explicit InstructionScope(const std::string& name);
  ~InstructionScope();

 private:
  const std::string& name_;  // the dump label: the benchmark name
};

}  // namespace sb::bench
