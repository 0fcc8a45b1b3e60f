#include "peers/stacks_roundtrip.h"

#include <chrono>
#include <cstdio>
#include <deque>
#include <exception>
#include <map>
#include <set>

#include "codecs/canonical_json.h"
#include "harness/answer_check.h"
#include "harness/client/http_client.h"
#include "harness/peer_process.h"
#include "harness/roundtrip_calls.h"
#include "parsers/registry.h"

namespace sb::stacks {

void soapbench_client_row(benchmark::State& state, const std::string& family,
                          const std::function<std::string()>& url, const RoundTripCall& call,
                          bool keep_alive, Check check) {
  ClientConfig cfg;
  try {
    cfg.url = url();
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  cfg.family = *rpc::family_from_name(family);
  cfg.parser = kDefaultXmlAdapter;
  cfg.keep_alive = keep_alive;
  RpcClient client(cfg);
  for (int i = 0; i < 2; ++i) {  // correctness first; also warms the connection
    const CallResult r = client.call(call.request);
    const std::string why = r.ok ? check(r.response, call.expected) : "call failed: " + r.error;
    if (!why.empty()) {
      state.SkipWithError(why.c_str());
      return;
    }
  }
  Tally tally;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    CallResult r = client.call(call.request);
    tally.total_ns += static_cast<double>((std::chrono::steady_clock::now() - start).count());
    tally.sent += static_cast<double>(r.wire.sent);
    tally.received += static_cast<double>(r.wire.received);
    benchmark::DoNotOptimize(r);
  }
  tally.report(state);
}

std::vector<Variant> variants(const std::string& set) {
  if (set == "full") return {{"keepalive", true}, {"newconn", false}};
  return {{"keepalive", true}};
}

const std::vector<RoundTripCall>& roundtrip_calls(const Corpus& corpus, const std::string& family) {
  static std::map<std::string, std::vector<RoundTripCall>> cache;
  if (auto it = cache.find(family); it != cache.end()) return it->second;
  std::vector<RoundTripCall>& calls = cache[family];
  for (const auto& [name, stem] : roundtrip_default_calls()) {
    std::optional<rpc::Message> request = request_from_corpus(corpus, stem);
    std::optional<rpc::Message> expected;
    if (request) expected = expected_answer(corpus, family, *request);
    if (!request || !expected) {
      std::fprintf(stderr, "stacks_bench: no round trip %s/%s (corpus files missing or wrong)\n",
                   family.c_str(), name.c_str());
      continue;
    }
    calls.push_back({name, std::move(*request), std::move(*expected)});
  }
  return calls;
}

void Tally::report(benchmark::State& state) const {
  auto avg = [](double v) { return benchmark::Counter(v, benchmark::Counter::kAvgIterations); };
  state.counters["total_ns"] = avg(total_ns);
  if (!wire) return;
  state.counters["bytes_sent"] = avg(sent);
  state.counters["bytes_received"] = avg(received);
}

const std::string& soapbench_url(const Corpus& corpus) {
  return peers::peer_url(SB_SOAPBENCH_PATH, {"serve", "--port", "0", "--threads", "1", "--corpus",
                                             corpus.dir().string()});
}

std::size_t register_row(const std::string& variant, const std::string& family,
                         const std::string& pair, const std::string& call,
                         std::function<void(benchmark::State&)> fn) {
  const std::string name = "roundtrip/" + variant + "/" + family + "/" + pair + "/" + call;
  benchmark::RegisterBenchmark(name.c_str(), std::move(fn))->Unit(benchmark::kMicrosecond);
  return 1;
}

std::size_t register_soapbench_rows(const Corpus& corpus, const std::string& family,
                                    const std::string& stack, const std::string& set,
                                    std::function<std::string()> server_url, Check check) {
  static std::set<std::string> reference_done;  // families with soapbench~soapbench rows
  const bool reference = reference_done.insert(family).second;
  const Corpus* c = &corpus;
  std::function<std::string()> ours = [c] { return soapbench_url(*c); };
  std::size_t n = 0;
  for (const RoundTripCall& call : roundtrip_calls(corpus, family)) {
    for (const Variant& v : variants(set)) {
      const bool ka = v.keep_alive;
      n += register_row(v.name, family, "soapbench~" + stack, call.name,
                        [=, &call](benchmark::State& s) {
                          soapbench_client_row(s, family, server_url, call, ka, check);
                        });
      if (!reference) continue;
      n += register_row(v.name, family, "soapbench~soapbench", call.name,
                        [=, &call](benchmark::State& s) {
                          soapbench_client_row(s, family, ours, call, ka, exact_check);
                        });
    }
  }
  return n;
}

}  // namespace sb::stacks
