// roundtrip/newconn/soap11-rpc-encoded/soapbench~axis/<call>: our client (default adapter)
// against axis_server, a new connection per call (SimpleAxisServer answers in HTTP/1.0 and closes
// every connection), with the reference soapbench~soapbench in the same variant. axis_server is
// started once for the run with --warmup, so the rows time a JIT-compiled server (its warm-up
// is printed on stderr, apart from the rows). README "Peers -> Java stacks".
#include <benchmark/benchmark.h>

#include <functional>
#include <string>

#include "harness/peer_process.h"
#include "peers/stacks_bench.h"
#include "peers/stacks_roundtrip.h"

namespace sb::java {

namespace {

// Calls axis_server answers before its serving line (JIT warm-up), and how long that may take:
// 7-13 s on an idle 2-core machine, over 20 s when the machine is loaded (CI's parallel tests).
constexpr const char* kWarmupCalls = "3000";
constexpr std::chrono::seconds kWarmupBound{180};

std::size_t register_axis_roundtrip(const Corpus& corpus, const std::string& /*set*/) {
  const std::string family = "soap11-rpc-encoded";
  const Corpus* c = &corpus;
  std::function<std::string()> axis = [c] {
    return peers::peer_url(SB_AXIS_SERVER_PATH,
                           {"--port", "0", "--corpus", c->dir().string(), "--warmup", kWarmupCalls},
                           kWarmupBound);
  };
  std::function<std::string()> ours = [c] { return stacks::soapbench_url(*c); };
  std::size_t n = 0;
  for (const stacks::RoundTripCall& call : stacks::roundtrip_calls(corpus, family)) {
    for (const auto& [pair_name, pair_url] :
         {std::pair{"soapbench~axis", axis}, {"soapbench~soapbench", ours}}) {
      // A copy: clang 14 cannot capture a structured binding.
      const char* pair = pair_name;
      const std::function<std::string()> url = pair_url;
      n +=
          stacks::register_row("newconn", family, pair, call.name, [=, &call](benchmark::State& s) {
            stacks::soapbench_client_row(s, family, url, call, false, stacks::exact_check);
          });
    }
  }
  return n;
}

// Its own set (`--set=java`): the JVM's start and warm-up stay out of the default set's budget.
const bool kRegistered = stacks::add_set_registrar("java", register_axis_roundtrip);

}  // namespace

}  // namespace sb::java
