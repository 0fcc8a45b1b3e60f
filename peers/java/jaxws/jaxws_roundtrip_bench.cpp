// roundtrip/newconn/soap11-doc-literal/soapbench~<server>/<call>: our client (default adapter)
// against jaxws_server (the JAX-WS RI on the JDK's HTTP server), gsoap_server and `soapbench
// serve` on the same calls, a new connection per call as the Axis rows beside them (peers/java/
// axis_roundtrip_bench.cpp), each answer checked before timing. jaxws_server is started once for
// the run with --warmup, so the rows time a JIT-compiled server (its warm-up is printed on
// stderr, apart from the rows). README "Peers -> Java stacks -> JAX-WS".
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/peer_process.h"
#include "peers/stacks_bench.h"
#include "peers/stacks_roundtrip.h"

namespace sb::java {

namespace {

// Calls jaxws_server answers before its serving line (JIT warm-up), and how long that may take
// on a loaded machine.
constexpr const char* kWarmupCalls = "3000";
constexpr std::chrono::seconds kWarmupBound{180};
// The family timed here: JAX-WS's document/literal, SOAP 1.1 (README "Peers -> Java stacks").
constexpr const char* kFamily = "soap11-doc-literal";
// The calls of `--set=java` (the default `bench` set's budget: about 20 s with the JVM's start
// and warm-up): the classic envelope and the encoding-style study's two payload sizes;
// `--set=jaxws` times every default call.
constexpr std::string_view kJavaSetCalls[] = {"getRate", "respond.2500B", "respond.7500B"};

std::size_t register_jaxws_roundtrip(const Corpus& corpus, const std::string& set) {
  const std::string family = kFamily;
  const std::string dir = corpus.dir().string();
  const std::vector<std::pair<std::string, std::function<std::string()>>> servers = {
      {"soapbench~jaxws",
       [dir, family] {
         return peers::peer_url(
             SB_JAXWS_SERVER_PATH,
             {"--family", family, "--port", "0", "--corpus", dir, "--warmup", kWarmupCalls},
             kWarmupBound);
       }},
#ifdef SB_GSOAP_SERVER_PATH  // gSOAP's peer is built by g++ only (cmake/dependencies.cmake)
      {"soapbench~gsoap",
       [dir, family] {
         return peers::peer_url(SB_GSOAP_SERVER_PATH,
                                {"--family", family, "--port", "0", "--corpus", dir});
       }},
#endif
      {"soapbench~soapbench", [c = &corpus] { return stacks::soapbench_url(*c); }},
  };
  std::size_t n = 0;
  for (const stacks::RoundTripCall& call : stacks::roundtrip_calls(corpus, family)) {
    if (set == "java" && std::ranges::find(kJavaSetCalls, call.name) == std::end(kJavaSetCalls))
      continue;
    for (const auto& server : servers) {
      // Named copies: clang 14 (the sanitizer build) cannot capture a structured binding.
      const std::string& pair = server.first;
      const std::function<std::string()> url = server.second;
      n +=
          stacks::register_row("newconn", family, pair, call.name, [=, &call](benchmark::State& s) {
            stacks::soapbench_client_row(s, family, url, call, false, stacks::exact_check);
          });
    }
  }
  return n;
}

// In the Axis rows' set (`--set=java`): one run times both JVM stacks beside gSOAP and ours; and
// a set of its own with every call (`--set=jaxws`, bench.stacks.jaxws.full).
const bool kRegistered = stacks::add_set_registrar("java", register_jaxws_roundtrip) &&
                         stacks::add_set_registrar("jaxws", register_jaxws_roundtrip);

}  // namespace

}  // namespace sb::java
