// soapbench interop: the interop matrix (docs/peers.md). Every client stack against every server
// stack that speaks the family, itself included, for every operation of the contract, each answer
// checked against the contract's (harness/answer_check.h); one malformed request per server, which
// must get that stack's fault. The stacks are soapbench and the peers the build declares
// (harness/peer_list.h: what each speaks, serves and takes on its command line); servers and peer
// clients are child processes started by path (harness/peer_process.h); our client runs
// in-process. Peers default to this build's programs.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/commands.h"
#include "client/interop.h"
#include "codecs/canonical_json.h"
#include "harness/answer_check.h"
#include "harness/peer_list.h"
#include "harness/peer_process.h"
#include "harness/run_context.h"

namespace sb::cli {

namespace {

using std::chrono::milliseconds;

// Our stack's name in the matrix (client, server and reference).
constexpr const char* kOurs = "soapbench";

// The programs the matrix runs; empty: that peer is not built (its cells are "off").
struct Programs {
  std::string soapbench_server;                // `soapbench serve` (default: this executable)
  std::map<std::string, std::string> servers;  // a peer's server program, by peer name
  std::map<std::string, std::string> clients;  // a peer's client program (peers with one)
};

// The declared peers that speak at least one of the matrix's families, in declaration order.
std::vector<const Peer*> interop_peers() {
  std::vector<const Peer*> out;
  for (const Peer& p : peer_list()) {
    if (std::ranges::any_of(
            p.families, [](const std::string& f) { return rpc::family_from_name(f).has_value(); }))
      out.push_back(&p);
  }
  return out;
}

// This build's programs (the peer list's).
Programs built_programs() {
  Programs p;
  p.soapbench_server = std::filesystem::read_symlink("/proc/self/exe").string();
  for (const Peer* peer : interop_peers()) {
    p.servers[peer->name] = peer->server;
    if (peer->has_client) p.clients[peer->name] = peer->client;
  }
  return p;
}

// The declared peer `stack`, or nullptr for ours.
const Peer* peer_of(const std::string& stack) {
  return stack == kOurs ? nullptr : find_peer(stack);
}

// One cell of the matrix (the JSON's "cells").
struct Cell {
  std::string client;     // client stack, or "malformed" for the malformed-request cell
  std::string server;     // server stack
  std::string family;     // codecs/family.h name
  std::string operation;  // the call, "*" for a whole off pair
  std::string status;     // ok | fail | off | fault-ok
  std::string detail;     // why, or what was received
};

// The client stacks that speak `f`, in matrix order: ours, then the peers with a client of
// their own, in declaration order.
std::vector<std::string> clients_of(rpc::Family f) {
  std::vector<std::string> out{kOurs};
  for (const Peer* p : interop_peers()) {
    if (p->has_client && p->speaks(rpc::family_name(f))) out.push_back(p->name);
  }
  return out;
}

// The server stacks that speak `f`: the clients' stacks, then the peers that are servers only
// (docs/peers.md "Scripting stacks").
std::vector<std::string> servers_of(rpc::Family f) {
  std::vector<std::string> out = clients_of(f);
  for (const Peer* p : interop_peers()) {
    if (!p->has_client && p->speaks(rpc::family_name(f))) out.push_back(p->name);
  }
  return out;
}

// The client → server pairs of `f` with no common protocol: a client that does not speak `f`
// shown against the servers its declaration names (NO_COMMON_PROTOCOL) that do.
std::vector<std::pair<std::string, std::string>> unmet_pairs(rpc::Family f) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::string_view family = rpc::family_name(f);
  for (const Peer* p : interop_peers()) {
    if (!p->has_client || p->speaks(family)) continue;
    for (const std::string& other : p->no_common_protocol) {
      const Peer* server = find_peer(other);
      if (server != nullptr && server->speaks(family)) out.emplace_back(p->name, other);
    }
  }
  return out;
}

// Why `server` leaves `operation` out, or "" when it serves it (ours serves every operation).
std::string not_served(const std::string& server, const std::string& operation) {
  const Peer* p = peer_of(server);
  return p == nullptr ? "" : p->not_served(operation);
}

// A server stack that serves one family per process (started with --family).
bool one_family_per_server(const std::string& stack) {
  const Peer* p = peer_of(stack);
  return p != nullptr && p->one_family;
}

// A client stack that takes a pair's every call in one run (`--then` between calls): a JVM
// client starts in about a second, too slow to start once per cell.
bool batch_client(const std::string& stack) {
  const Peer* p = peer_of(stack);
  return p != nullptr && p->batch_client;
}

// The doubles' drift a stack's answers may have (its declared DRIFT_ULPS; ours: none).
std::uint64_t drift_ulps(const std::string& stack) {
  const Peer* p = peer_of(stack);
  return p == nullptr ? 0 : p->drift_ulps;
}

// The interop run: servers kept per (stack, family), the cells found so far.
class Matrix {
 public:
  Matrix(Programs programs, milliseconds timeout, bool representative)
      : programs_(std::move(programs)),
        timeout_(timeout),
        corpus_(Corpus::load(default_corpus_dir())),
        calls_(interop::calls(corpus_, representative)) {}

