// corba_client: one call (or --repeat N) of the soapbench service through omniORB's generated
// stubs on one connection, printing the response's canonical JSON like `soapbench call`
// (getChain: the passed-through document decoded). ARGS are JSON values typed by the contract
// (harness/call_args.h). docs/peers.md "omniORB (CORBA)".
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "codecs/canonical_json.h"
#include "harness/call_args.h"
#include "peers/corba/corba_call.h"
#include "peers/corba/corba_orb.h"
#include "peers/peer_cli.h"

namespace {

// Command-line settings.
struct Options {
  std::string url;      // corbaloc:iiop:1.2@HOST:PORT/soapbench or an IOR
  int repeat = 1;       // calls to make
  bool timing = false;  // a JSON timing line after each response
  std::string method;   // operation name
};

int run(const Options& o, const std::vector<std::string>& args) {
  std::string error;
  sb::rpc::Message request;
  request.method = o.method;
  request.params = sb::typed_call_params(o.method, args, error);
  if (!error.empty()) {
    std::fprintf(stderr, "corba_client: call %s: %s\n", o.method.c_str(), error.c_str());
    return 1;
  }
  CORBA::ORB_var orb = sb::corba::init_orb({});
  CORBA::Object_var obj = orb->string_to_object(o.url.c_str());
  soapbench::Service_var service = soapbench::Service::_narrow(obj);
  if (CORBA::is_nil(service)) throw std::runtime_error("not a soapbench::Service: " + o.url);
  int exit_code = 0;
  for (int i = 0; i < o.repeat; ++i) {
    const auto start = std::chrono::steady_clock::now();
    sb::rpc::Message m = sb::corba::call(service, request);
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    m = sb::corba::chain_message(std::move(m));
    std::printf("%s\n", sb::rpc::to_canonical_json(m).c_str());
    // The stubs do not expose their socket: no wire byte counts here (stacks_bench counts them).
    if (o.timing) std::printf("{\"timing\":{\"total_ns\":%lld},\"wire\":null}\n", (long long)ns);
    exit_code = m.kind == sb::rpc::MessageKind::fault ? 2 : 0;
  }
  std::fflush(stdout);
  orb->destroy();
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  sb::peers::PeerCommandLine app(
      "corba_client: calls through omniORB's stubs of soapbench.idl; prints each response's "
      "canonical JSON: [OPTIONS] METHOD [ARGS...]");
  app.option("--url", o.url, "The object: corbaloc:iiop:1.2@HOST:PORT/soapbench (or an IOR)")
      .required();
  app.repeat_option(o.repeat);
  app.flag("--timing", o.timing, "After each response, a JSON line with the call's ns");
  app.call_arguments(o.method);
  if (const auto status = app.parse(argc, argv)) return *status;
  const auto args = app.arguments("corba_client");
  if (!args) return 1;
  try {
    return run(o, *args);
  } catch (const CORBA::Exception& e) {
    std::fprintf(stderr, "corba_client: call %s at %s: CORBA exception %s\n", o.method.c_str(),
                 o.url.c_str(), e._name());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "corba_client: call %s at %s: %s\n", o.method.c_str(), o.url.c_str(),
                 e.what());
  }
  return 1;
}
