// roundtrip/<variant>/<family>/soapbench~<server>/<call> for the scripting stacks (docs/peers.md
// "Scripting stacks"), in stacks_bench's own set `--set=scripting`: our client (default adapter)
// against every built peer without a client of its own (the peer list, in its order: SOAP::Lite,
// which keeps the connection: keepalive; Frontier::RPC and Python's xmlrpc.server, which close
// after each response (their declared CLOSES), so the row makes a new connection per call:
// newconn), on the scripting comparison's three queries
// add, echoArray and getChain. Each run of a row starts its own server with --stats, checks the
// answer twice, times the calls, stops the server by PID and reads the server's own split of the
// timed calls: server_handling_ns (parse, dispatch, encode) and server_send_ns (writing the
// response), per call, beside total_ns and the bytes our client counted at its socket.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "client/http_client.h"
#include "harness/answer_check.h"
#include "harness/peer_list.h"
#include "harness/peer_process.h"
#include "harness/roundtrip_calls.h"
#include "peers/stacks_bench.h"
#include "peers/stacks_roundtrip.h"

namespace sb::scripting {

namespace {

// One scripting server.
struct Server {
  std::string name;    // the row's server name
  std::string script;  // its program
  std::string family;  // the family it speaks
  bool keep_alive;     // it keeps a connection open between calls
};

// The built peers that are servers only, each in its first family.
std::vector<Server> servers() {
  std::vector<Server> out;
  for (const Peer& p : peer_list()) {
    if (!p.has_client && p.built && rpc::family_from_name(p.families.front()))
      out.push_back({p.name, p.server, p.families.front(), p.closes.empty()});
  }
  return out;
}

// The scripting comparison's queries: add two integers, an array of the two arguments, and the
// pre-serialized getChain document passed through.
constexpr const char* kQueries[] = {"add", "echoArray", "getChain"};

// Calls made before the timed ones (the answer checks).
constexpr std::size_t kChecks = 2;

// A query and its correct answer in one family.
struct Query {
  std::string name;       // the operation
  rpc::Message request;   // the corpus's JSON-RPC call, decoded
  rpc::Message expected;  // the contract's answer (getChain: the family's corpus response)
};

// The server's split of the calls after the first `skip`: sums, and how many calls.
struct Split {
  double handling_ns = 0;  // parse + dispatch + encode
  double send_ns = 0;      // writing the response
  std::size_t calls = 0;   // timed calls the server recorded
};

// Reads a --stats file (one "HANDLING_NS SEND_NS" line per call).
Split read_split(const std::filesystem::path& file, std::size_t skip) {
  std::ifstream in(file);
  Split s;
  double handling = 0;
  double send = 0;
  for (std::size_t i = 0; in >> handling >> send; ++i) {
    if (i < skip) continue;
    s.handling_ns += handling;
    s.send_ns += send;
    ++s.calls;
  }
  return s;
}

// A fresh --stats file name for one run of a row.
std::filesystem::path stats_file() {
  static std::atomic<int> n{0};
  return std::filesystem::temp_directory_path() /
         ("soapbench-scripting-" + std::to_string(getpid()) + "-" + std::to_string(n++) + ".stats");
}

// Our client against a new `server` process: checked, timed, then the server's split read.
void scripting_row(benchmark::State& state, const Corpus& corpus, const Server& server,
                   const Query& q) {
  const std::filesystem::path stats = stats_file();
  std::optional<peers::PeerProcess> process;
  try {
    process.emplace(server.script,
                    std::vector<std::string>{"--port", "0", "--corpus", corpus.dir().string(),
                                             "--stats", stats.string()});
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  ClientConfig cfg;
  cfg.url = process->url();
  cfg.family = *rpc::family_from_name(server.family);
  cfg.keep_alive = server.keep_alive;
  RpcClient client(cfg);
  for (std::size_t i = 0; i < kChecks; ++i) {  // correctness first; also warms the server
    const CallResult r = client.call(q.request);
    const std::string why = r.ok ? exact_check(r.response, q.expected) : "call failed: " + r.error;
    if (!why.empty()) {
      state.SkipWithError((server.name + ": " + why).c_str());
      return;
    }
  }
  stacks::Tally tally;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    CallResult r = client.call(q.request);
    tally.total_ns += static_cast<double>((std::chrono::steady_clock::now() - start).count());
    tally.sent += static_cast<double>(r.wire.sent);
    tally.received += static_cast<double>(r.wire.received);
    benchmark::DoNotOptimize(r);
  }
  process->stop();  // SIGTERM: the server writes its split
  const Split split = read_split(stats, kChecks);
  std::filesystem::remove(stats);
  tally.report(state);
  if (split.calls == 0) return;  // no split (the server wrote none): no server counters
  state.counters["server_handling_ns"] = split.handling_ns / static_cast<double>(split.calls);
  state.counters["server_send_ns"] = split.send_ns / static_cast<double>(split.calls);
}

std::size_t register_scripting(const Corpus& corpus, const std::string& /*set*/) {
  static const std::vector<Server> scripting = servers();  // kept for the run (rows refer to them)
  static std::vector<Query> queries;  // per family, kept for the run (rows refer to them)
  queries.reserve(scripting.size() * std::size(kQueries));
  std::size_t n = 0;
  for (const Server& server : scripting) {
    for (const char* name : kQueries) {
      std::optional<rpc::Message> request =
          request_from_corpus(corpus, std::string(name) + ".call");
      std::optional<rpc::Message> expected;
      if (request) expected = expected_answer(corpus, server.family, *request);
      if (!request || !expected) {
        std::fprintf(stderr, "stacks_bench: no scripting query %s (corpus files missing)\n", name);
        continue;
      }
      const Query* q =
          &queries.emplace_back(Query{name, std::move(*request), std::move(*expected)});
      const Corpus* c = &corpus;
      const Server* s = &server;
      n += stacks::register_row(server.keep_alive ? "keepalive" : "newconn", server.family,
                                "soapbench~" + server.name, name,
                                [c, s, q](benchmark::State& st) { scripting_row(st, *c, *s, *q); });
    }
  }
  return n;
}

[[maybe_unused]] const bool registered = stacks::add_set_registrar("scripting", register_scripting);

}  // namespace

}  // namespace sb::scripting