  // Runs every cell of family `f`.
  void run_family(rpc::Family f);

  // Every cell, in run order.
  const std::vector<Cell>& cells() const { return cells_; }

 private:
  // The server `stack` serving `family`: started on first use; nullptr (and `error`) when not.
  const peers::PeerProcess* server(const std::string& stack, const std::string& family,
                                   std::string& error);
  // The client stack's answer to `call` at `url`.
  std::string answer(const std::string& client, const std::string& url, rpc::Family f,
                     const interop::Call& call, std::string& error);
  // A batch client's answers to `calls` at `url`, one per call ("" where none, `error` why).
  std::vector<std::string> batch_answers(const std::string& client, const std::string& url,
                                         rpc::Family f,
                                         const std::vector<const interop::Call*>& calls,
                                         std::string& error);
  // The path of `stack`'s client or server program ("" when not built).
  const std::string& program(const std::string& stack, bool server) const;
  // Every call of one client → server pair.
  void run_pair(const std::string& client, const std::string& server, rpc::Family f);

  Programs programs_;                                              // what runs
  milliseconds timeout_;                                           // per call and start
  Corpus corpus_;                                                  // the calls' source
  std::vector<interop::Call> calls_;                               // one per operation
  std::map<std::string, std::unique_ptr<peers::PeerProcess>> up_;  // "stack family" → server
  std::vector<Cell> cells_;                                        // the results
};

const std::string& Matrix::program(const std::string& stack, bool server) const {
  static const std::string none;  // our client runs in-process; a server-only peer has none
  if (stack == kOurs) return server ? programs_.soapbench_server : none;
  const auto& programs = server ? programs_.servers : programs_.clients;
  const auto it = programs.find(stack);
  return it == programs.end() ? none : it->second;
}

const peers::PeerProcess* Matrix::server(const std::string& stack, const std::string& family,
                                         std::string& error) {
  // soapbench serves every family on one port; a ONE_FAMILY peer one family per server.
  const std::string key = one_family_per_server(stack) ? stack + " " + family : stack;
  std::unique_ptr<peers::PeerProcess>& p = up_[key];
  if (p) return p.get();
  std::vector<std::string> args{"--address", "127.0.0.1", "--port",
                                "0",         "--corpus",  corpus_.dir().string()};
  if (stack == kOurs) args.insert(args.begin(), "serve");
  if (one_family_per_server(stack)) args.insert(args.begin(), {"--family", family});
  try {
    p = std::make_unique<peers::PeerProcess>(program(stack, true), args, timeout_);
  } catch (const std::exception& e) {
    error = std::string("server did not start: ") + e.what();
    up_.erase(key);
    return nullptr;
  }
  return p.get();
}

std::string Matrix::answer(const std::string& client, const std::string& url, rpc::Family f,
                           const interop::Call& call, std::string& error) {
  if (client == kOurs) return interop::soapbench_answer(url, f, call.request, timeout_, error);
  // Every peer client's command line (docs/peers.md "A peer's programs").
  std::vector<std::string> args{"--url",        url,
                                "--family",     std::string(rpc::family_name(f)),
                                "--timeout-ms", std::to_string(timeout_.count())};
  args.push_back(call.operation);
  args.insert(args.end(), call.args.begin(), call.args.end());
  return interop::child_answer(program(client, false), args, timeout_, error);
}

std::vector<std::string> Matrix::batch_answers(const std::string& client, const std::string& url,
                                               rpc::Family f,
                                               const std::vector<const interop::Call*>& calls,
                                               std::string& error) {
  std::vector<std::string> args{"--url",        url,
                                "--family",     std::string(rpc::family_name(f)),
                                "--timeout-ms", std::to_string(timeout_.count())};
  for (const interop::Call* call : calls) {
    if (call != calls.front()) args.push_back("--then");
    args.push_back(call->operation);
    args.insert(args.end(), call->args.begin(), call->args.end());
  }
  std::vector<std::string> lines;
  try {
    const auto bound = timeout_ * static_cast<int>(calls.size() + 1);
    const peers::ChildRun run = peers::run_child(program(client, false), args, bound);
    if (run.timed_out) error = "no answers within " + std::to_string(bound.count()) + " ms";
    std::istringstream out(run.out);
    for (std::string line; std::getline(out, line);) lines.push_back(line);
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (error.empty() && lines.size() < calls.size())
    error = "printed no answer for this call (its stderr above)";
  lines.resize(calls.size());
  return lines;
}

void Matrix::run_pair(const std::string& client, const std::string& server, rpc::Family f) {
  const std::string family(rpc::family_name(f));
  // The client's program, then the server's (a stack against itself needs both).
  for (const bool is_server : {false, true}) {
    const std::string& stack = is_server ? server : client;
    if (stack != kOurs && program(stack, is_server).empty()) {
      cells_.push_back({client, server, family, "*", "off", stack + " not built"});
      return;
    }
  }
  std::string error;
  const peers::PeerProcess* p = this->server(server, family, error);
  const std::uint64_t ulps = std::max(drift_ulps(client), drift_ulps(server));
  std::vector<const interop::Call*> served;
  for (const interop::Call& call : calls_) {
    if (not_served(server, call.operation).empty()) served.push_back(&call);
  }
  std::string batch_error;
  const std::vector<std::string> batch =
      batch_client(client) && p != nullptr ? batch_answers(client, p->url(), f, served, batch_error)
                                           : std::vector<std::string>{};
  std::size_t next = 0;  // the next call's answer in `batch`
  for (const interop::Call& call : calls_) {
    if (const std::string why = not_served(server, call.operation); !why.empty()) {
      cells_.push_back({client, server, family, call.operation, "off", why});
      continue;
    }
    const std::string batched = batch.empty() ? "" : batch[next++];
    Cell cell{client, server, family, call.operation, "fail", error};
    const std::optional<rpc::Message> expected = expected_answer(corpus_, family, call.request);
    if (!expected) cell.detail = "no expected answer: the corpus's getChain response is wrong";
    if (p != nullptr && expected) {
      if (batched.empty() && !batch.empty()) error = batch_error;
      const std::string got = batch.empty() ? answer(client, p->url(), f, call, error) : batched;
      const interop::Verdict v = interop::judge(call.operation, got, error, *expected, ulps);
      cell.status = v.status;
      cell.detail = v.detail;
      error.clear();
    }
    cells_.push_back(std::move(cell));
  }
}

void Matrix::run_family(rpc::Family f) {
  const std::string family(rpc::family_name(f));
  const std::vector<std::string> stacks = servers_of(f);
  for (const std::string& client : clients_of(f)) {
    for (const std::string& server : stacks) run_pair(client, server, f);
  }
  // A client shown against a server it shares no protocol with (its NO_COMMON_PROTOCOL).
  for (const auto& [client, server] : unmet_pairs(f))
    cells_.push_back({client, server, family, "*", "off", "no common protocol"});
  for (const std::string& server : stacks) {
    if (program(server, true).empty()) {
      cells_.push_back({"malformed", server, family, "add", "off", server + " not built"});
      continue;
    }
    std::string error;
    const peers::PeerProcess* p = this->server(server, family, error);
    const interop::Verdict v = p == nullptr ? interop::Verdict{"fail", error}
                                            : interop::malformed_request(p->url(), f, timeout_);
    cells_.push_back({"malformed", server, family, "add", v.status, v.detail});
  }
  for (auto it = up_.begin(); it != up_.end();) {  // one-family servers: this family only
    it = it->first.find(' ') != std::string::npos ? up_.erase(it) : std::next(it);
  }
}

// "7/7", "off", "no common protocol" or "" for the cells of one client → server pair.
std::string summary(const std::vector<Cell>& cells, const std::string& family,
                    const std::string& client, const std::string& server) {
  int ok = 0;
  int total = 0;
  std::string off;
  for (const Cell& c : cells) {
    if (c.family != family || c.client != client || c.server != server) continue;
    if (c.status == "off" && c.operation == "*") off = c.detail;
    if (c.status == "off") continue;  // a whole pair, or an operation the server leaves out
    ++total;
    ok += c.status == "ok" || c.status == "fault-ok";
  }
  if (!off.empty()) return off.find("not built") != std::string::npos ? "off (not built)" : off;
  if (client == "malformed" && total == 1) return ok == 1 ? "fault" : "FAIL";
  return total == 0 ? "" : fmt::format("{}/{}", ok, total);
}

// The matrix as text: per family, rows client, columns server; failures listed below.
void print_matrix(const std::vector<Cell>& cells) {
  for (const rpc::Family f : rpc::kAllFamilies) {
    const std::string family(rpc::family_name(f));
    std::vector<std::string> rows = clients_of(f);
    const std::vector<std::string> columns = servers_of(f);
    for (const auto& [client, server] : unmet_pairs(f)) rows.push_back(client);
    rows.push_back("malformed");
    fmt::print("{:<22}", family);
    for (const std::string& s : columns) fmt::print("{:>22}", "server " + s);
    fmt::print("\n");
    for (const std::string& client : rows) {
      fmt::print("  {:<20}", client == "malformed" ? "malformed request" : "client " + client);
      for (const std::string& s : columns) fmt::print("{:>22}", summary(cells, family, client, s));
      fmt::print("\n");
    }
  }
  int failed = 0;
  for (const Cell& c : cells) {
    if (c.status != "fail") continue;
    if (failed++ == 0) fmt::print("\nfailures:\n");
    fmt::print("  {} -> {} {} {}: {}\n", c.client, c.server, c.family, c.operation,
               c.detail.substr(0, 400));
  }
  fmt::print("\n{} cells, {} failed\n", cells.size(), failed);
}

// The --json document: context, then every cell.
std::string json_of(const std::vector<Cell>& cells, const std::string& only, milliseconds timeout) {
  std::string j = "{\"tool\":\"soapbench interop\",\"context\":{\"machine_id\":";
  rpc::append_json_string(j, machine_id());
  j += ",\"git_sha\":";
  rpc::append_json_string(j, git_sha());
  j += ",\"only\":";
  rpc::append_json_string(j, only);
  j += fmt::format(",\"timeout_ms\":{}}},\"cells\":[", timeout.count());
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const Cell& c = cells[i];
    j += i == 0 ? "\n" : ",\n";
    const std::pair<const char*, const std::string*> fields[] = {
        {"client", &c.client},       {"server", &c.server}, {"family", &c.family},
        {"operation", &c.operation}, {"status", &c.status}, {"detail", &c.detail}};
    for (const auto& [name, value] : fields) {
      j += name == fields[0].first ? "{\"" : ",\"";
      j += name;
      j += "\":";
      rpc::append_json_string(j, *value);
    }
    j += '}';
  }
  return j + "]}\n";
}

// The command's description: the stacks by their labels (the peer list's).
std::string interop_description() {
  std::string clients = kOurs;
  std::string servers;
  for (const Peer* p : interop_peers()) {
    std::string& list = p->has_client ? clients : servers;
    list += (list.empty() ? "" : ", ") + p->label;
  }
  return "The interop matrix: every client stack (" + clients +
         ") against every server stack speaking the family (those and the servers " + servers +
         "), every operation checked against the contract; a malformed request to each server "
         "must get its fault. Exit 1 when a cell fails";
}

}  // namespace

