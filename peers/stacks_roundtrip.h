// What every peer's round-trip rows share (roundtrip/<variant>/<family>/<client>~<server>/<call>):
// the calls and their expected answers, the per-call tally, the servers run as child processes
// (the peer's, and `soapbench serve --threads 1` in the same placement), and the rows of our own
// client (soapbench~<stack>, soapbench~soapbench). docs/peers.md.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "codecs/value.h"
#include "harness/answer_check.h"
#include "harness/corpus.h"

namespace sb::stacks {

// A connection variant: keepalive (the default set) or newconn (--set=full only).
struct Variant {
  const char* name;  // the variant part of the benchmark name
  bool keep_alive;   // one connection for every call; false: a new one per call
};

// The variants `set` runs.
std::vector<Variant> variants(const std::string& set);

// One call of the default set for one family, and what a correct answer is.
struct RoundTripCall {
  std::string name;       // e.g. "getRate"
  rpc::Message request;   // the corpus's JSON-RPC call, decoded
  rpc::Message expected;  // the service's answer (getChain: the family's corpus response)
};

// The default calls for `family` (codecs/family.h name), kept for the run; a call whose corpus
// files are missing or disagree with the manifest is left out with a message on stderr.
const std::vector<RoundTripCall>& roundtrip_calls(const Corpus& corpus, const std::string& family);

using sb::exact_check;  // harness/answer_check.h

// A check of a response against the expected one: exact_check, or a stack's tolerant one.
using Check = std::string (*)(const rpc::Message& got, const rpc::Message& expected);

// Per-call sums reported as counters: total_ns, and bytes_sent/bytes_received when counted.
struct Tally {
  double total_ns = 0;  // sum of call times
  double sent = 0;      // sum of bytes written to the socket
  double received = 0;  // sum of bytes read from the socket
  bool wire = true;     // false: the client cannot count its bytes, no byte counters
  // Sets the counters (averages per iteration).
  void report(benchmark::State& state) const;
};

// The URL of `soapbench serve --threads 1 --corpus DIR` as a child process (started on first use,
// kept for the run). Throws when it does not start.
const std::string& soapbench_url(const Corpus& corpus);

// Our client (RpcClient, default adapter) against `url()` in `family`, keep-alive or a new
// connection per call; checked twice with `check`, then timed (a stack whose server closes after
// every answer registers its own newconn rows with it: peers/java).
void soapbench_client_row(benchmark::State& state, const std::string& family,
                          const std::function<std::string()>& url, const RoundTripCall& call,
                          bool keep_alive, Check check);

// Registers roundtrip/<v>/<family>/soapbench~<stack>/<call> (our RpcClient, default adapter,
// against the stack's server at server_url()) for every call and variant, and once per family
// soapbench~soapbench against soapbench_url(); returns how many rows it added.
std::size_t register_soapbench_rows(const Corpus& corpus, const std::string& family,
                                    const std::string& stack, const std::string& set,
                                    std::function<std::string()> server_url, Check check);

// Registers one row `roundtrip/<v>/<family>/<pair>/<call>` running `fn`, in µs; returns 1.
std::size_t register_row(const std::string& variant, const std::string& family,
                         const std::string& pair, const std::string& call,
                         std::function<void(benchmark::State&)> fn);

}  // namespace sb::stacks
