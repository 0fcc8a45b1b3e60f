// roundtrip/<variant>/xmlrpc/<pair>/<call> for xmlrpc-c: its client (client_xml on one curl
// transport, which keeps its connection) in this process against xmlrpc_c_server (pair
// "xmlrpc-c") or `soapbench serve` ("xmlrpc-c~soapbench"), both child processes, and our client
// against xmlrpc_c_server ("soapbench~xmlrpc-c", with the reference "soapbench~soapbench":
// peers/stacks_roundtrip.h). Answers are checked first, doubles within xmlrpc-c's drift
// (xmlrpc_c_check.h). The curl transport does not expose its socket: these rows have total_ns
// but no byte counters, except soapbench~xmlrpc-c, where our client counts them.
#include <benchmark/benchmark.h>
#include <xmlrpc-c/client.hpp>
#include <xmlrpc-c/client_transport.hpp>

#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <string>

#include "harness/peer_list.h"
#include "harness/peer_process.h"
#include "peers/stacks_bench.h"
#include "peers/stacks_roundtrip.h"
#include "peers/xmlrpc-c/xmlrpc_c_check.h"
#include "peers/xmlrpc-c/xmlrpc_c_values.h"

namespace sb::peers {

namespace {

// Room for the default calls' largest answers (xmlrpc-c's default limit is 512 KiB).
constexpr std::size_t kMaxXml = std::size_t{64} << 20;

// xmlrpc-c's client on one curl transport (one connection while it lives), without a proxy.
struct Client {
  xmlrpc_c::clientXmlTransport_curl transport{
      xmlrpc_c::clientXmlTransport_curl::constrOpt().timeout(30'000).proxy("")};  // curl session
  xmlrpc_c::client_xml client{&transport};  // the XML-RPC client on it
};

// One call: the answer as the suite's message.
rpc::Message call_once(Client& c, xmlrpc_c::carriageParm_curl0& carriage, const std::string& method,
                       const xmlrpc_c::paramList& params) {
  xmlrpc_c::rpcPtr call(method, params);
  call->call(&c.client, &carriage);
  return call_message(method, *call.operator->());
}

void xmlrpc_c_client_row(benchmark::State& state, const std::function<std::string()>& url,
                         const stacks::RoundTripCall& call, bool keep_alive) {
  try {
    xmlrpc_c::carriageParm_curl0 carriage(url() + "/RPC2");
    xmlrpc_c::paramList params;
    for (const rpc::Value& v : call.request.params) params.add(to_xmlrpc_c(v));
    const std::string& method = call.request.method;
    auto client = std::make_unique<Client>();
    for (int i = 0; i < 2; ++i) {  // correctness first; also warms the connection
      const std::string why =
          drift_check(call_once(*client, carriage, method, params), call.expected);
      if (!why.empty()) {
        state.SkipWithError(why.c_str());
        return;
      }
    }
    stacks::Tally tally;
    tally.wire = false;
    for (auto _ : state) {
      const auto start = std::chrono::steady_clock::now();
      if (!keep_alive) client = std::make_unique<Client>();  // a new curl session: a new connection
      benchmark::DoNotOptimize(call_once(*client, carriage, method, params));
      tally.total_ns += static_cast<double>((std::chrono::steady_clock::now() - start).count());
    }
    tally.report(state);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

std::size_t register_xmlrpc_c_roundtrip(const Corpus& corpus, const std::string& set) {
  xmlrpc_limit_set(XMLRPC_XML_SIZE_LIMIT_ID, kMaxXml);
  const Corpus* c = &corpus;
  std::function<std::string()> peer = [c] {
    return peer_url(peer_server("xmlrpc-c"), {"--port", "0", "--corpus", c->dir().string()});
  };
  std::function<std::string()> ours = [c] { return stacks::soapbench_url(*c); };
  std::size_t n = 0;
  for (const stacks::RoundTripCall& call : stacks::roundtrip_calls(corpus, "xmlrpc")) {
    for (const stacks::Variant& v : stacks::variants(set)) {
      const bool ka = v.keep_alive;
      n += stacks::register_row(
          v.name, "xmlrpc", "xmlrpc-c", call.name,
          [=, &call](benchmark::State& s) { xmlrpc_c_client_row(s, peer, call, ka); });
      n += stacks::register_row(
          v.name, "xmlrpc", "xmlrpc-c~soapbench", call.name,
          [=, &call](benchmark::State& s) { xmlrpc_c_client_row(s, ours, call, ka); });
    }
  }
  return n + stacks::register_soapbench_rows(corpus, "xmlrpc", "xmlrpc-c", set, peer, drift_check);
}

[[maybe_unused]] const bool registered = stacks::add_registrar(register_xmlrpc_c_roundtrip);

}  // namespace

}  // namespace sb::peers
