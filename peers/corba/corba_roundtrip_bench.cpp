// stacks_bench's omniORB rows: roundtrip/keepalive/corba/corba/<call> for the default calls and
// messaging/corba/<call>/iterations:5000 for the classic messaging table, omniORB's stubs in this
// process against corba_server (a child process started by path, stopped by PID). Each row
// checks its answer against the contract first (getChain: the passed-through document decoded).
// Bytes are the GIOP bytes at the socket: the kernel's TCP_INFO counters (client/wire_meter.h)
// of the one connection this process holds to the server, read before and after the timed loop.
// No newconn rows: omniORB keeps its connections to a server for every object reference and
// offers no per-call close (only an idle scan, in seconds).
#include <arpa/inet.h>
#include <benchmark/benchmark.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <chrono>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include "client/wire_meter.h"
#include "harness/answer_check.h"
#include "harness/peer_list.h"
#include "harness/peer_process.h"
#include "harness/roundtrip_calls.h"
#include "peers/corba/corba_call.h"
#include "peers/corba/corba_orb.h"
#include "peers/stacks_bench.h"
#include "peers/stacks_roundtrip.h"

namespace sb::corba {

namespace {

// The object at `url`, its reference made once per URL on this process's ORB.
soapbench::Service_ptr service_at(const std::string& url) {
  static CORBA::ORB_var orb = init_orb({});
  static std::map<std::string, soapbench::Service_var> services;
  soapbench::Service_var& s = services[url];
  if (CORBA::is_nil(s)) {
    CORBA::Object_var obj = orb->string_to_object(url.c_str());
    s = soapbench::Service::_narrow(obj);
    if (CORBA::is_nil(s)) throw std::runtime_error("not a soapbench::Service: " + url);
  }
  return s.in();
}

// The one socket of this process connected to `port` on the loopback, or -1 (none, or more
// than one: the bytes would not be one connection's).
int connection_to(unsigned port) {
  int found = -1;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    const int fd = std::atoi(entry.path().filename().c_str());
    sockaddr_storage peer{};
    socklen_t len = sizeof peer;
    if (getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &len) != 0) continue;
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(&peer);
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&peer);
    const unsigned p = ntohs(peer.ss_family == AF_INET6 ? v6->sin6_port : v4->sin_port);
    if ((peer.ss_family != AF_INET && peer.ss_family != AF_INET6) || p != port) continue;
    if (found >= 0) return -1;
    found = fd;
  }
  return found;
}

// Calls `request` on the server at url() and times it, the answer checked twice first.
void corba_row(benchmark::State& state, const std::function<std::string()>& url,
               const rpc::Message& request, const rpc::Message& expected) {
  try {
    const std::string u = url();
    soapbench::Service_ptr service = service_at(u);
    for (int i = 0; i < 2; ++i) {  // correctness first; also opens the connection
      const std::string why = exact_check(chain_message(call(service, request)), expected);
      if (!why.empty()) {
        state.SkipWithError(why.c_str());
        return;
      }
    }
    const int fd = connection_to(corbaloc_port(u));
    const std::optional<SocketBytes> before = read_socket_bytes(fd);
    stacks::Tally tally;
    for (auto _ : state) {
      const auto start = std::chrono::steady_clock::now();
      benchmark::DoNotOptimize(call(service, request));
      tally.total_ns += static_cast<double>((std::chrono::steady_clock::now() - start).count());
    }
    const std::optional<SocketBytes> after = read_socket_bytes(fd);
    tally.wire = before && after && connection_to(corbaloc_port(u)) == fd;
    if (tally.wire) {
      tally.sent = static_cast<double>(after->sent - before->sent);
      tally.received = static_cast<double>(after->received - before->received);
    }
    tally.report(state);
  } catch (const CORBA::Exception& e) {
    state.SkipWithError((std::string("CORBA exception ") + e._name()).c_str());
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

std::size_t register_corba(const Corpus& corpus, const std::string&) {
  const Corpus* c = &corpus;
  std::function<std::string()> server = [c] {
    return peers::peer_url(peer_server("corba"), {"--port", "0", "--corpus", c->dir().string()});
  };
  std::size_t n = 0;
  // The requests and answers every family shares; getChain's is the JSON-RPC corpus response,
  // the document corba_server passes through.
  for (const stacks::RoundTripCall& call : stacks::roundtrip_calls(corpus, "jsonrpc")) {
    n += stacks::register_row(
        "keepalive", "corba", "corba", call.name,
        [=, &call](benchmark::State& s) { corba_row(s, server, call.request, call.expected); });
  }
  for (const auto& [name, stem] : sb::messaging_calls()) {
    std::optional<rpc::Message> request = request_from_corpus(corpus, stem);
    std::optional<rpc::Message> expected;
    if (request) expected = expected_answer(corpus, "jsonrpc", *request);
    if (!request || !expected) {
      std::fprintf(stderr, "stacks_bench: no messaging/corba/%s (corpus file missing)\n",
                   name.c_str());
      continue;
    }
    benchmark::RegisterBenchmark(
        ("messaging/corba/" + name).c_str(),
        [=](benchmark::State& s) { corba_row(s, server, *request, *expected); })
        ->Iterations(5000)
        ->Unit(benchmark::kMicrosecond);
    ++n;
  }
  return n;
}

[[maybe_unused]] const bool registered = stacks::add_registrar(register_corba);

}  // namespace

}  // namespace sb::corba
