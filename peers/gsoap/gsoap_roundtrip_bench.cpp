// roundtrip/<variant>/<family>/<pair>/<call> for gSOAP: its generated client stubs in this process
// against gsoap_server (pair "gsoap") or `soapbench serve` (pair "gsoap~soapbench"), both child
// processes, and our client against gsoap_server ("soapbench~gsoap", with the reference
// "soapbench~soapbench": peers/stacks_roundtrip.h). Each row checks its answer against the
// contract first; bytes are counted at gSOAP's send and receive callbacks.
#include <benchmark/benchmark.h>

#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <string>

#include "harness/peer_list.h"
#include "harness/peer_process.h"
#include "peers/gsoap/context.h"
#include "peers/stacks_bench.h"
#include "peers/stacks_roundtrip.h"
#include "stdsoap2.h"

namespace sb::gsoap {

namespace {

// One call through the generated stub at endpoint: the answer (response or fault) as the
// contract's message; on a transport or decode error, `error` says what.
rpc::Message call_once(soap* s, const Operation& op, const std::string& endpoint,
                       const stacks::RoundTripCall& call, std::string& error) {
  rpc::Message m;
  rpc::Value result;
  const int e = op.call(s, endpoint.c_str(), call.request.params, result);
  if (e == SOAP_OK) {
    m.kind = rpc::MessageKind::response;
    m.method = call.request.method;
    m.result = std::move(result);
  } else if (s->fault != nullptr &&
             (e == SOAP_FAULT || e == SOAP_CLI_FAULT || e == SOAP_SVR_FAULT)) {
    m = fault_message(s);
  } else {
    error = "gSOAP: " + error_text(s);
  }
  soap_destroy(s);
  soap_end(s);
  return m;
}

// gSOAP's client against the server at url() (+ "/soap"), checked first, then timed.
void gsoap_client_row(benchmark::State& state, const Family& family,
                      const std::function<std::string()>& url, const stacks::RoundTripCall& call,
                      bool keep_alive) {
  const Operation* op = find_operation(family.binding(), call.request.method);
  std::string endpoint;
  try {
    endpoint = url() + "/soap";
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  const int mode = keep_alive ? SOAP_IO_KEEPALIVE : SOAP_IO_DEFAULT;
  std::unique_ptr<soap, void (*)(soap*)> s(soap_new2(mode, mode), [](soap* c) {
    soap_destroy(c);
    soap_end(c);
    soap_free(c);
  });
  configure(s.get(), family);
  WireCount wire;
  count_wire(s.get(), wire);
  for (int i = 0; i < 2; ++i) {  // correctness first; also warms the connection
    std::string error;
    const rpc::Message m = call_once(s.get(), *op, endpoint, call, error);
    const std::string why = error.empty() ? stacks::exact_check(m, call.expected) : error;
    if (!why.empty()) {
      state.SkipWithError(why.c_str());
      return;
    }
  }
  stacks::Tally tally;
  for (auto _ : state) {
    wire.sent = wire.received = 0;
    std::string error;
    const auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(call_once(s.get(), *op, endpoint, call, error));
    tally.total_ns += static_cast<double>((std::chrono::steady_clock::now() - start).count());
    tally.sent += static_cast<double>(wire.sent);
    tally.received += static_cast<double>(wire.received);
  }
  tally.report(state);
}

// Rows for one family: gsoap, gsoap~soapbench, soapbench~gsoap (and the reference).
std::size_t register_family(const Corpus& corpus, const Family& family, const std::string& set) {
  const std::string name(family.name);
  const Corpus* c = &corpus;
  std::function<std::string()> peer = [c, name] {
    return peers::peer_url(peer_server("gsoap"),
                           {"--family", name, "--port", "0", "--corpus", c->dir().string()});
  };
  std::function<std::string()> ours = [c] { return stacks::soapbench_url(*c); };
  std::size_t n = 0;
  for (const stacks::RoundTripCall& call : stacks::roundtrip_calls(corpus, name)) {
    if (find_operation(family.binding(), call.request.method) == nullptr) continue;
    for (const stacks::Variant& v : stacks::variants(set)) {
      const bool ka = v.keep_alive;
      const Family* f = &family;
      n += stacks::register_row(v.name, name, "gsoap", call.name, [=, &call](benchmark::State& s) {
        gsoap_client_row(s, *f, peer, call, ka);
      });
      n += stacks::register_row(
          v.name, name, "gsoap~soapbench", call.name,
          [=, &call](benchmark::State& s) { gsoap_client_row(s, *f, ours, call, ka); });
    }
  }
  return n + stacks::register_soapbench_rows(corpus, name, "gsoap", set, peer, stacks::exact_check);
}

std::size_t register_gsoap_roundtrip(const Corpus& corpus, const std::string& set) {
  std::size_t n = 0;
  for (const Family& family : families()) n += register_family(corpus, family, set);
  return n;
}

const bool kRegistered = stacks::add_registrar(register_gsoap_roundtrip);

}  // namespace

}  // namespace sb::gsoap
