// The JVM stacks' round-trip rows beside gSOAP's and ours (jvm_roundtrip.h).
#include "peers/java/jvm_roundtrip.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <utility>
#include <vector>

#include "harness/corpus.h"
#include "harness/peer_list.h"
#include "harness/peer_process.h"
#include "peers/stacks_bench.h"
#include "peers/stacks_roundtrip.h"

namespace sb::java {

namespace {

// Calls a JVM server answers before its serving line (JIT warm-up), and how long that may take:
// 7-13 s on an idle 2-core machine, over 20 s when the machine is loaded (CI's parallel tests).
constexpr const char* kWarmupCalls = "3000";
constexpr std::chrono::seconds kWarmupBound{180};

using UrlOf = std::function<std::string()>;  // starts a server once; its URL

}  // namespace

std::size_t register_jvm_rows(const Corpus& corpus, const std::string& family,
                              const std::string& server, const std::string& program,
                              const std::function<bool(std::string_view call)>& keep) {
  const std::string dir = corpus.dir().string();
  std::vector<std::pair<std::string, UrlOf>> servers = {
      {"soapbench~" + server, [program, dir, family] {
         return peers::peer_url(
             program,
             {"--family", family, "--port", "0", "--corpus", dir, "--warmup", kWarmupCalls},
             kWarmupBound);
       }}};
  // gSOAP's peer is built by g++ only (cmake/dependencies.cmake).
  if (const Peer* gsoap = find_peer("gsoap"); gsoap != nullptr && gsoap->built) {
    servers.emplace_back("soapbench~gsoap", [program = gsoap->server, dir, family] {
      return peers::peer_url(program, {"--family", family, "--port", "0", "--corpus", dir});
    });
  }
  servers.emplace_back("soapbench~soapbench", [c = &corpus] { return stacks::soapbench_url(*c); });
  std::size_t n = 0;
  for (const stacks::RoundTripCall& call : stacks::roundtrip_calls(corpus, family)) {
    if (!keep(call.name)) continue;
    for (const auto& entry : servers) {
      // Named copies: clang 14 (the sanitizer build) cannot capture a structured binding.
      const std::string& pair = entry.first;
      const UrlOf url = entry.second;
      n +=
          stacks::register_row("newconn", family, pair, call.name, [=, &call](benchmark::State& s) {
            stacks::soapbench_client_row(s, family, url, call, false, stacks::exact_check);
          });
    }
  }
  return n;
}

}  // namespace sb::java
