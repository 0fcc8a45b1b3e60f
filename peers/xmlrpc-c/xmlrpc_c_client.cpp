// xmlrpc_c_client: one XML-RPC call (or --repeat N) through xmlrpc-c's client on ONE persistent
// curl transport (keep-alive), printing the response's canonical JSON like `soapbench call`.
// ARGS are JSON values typed by the contract (harness/call_args.h), converted to xmlrpc-c values.
#include <xmlrpc-c/client.hpp>
#include <xmlrpc-c/client_transport.hpp>

#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "codecs/canonical_json.h"
#include "harness/call_args.h"
#include "peers/peer_cli.h"
#include "peers/xmlrpc-c/xmlrpc_c_check.h"
#include "peers/xmlrpc-c/xmlrpc_c_values.h"

namespace {

// Command-line settings.
struct Options {
  std::string url;                 // base URL (then /RPC2 is added) or the full endpoint URL
  std::string family = "xmlrpc";   // the family spoken: XML-RPC only (every peer client's option)
  int repeat = 1;                  // calls to make
  bool timing = false;             // a JSON timing line after each response
  unsigned timeout_ms = 30'000;    // per call
  std::size_t max_xml = 64 << 20;  // largest response document; xmlrpc-c: 512 KiB
  std::string method;              // operation name
};

// The endpoint: URL as given when it names a path, else URL + "/RPC2" (as `soapbench call`).
std::string endpoint(const std::string& url) {
  const std::size_t scheme = url.find("://");
  const std::size_t path = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  return path == std::string::npos ? url + "/RPC2" : url;
}

int run(const Options& o, const std::vector<std::string>& args) {
  std::string error;
  const std::vector<sb::rpc::Value> typed = sb::typed_call_params(o.method, args, error);
  if (!error.empty()) {
    std::fprintf(stderr, "xmlrpc_c_client: call %s: %s\n", o.method.c_str(), error.c_str());
    return 1;
  }
  xmlrpc_c::paramList params;
  for (const sb::rpc::Value& v : typed) params.add(sb::peers::to_xmlrpc_c(v));
  xmlrpc_limit_set(XMLRPC_XML_SIZE_LIMIT_ID, o.max_xml);
  // No proxy: the servers are local, whatever the environment says.
  xmlrpc_c::clientXmlTransport_curl transport(
      xmlrpc_c::clientXmlTransport_curl::constrOpt().timeout(o.timeout_ms).proxy(""));
  xmlrpc_c::client_xml client(&transport);
  xmlrpc_c::carriageParm_curl0 carriage(endpoint(o.url));
  int exit_code = 0;
  for (int i = 0; i < o.repeat; ++i) {
    const auto start = std::chrono::steady_clock::now();
    xmlrpc_c::rpcPtr call(o.method, params);
    call->call(&client, &carriage);
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    const sb::rpc::Message m = sb::peers::call_message(o.method, *call.operator->());
    std::printf("%s\n", sb::rpc::to_canonical_json(m).c_str());
    // xmlrpc-c's transport does not expose its socket: no wire byte counts.
    if (o.timing) std::printf("{\"timing\":{\"total_ns\":%lld},\"wire\":null}\n", (long long)ns);
    exit_code = m.kind == sb::rpc::MessageKind::fault ? 2 : 0;
  }
  std::fflush(stdout);
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  sb::peers::PeerCommandLine app(
      "xmlrpc_c_client: XML-RPC calls through xmlrpc-c's curl client; prints each "
      "response's canonical JSON: [OPTIONS] METHOD [ARGS...]");
  app.option("--url", o.url, "Server base URL (http://host:port) or endpoint URL").required();
  app.option("--family", o.family, "The family spoken: xmlrpc only").show_default();
  app.repeat_option(o.repeat);
  app.flag("--timing", o.timing, "After each response, a JSON line with the call's ns");
  app.option("--timeout-ms", o.timeout_ms, "Per-call timeout").show_default();
  app.option("--max-xml", o.max_xml, "Largest response document (xmlrpc-c: 512 KiB)")
      .show_default()
      .positive();
  app.call_arguments(o.method);
  if (const auto status = app.parse(argc, argv)) return *status;
  const auto args = app.arguments("xmlrpc_c_client");
  if (!args) return 1;
  if (o.family != "xmlrpc") {
    std::fprintf(stderr, "xmlrpc_c_client: --family %s: xmlrpc-c speaks xmlrpc only\n",
                 o.family.c_str());
    return 1;
  }
  try {
    return run(o, *args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "xmlrpc_c_client: call %s at %s: %s\n", o.method.c_str(), o.url.c_str(),
                 e.what());
    return 1;
  }
}
