// roundtrip/newconn/soap11-rpc-encoded/soapbench~<server>/<call>: our client (default adapter)
// against axis_server, gsoap_server and `soapbench serve` on the same calls, a new connection per
// call (SimpleAxisServer answers in HTTP/1.0 and closes every connection, so the other two are
// called the same way), each answer checked before timing. axis_server is started once for the
// run with --warmup, so the rows time a JIT-compiled server (its warm-up is printed on stderr,
// apart from the rows). README "Peers -> Java stacks".
#include <benchmark/benchmark.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "harness/peer_process.h"
#include "peers/stacks_bench.h"
#include "peers/stacks_roundtrip.h"

namespace sb::java {

namespace {

// Calls axis_server answers before its serving line (JIT warm-up), and how long that may take:
// 7-13 s on an idle 2-core machine, over 20 s when the machine is loaded (CI's parallel tests).
constexpr const char* kWarmupCalls = "3000";
constexpr std::chrono::seconds kWarmupBound{180};
// The one family Axis serves here (README "Peers -> Java stacks").
constexpr const char* kFamily = "soap11-rpc-encoded";

std::size_t register_axis_roundtrip(const Corpus& corpus, const std::string& /*set*/) {
  const std::string family = kFamily;
  const std::string dir = corpus.dir().string();
  const std::vector<std::pair<std::string, std::function<std::string()>>> servers = {
      {"soapbench~axis",
       [dir] {
         return peers::peer_url(SB_AXIS_SERVER_PATH,
                                {"--port", "0", "--corpus", dir, "--warmup", kWarmupCalls},
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

// Its own set (`--set=java`): the JVM's start and warm-up stay out of bench.stacks.
const bool kRegistered = stacks::add_set_registrar("java", register_axis_roundtrip);

}  // namespace

}  // namespace sb::java
