// grpc_server: the service contract's operations as gRPC's generated synchronous service
// (soapbench.proto, grpc_service.h) on cleartext HTTP/2, until SIGINT or SIGTERM. Prints
// "grpc_server: serving http://ADDRESS:PORT (...)" once it accepts connections (the port it got
// when --port is 0). docs/peers.md "gRPC".
#include <grpcpp/grpcpp.h>
#include <grpcpp/resource_quota.h>

#include <csignal>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>

#include "harness/answer_check.h"
#include "harness/corpus.h"
#include "peers/grpc/grpc_service.h"
#include "peers/grpc/grpc_values.h"
#include "peers/peer_cli.h"
#include "peers/stop_signals.h"

namespace {

// Command-line settings; the defaults are the peer's documented settings (docs/peers.md).
struct Options {
  std::string address = "127.0.0.1";  // listen address (IPv4 or IPv6 literal)
  unsigned port = 0;                  // 0: any free port
  int threads = 2;                    // the sync server's most polling threads (--help)
  int max_threads = 0;                // ResourceQuota max threads; 0: none (gRPC's default)
  int max_message = 64 << 20;         // largest message either way; gRPC's receive limit: 4 MiB
  std::string corpus;                 // getChain's document (empty: the default corpus)
};

// getChain's answer: the corpus's JSON-RPC getChain response, checked against the manifest; none
// (then getChain answers a fault, said on stderr) when it is missing.
std::optional<sb::rpc::Value> chain(const Options& o) {
  try {
    const sb::Corpus corpus = sb::Corpus::load(o.corpus.empty() ? sb::default_corpus_dir()
                                                                : std::filesystem::path(o.corpus));
    sb::rpc::Message call;
    call.method = "getChain";
    if (std::optional<sb::rpc::Message> m = sb::expected_answer(corpus, "jsonrpc", call)) {
      return m->result;
    }
    std::fprintf(stderr,
                 "grpc_server: no getChain response in the corpus; getChain answers a fault\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "grpc_server: %s; getChain answers a fault\n", e.what());
  }
  return std::nullopt;
}

// Serves until SIGINT or SIGTERM (blocked in every thread, taken by sigwait here).
int serve(const Options& o) {
  if (const std::string why = sb::peers::check_proto_contract(); !why.empty()) {
    std::fprintf(stderr, "grpc_server: soapbench.proto differs from the contract: %s\n",
                 why.c_str());
    return 1;
  }
  const sigset_t stop = sb::peers::block_stop_signals();
  sb::peers::GrpcService service(chain(o));
  grpc::ServerBuilder builder;
  const std::string host =
      o.address.find(':') != std::string::npos ? "[" + o.address + "]" : o.address;
  int port = 0;
  builder.AddListeningPort(host + ":" + std::to_string(o.port), grpc::InsecureServerCredentials(),
                           &port);
  builder.RegisterService(&service);
  builder.SetMaxReceiveMessageSize(o.max_message);
  builder.SetMaxSendMessageSize(o.max_message);
  // One completion queue; a thread that takes a call starts another poller first when none is
  // left (MIN_POLLERS 1), and after the handler polls again unless MAX_POLLERS already do.
  builder.SetSyncServerOption(grpc::ServerBuilder::NUM_CQS, 1);
  builder.SetSyncServerOption(grpc::ServerBuilder::MIN_POLLERS, 1);
  builder.SetSyncServerOption(grpc::ServerBuilder::MAX_POLLERS, o.threads);
  if (o.max_threads > 0) {
    grpc::ResourceQuota quota("grpc_server");
    quota.SetMaxThreads(o.max_threads);
    builder.SetResourceQuota(quota);
  }
  const std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || port == 0) {
    std::fprintf(stderr, "grpc_server: cannot listen on %s:%u\n", o.address.c_str(), o.port);
    return 1;
  }
  std::printf("grpc_server: serving http://%s:%d (gRPC %s, synchronous server, %d pollers)\n",
              host.c_str(), port, grpc::Version().c_str(), o.threads);
  std::fflush(stdout);
  sb::peers::wait_for_stop(stop);
  server->Shutdown();
  server->Wait();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  sb::peers::PeerCommandLine app(
      "grpc_server: the soapbench service's operations as gRPC unary RPCs (soapbench.proto, "
      "service soapbench.v1.SoapBench) on cleartext HTTP/2");
  app.listen_options(o.address, o.port);
  app.option("--threads", o.threads,
             "Most threads polling for calls (MAX_POLLERS; MIN_POLLERS is 1). A thread that "
             "takes a call hands polling to another first, so one connection keeps 2 threads "
             "busy; with 1, a thread is started and ends for every call")
      .show_default()
      .range(1, 1024);
  app.option("--max-threads", o.max_threads,
             "ResourceQuota max threads (0: no quota). A quota makes a call that finds no "
             "spare thread fail with RESOURCE_EXHAUSTED, even at 1 connection")
      .show_default()
      .range(0, 1024);
  app.option("--max-message", o.max_message,
             "Largest message either way (gRPC's default receive limit: 4 MiB)")
      .show_default()
      .positive();
  app.option("--corpus", o.corpus, "Corpus directory holding the getChain document")
      .existing_directory();
  if (const auto status = app.parse(argc, argv)) return *status;
  try {
    return serve(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "grpc_server: %s\n", e.what());
    return 1;
  }
}
