// grpc_client: one gRPC call (or --repeat N) through the generated stub on ONE channel (one
// HTTP/2 connection), printing the answer's canonical JSON like `soapbench call`; a fault (a
// status carrying a soapbench.v1.Fault) prints as a fault message and exits 2. ARGS are JSON values
// typed by the contract (harness/call_args.h). With --timing, a JSON line after each answer: the
// call's ns and the connection's bytes both ways, counted by the kernel (socket_counts.h).
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "codecs/canonical_json.h"
#include "harness/call_args.h"
#include "peers/grpc/grpc_client_stub.h"
#include "peers/grpc/socket_counts.h"
#include "peers/peer_cli.h"

namespace {

// Command-line settings.
struct Options {
  std::string url;             // host:port or http://host:port
  int repeat = 1;              // calls to make
  bool timing = false;         // a JSON timing line after each answer
  int max_message = 64 << 20;  // largest message either way; gRPC's receive limit: 4 MiB
  std::string method;          // operation name
};

// The connection's counts (zero before it exists: the first call opens it).
sb::peers::SocketCounts counts(const std::string& target) {
  const std::vector<int> fds = sb::peers::sockets_to(target);
  if (fds.size() != 1) return {};
  return sb::peers::socket_counts(fds.front()).value_or(sb::peers::SocketCounts{});
}

int run(const Options& o, const std::vector<std::string>& args) {
  std::string error;
  sb::rpc::Message request;
  request.method = o.method;
  request.params = sb::typed_call_params(o.method, args, error);
  if (!error.empty()) {
    std::fprintf(stderr, "grpc_client: call %s: %s\n", o.method.c_str(), error.c_str());
    return 1;
  }
  const std::string target = sb::peers::grpc_target(o.url);
  sb::peers::GrpcClient client(target, o.max_message);
  sb::peers::PreparedCall call = sb::peers::GrpcClient::prepare(request);
  int exit_code = 0;
  for (int i = 0; i < o.repeat; ++i) {
    const sb::peers::SocketCounts before = counts(target);
    const auto start = std::chrono::steady_clock::now();
    const grpc::Status status = client.invoke(call);
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    const sb::peers::SocketCounts after = counts(target);
    const sb::rpc::Message m = sb::peers::GrpcClient::answer(call, status);
    std::printf("%s\n", sb::rpc::to_canonical_json(m).c_str());
    if (o.timing) {
      std::printf("{\"timing\":{\"total_ns\":%lld},\"wire\":{\"sent\":%llu,\"received\":%llu}}\n",
                  static_cast<long long>(ns),
                  static_cast<unsigned long long>(after.sent - before.sent),
                  static_cast<unsigned long long>(after.received - before.received));
    }
    exit_code = m.kind == sb::rpc::MessageKind::fault ? 2 : 0;
  }
  std::fflush(stdout);
  return exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  sb::peers::PeerCommandLine app(
      "grpc_client: the soapbench service's RPCs through gRPC's generated stub; prints each "
      "answer's canonical JSON: [OPTIONS] METHOD [ARGS...]");
  app.option("--url", o.url, "Server address: host:port or http://host:port").required();
  app.repeat_option(o.repeat);
  app.flag("--timing", o.timing,
           "After each answer, a JSON line with the call's ns and the connection's bytes");
  app.option("--max-message", o.max_message,
             "Largest message either way (gRPC's default receive limit: 4 MiB)")
      .show_default()
      .positive();
  app.call_arguments(o.method);
  if (const auto status = app.parse(argc, argv)) return *status;
  const auto args = app.arguments("grpc_client");
  if (!args) return 1;
  try {
    return run(o, *args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "grpc_client: call %s at %s: %s\n", o.method.c_str(), o.url.c_str(),
                 e.what());
    return 1;
  }
}
