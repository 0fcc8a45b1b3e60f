// gsoap_client: one call (or --repeat N) of the soapbench service through gSOAP's generated
// client stubs, printing the response as canonical JSON (docs/service.md) like `soapbench call`.
// docs/peers.md "gSOAP".
#include <fmt/core.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include "codecs/canonical_json.h"
#include "parsers/registry.h"
#include "peers/gsoap/context.h"
#include "peers/peer_cli.h"
#include "stdsoap2.h"

namespace {

using sb::rpc::Value;

// The params of METHOD typed by the contract, as `soapbench call` types them: ARGS (JSON
// values) spliced into a JSON-RPC call that the default JSON adapter decodes. Empty error on
// success.
std::vector<Value> typed_args(const std::string& method, const std::vector<std::string>& args,
                              std::string& error) {
  std::string call = "{\"jsonrpc\":\"2.0\",\"method\":";
  sb::rpc::append_json_string(call, method);
  call += ",\"params\":[";
  for (std::size_t i = 0; i < args.size(); ++i) call += (i == 0 ? "" : ",") + args[i];
  call += "],\"id\":1}";
  sb::MessageBuffer buffer(call);
  sb::rpc::Message m;
  sb::DecodeReport report;
  const sb::Status s = sb::make_adapter(sb::kDefaultJsonAdapter)
                           ->decode(buffer, sb::rpc::DecodeContext{}, m, report);
  if (!s.ok()) error = s.reason();
  return std::move(m.params);
}

// Client options.
struct Options {
  std::string url;                            // server base URL
  std::string family = "soap11-doc-literal";  // the SOAP family spoken
  int repeat = 1;                             // calls to make
  int timeout_ms = 0;                         // connect, send and receive bound; 0: gSOAP's (none)
  bool timing = false;                        // print a timing line per call
  std::string method;                         // operation name
  std::vector<std::string> args;              // params as JSON values
};

// Makes the calls; the exit status (0, 2 when the last answer was a fault, 1 on error).
int run(const Options& o, const sb::gsoap::Family& family) {
  const sb::gsoap::Operation* op = sb::gsoap::find_operation(family.binding(), o.method);
  std::string error;
  const std::vector<Value> params = typed_args(o.method, o.args, error);
  if (op == nullptr || !error.empty()) {
    fmt::print(stderr, "gsoap_client: call {}: {}\n", o.method,
               op == nullptr ? "not an operation of the contract" : error);
    return 1;
  }
  const std::string endpoint = o.url + "/soap";  // the path `soapbench serve` answers SOAP on
  soap* s = soap_new2(SOAP_IO_KEEPALIVE, SOAP_IO_KEEPALIVE);
  sb::gsoap::configure(s, family);
  if (o.timeout_ms > 0) {  // gSOAP reads a negative timeout as microseconds
    s->connect_timeout = s->send_timeout = s->recv_timeout = -o.timeout_ms * 1000;
  }
  sb::gsoap::WireCount wire;
  sb::gsoap::count_wire(s, wire);
  int status = 0;
  for (int i = 0; i < o.repeat && status != 1; ++i) {
    wire.sent = wire.received = 0;
    Value result;
    const auto start = std::chrono::steady_clock::now();
    const int e = op->call(s, endpoint.c_str(), params, result);
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    sb::rpc::Message m;
    if (e == SOAP_OK) {
      m.kind = sb::rpc::MessageKind::response;
      m.method = o.method;
      m.result = std::move(result);
    } else if (s->fault != nullptr &&
               (e == SOAP_FAULT || e == SOAP_CLI_FAULT || e == SOAP_SVR_FAULT)) {
      // SOAP 1.1 faults come back as SOAP_CLI_FAULT / SOAP_SVR_FAULT, SOAP 1.2 ones as SOAP_FAULT.
      m = sb::gsoap::fault_message(s);
    } else {
      fmt::print(stderr, "gsoap_client: call {} at {}: {}\n", o.method, endpoint,
                 sb::gsoap::error_text(s));
      status = 1;
      break;
    }
    fmt::print("{}\n", sb::rpc::to_canonical_json(m));
    if (o.timing) {
      fmt::print("{{\"timing\":{{\"total_ns\":{}}},\"wire\":{{\"sent\":{},\"received\":{}}}}}\n",
                 ns, wire.sent, wire.received);
    }
    status = m.kind == sb::rpc::MessageKind::fault ? 2 : 0;
    soap_destroy(s);
    soap_end(s);
  }
  std::fflush(stdout);
  soap_free(s);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  sb::peers::PeerCommandLine app(
      "gsoap_client: one call of the soapbench service through gSOAP; canonical JSON out");
  Options o;
  app.option("--url", o.url, "Server base URL, http://host:port (SOAP goes to URL/soap)")
      .required();
  app.option("--family", o.family, "SOAP family: " + sb::gsoap::family_names()).show_default();
  app.option("--repeat", o.repeat, "Make the call N times (one output line per call)")
      .range(1, 1'000'000)
      .show_default();
  app.option("--timeout-ms", o.timeout_ms, "Bound on connecting, sending and receiving (0: none)")
      .range(0, 600'000)
      .show_default();
  app.flag("--timing", o.timing,
           "After each response, a JSON line: total ns and the bytes sent and received at "
           "the socket");
  app.call_arguments(o.method);
  if (const auto status = app.parse(argc, argv)) return *status;
  auto args = app.arguments("gsoap_client");
  if (!args) return 1;
  o.args = std::move(*args);
  const sb::gsoap::Family* family = sb::gsoap::find_family(o.family);
  if (family == nullptr) {
    fmt::print(stderr, "gsoap_client: unknown --family {} ({})\n", o.family,
               sb::gsoap::family_names());
    return 1;
  }
  std::signal(SIGPIPE, SIG_IGN);
  return run(o, *family);
}
