// roundtrip/<variant>/grpc/grpc/<call> and messaging/grpc/<call>/iterations:5000: gRPC's
// generated stub (grpc_client_stub.h) in this process against grpc_server, a child process, on
// one channel (keepalive: one HTTP/2 connection; newconn, --set=full: a new channel, so a new
// connection, per call). Answers are checked first against the contract (sb::Service; getChain
// the JSON-RPC corpus response). The timed call ends with the stub's typed reply, not converted
// to the suite's values (that conversion is this suite's, not the stack's). bytes_sent and
// bytes_received are the kernel's counts of the client's connection (socket_counts.h: HTTP/2
// frames included), read before and after the timed calls and averaged; newconn: each new
// connection's counts up to its answer, read with the timer paused.
#include <benchmark/benchmark.h>

#include <chrono>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "harness/answer_check.h"
#include "harness/peer_list.h"
#include "harness/peer_process.h"
#include "harness/roundtrip_calls.h"
#include "peers/grpc/grpc_client_stub.h"
#include "peers/grpc/grpc_values.h"
#include "peers/grpc/socket_counts.h"
#include "peers/stacks_bench.h"
#include "peers/stacks_roundtrip.h"

namespace sb::peers {

namespace {

constexpr int kMaxMessage = 64 << 20;  // as grpc_server's default

// The client's connection to `target`: of this process's sockets to it, the one whose received
// bytes grow over one more call; -1 when not exactly one does.
int client_socket(GrpcClient& client, PreparedCall& call, const std::string& target) {
  const std::vector<int> fds = sockets_to(target);
  std::vector<std::uint64_t> before;
  for (int fd : fds) before.push_back(socket_counts(fd).value_or(SocketCounts{}).received);
  client.invoke(call);
  int found = -1;
  for (std::size_t i = 0; i < fds.size(); ++i) {
    if (socket_counts(fds[i]).value_or(SocketCounts{}).received == before[i]) continue;
    if (found >= 0) return -1;
    found = fds[i];
  }
  return found;
}

// "" when the client answers `call` as expected (twice: also warms the connection).
std::string check_answers(GrpcClient& client, PreparedCall& prepared,
                          const stacks::RoundTripCall& call) {
  for (int i = 0; i < 2; ++i) {
    const std::string why =
        exact_check(GrpcClient::answer(prepared, client.invoke(prepared)), call.expected);
    if (!why.empty()) return why;
  }
  return "";
}

// Whether a timed call succeeded (the calls were checked first: a failure now is the server's or
// the connection's); else the row is an error.
bool ok(benchmark::State& state, const grpc::Status& status) {
  if (status.ok()) return true;
  state.SkipWithError(
      ("gRPC status " + std::to_string(status.error_code()) + ": " + status.error_message())
          .c_str());
  return false;
}

// Timed calls on `client`'s one connection, its bytes read before and after them.
void keepalive_calls(benchmark::State& state, GrpcClient& client, PreparedCall& prepared,
                     const std::string& target, stacks::Tally& tally) {
  const int fd = client_socket(client, prepared, target);
  const std::optional<SocketCounts> before = socket_counts(fd);
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    const grpc::Status status = client.invoke(prepared);
    tally.total_ns += static_cast<double>((std::chrono::steady_clock::now() - start).count());
    if (!ok(state, status)) return;
  }
  const std::optional<SocketCounts> after = socket_counts(fd);
  tally.wire = before && after;
  if (!tally.wire) return;
  tally.sent = static_cast<double>(after->sent - before->sent);
  tally.received = static_cast<double>(after->received - before->received);
}

// The local ports of this process's connections to `target`.
std::set<std::uint16_t> local_ports(const std::string& target) {
  std::set<std::uint16_t> ports;
  for (int fd : sockets_to(target)) ports.insert(local_port(fd));
  return ports;
}

// The counts of the one connection to `target` whose local port is not in `old`.
std::optional<SocketCounts> new_connection_counts(const std::string& target,
                                                  const std::set<std::uint16_t>& old) {
  std::optional<SocketCounts> found;
  for (int fd : sockets_to(target)) {
    if (old.contains(local_port(fd))) continue;
    if (found) return std::nullopt;
    found = socket_counts(fd);
  }
  return found;
}

// Timed calls each on a new channel (a new connection); each connection's bytes up to its answer
// (its preface and SETTINGS included) are read with the timer paused.
void newconn_calls(benchmark::State& state, std::unique_ptr<GrpcClient>& client,
                   PreparedCall& prepared, const std::string& target, stacks::Tally& tally) {
  for (auto _ : state) {
    state.PauseTiming();
    const std::set<std::uint16_t> old = local_ports(target);
    state.ResumeTiming();
    const auto start = std::chrono::steady_clock::now();
    client = std::make_unique<GrpcClient>(target, kMaxMessage);
    const grpc::Status status = client->invoke(prepared);
    tally.total_ns += static_cast<double>((std::chrono::steady_clock::now() - start).count());
    if (!ok(state, status)) return;
    state.PauseTiming();
    const std::optional<SocketCounts> c = new_connection_counts(target, old);
    tally.wire = tally.wire && c.has_value();
    if (c) tally.sent += static_cast<double>(c->sent);
    if (c) tally.received += static_cast<double>(c->received);
    state.ResumeTiming();
  }
}

void grpc_row(benchmark::State& state, const std::function<std::string()>& url,
              const stacks::RoundTripCall& call, bool keep_alive) {
  try {
    const std::string target = grpc_target(url());
    auto client = std::make_unique<GrpcClient>(target, kMaxMessage);
    PreparedCall prepared = GrpcClient::prepare(call.request);
    if (const std::string why = check_answers(*client, prepared, call); !why.empty()) {
      state.SkipWithError(why.c_str());
      return;
    }
    stacks::Tally tally;
    if (keep_alive) {
      keepalive_calls(state, *client, prepared, target, tally);
    } else {
      newconn_calls(state, client, prepared, target, tally);
    }
    tally.report(state);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

// The messaging calls with their expected answers.
const std::vector<stacks::RoundTripCall>& messaging_calls(const Corpus& corpus) {
  static std::vector<stacks::RoundTripCall> calls;
  if (!calls.empty()) return calls;
  for (const auto& [name, stem] : sb::messaging_calls()) {
    std::optional<rpc::Message> request = request_from_corpus(corpus, stem);
    std::optional<rpc::Message> expected;
    if (request) expected = expected_answer(corpus, "jsonrpc", *request);
    if (request && expected) calls.push_back({name, std::move(*request), std::move(*expected)});
  }
  return calls;
}

std::size_t register_grpc_roundtrip(const Corpus& corpus, const std::string& set) {
  const Corpus* c = &corpus;
  std::function<std::string()> server = [c] {
    return peer_url(peer_server("grpc"), {"--port", "0", "--corpus", c->dir().string()});
  };
  std::size_t n = 0;
  // The contract's answers are JSON-RPC's: gRPC has no corpus family of its own.
  for (const stacks::RoundTripCall& call : stacks::roundtrip_calls(corpus, "jsonrpc")) {
    for (const stacks::Variant& v : stacks::variants(set)) {
      const bool ka = v.keep_alive;
      n += stacks::register_row(v.name, "grpc", "grpc", call.name,
                                [=, &call](benchmark::State& s) { grpc_row(s, server, call, ka); });
    }
  }
  for (const stacks::RoundTripCall& call : messaging_calls(corpus)) {
    benchmark::RegisterBenchmark(
        ("messaging/grpc/" + call.name).c_str(),
        [=, &call](benchmark::State& s) { grpc_row(s, server, call, true); })
        ->Iterations(5000)
        ->Unit(benchmark::kMicrosecond);
    ++n;
  }
  return n;
}

[[maybe_unused]] const bool registered = stacks::add_registrar(register_grpc_roundtrip);

}  // namespace

}  // namespace sb::peers