void add_interop_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("interop", interop_description());
  static Programs programs = built_programs();
  static std::string only = "representative";
  static std::string json_out;
  static int timeout_ms = 20000;
  cmd->add_option("--only", only, "representative (add and complex) or all operations")
      ->check(CLI::IsMember({"representative", "all"}))
      ->capture_default_str();
  cmd->add_option("--json", json_out,
                  "Also write every cell as JSON to this file (the report reads it)");
  cmd->add_option("--soapbench-server", programs.soapbench_server, "soapbench to run as `serve`")
      ->capture_default_str();
  for (const Peer* p : interop_peers()) {  // --<peer>-server, --<peer>-client
    cmd->add_option("--" + p->name + "-server", programs.servers[p->name],
                    "Server program of " + p->label)
        ->capture_default_str();
    if (!p->has_client) continue;
    cmd->add_option("--" + p->name + "-client", programs.clients[p->name],
                    "Client program of " + p->label)
        ->capture_default_str();
  }
  cmd->add_option("--timeout-ms", timeout_ms, "Bound on each call and each server's start")
      ->check(CLI::Range(100, 600'000))
      ->capture_default_str();
  cmd->footer("A peer not built (empty path) has its cells off, not failed.");
  cmd->callback([] {
    const milliseconds timeout(timeout_ms);
    std::vector<Cell> cells;
    try {
      Matrix matrix(programs, timeout, only == "representative");
      for (const rpc::Family f : rpc::kAllFamilies) {
        fmt::print(stderr, "interop: {} ...\n", rpc::family_name(f));
        matrix.run_family(f);
      }
      cells = matrix.cells();
    } catch (const std::exception& e) {
      fmt::print(stderr, "soapbench: interop: {}\n", e.what());
      throw ExitCode{1};
    }
    print_matrix(cells);
    if (!json_out.empty()) {
      std::ofstream out(json_out, std::ios::binary);
      out << json_of(cells, only, timeout);
      if (!out) {
        fmt::print(stderr, "soapbench: interop: cannot write {}\n", json_out);
        throw ExitCode{1};
      }
    }
    for (const Cell& c : cells) {
      if (c.status == "fail") throw ExitCode{1};
    }
  });
}

}  // namespace sb::cli
