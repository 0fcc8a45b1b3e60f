// soapbench interop: the interop matrix (docs/peers.md). Every client stack against every server
// stack that speaks the family, itself included, for every operation of the contract, each answer
// checked against the contract's (harness/answer_check.h); one malformed request per server, which
// must get that stack's fault. Servers and peer clients are child processes started by path
// (harness/peer_process.h); our client runs in-process. Peers default to this build's programs.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "client/interop.h"
#include "codecs/canonical_json.h"
#include "harness/answer_check.h"
#include "harness/peer_process.h"
#include "harness/run_context.h"

namespace sb::cli {

namespace {

using std::chrono::milliseconds;

// The programs the matrix runs; empty: that peer is not built (its cells are "off").
struct Programs {
  std::string soapbench_server;      // `soapbench serve` (default: this executable)
  std::string gsoap_server;          // peers/gsoap/gsoap_server
  std::string gsoap_client;          // peers/gsoap/gsoap_client
  std::string xmlrpc_c_server;       // peers/xmlrpc-c/xmlrpc_c_server
  std::string xmlrpc_c_client;       // peers/xmlrpc-c/xmlrpc_c_client
  std::string soaplite_server;       // peers/scripting/soaplite_server.pl
  std::string frontier_server;       // peers/scripting/frontier_server.pl
  std::string python_xmlrpc_server;  // peers/scripting/python_xmlrpc_server.py
  std::string axis_server;           // peers/java/axis_server (Apache Axis on the JVM)
  std::string axis_client;           // peers/java/axis_client (Axis's client on the JVM)
  std::string jaxws_server;          // peers/java/jaxws/jaxws_server (the JAX-WS RI)
  std::string jaxws_client;          // peers/java/jaxws/jaxws_client
};

// This build's programs (compile definitions set by each peer's CMake block).
Programs built_programs() {
  Programs p;
  p.soapbench_server = std::filesystem::read_symlink("/proc/self/exe").string();
#ifdef SB_GSOAP_SERVER_PATH
  p.gsoap_server = SB_GSOAP_SERVER_PATH;
  p.gsoap_client = SB_GSOAP_CLIENT_PATH;
#endif
#ifdef SB_XMLRPC_C_SERVER_PATH
  p.xmlrpc_c_server = SB_XMLRPC_C_SERVER_PATH;
  p.xmlrpc_c_client = SB_XMLRPC_C_CLIENT_PATH;
#endif
#ifdef SB_SCRIPTING_DIR
  p.soaplite_server = SB_SCRIPTING_DIR "/soaplite_server.pl";
  p.frontier_server = SB_SCRIPTING_DIR "/frontier_server.pl";
  p.python_xmlrpc_server = SB_SCRIPTING_DIR "/python_xmlrpc_server.py";
#endif
#ifdef SB_AXIS_SERVER_PATH
  p.axis_server = SB_AXIS_SERVER_PATH;
  p.axis_client = SB_AXIS_CLIENT_PATH;
#endif
#ifdef SB_JAXWS_SERVER_PATH
  p.jaxws_server = SB_JAXWS_SERVER_PATH;
  p.jaxws_client = SB_JAXWS_CLIENT_PATH;
#endif
  return p;
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

// The client stacks that speak `f`, in matrix order (JAX-WS: document/literal only; Apache Axis:
// SOAP 1.1's rpc styles only).
std::vector<std::string> clients_of(rpc::Family f) {
  if (f == rpc::Family::soap11_doc_literal || f == rpc::Family::soap12_doc_literal)
    return {"soapbench", "gsoap", "jaxws"};
  if (f == rpc::Family::soap11_rpc_encoded || f == rpc::Family::soap11_rpc_literal)
    return {"soapbench", "gsoap", "axis"};
  if (rpc::is_soap(f)) return {"soapbench", "gsoap"};
  if (f == rpc::Family::xmlrpc) return {"soapbench", "xmlrpc-c"};
  return {"soapbench"};
}

// The server stacks that speak `f`: the clients' stacks, and the scripting stacks (servers only:
// docs/peers.md "Scripting stacks").
std::vector<std::string> servers_of(rpc::Family f) {
  std::vector<std::string> s = clients_of(f);
  if (f == rpc::Family::soap11_rpc_encoded) s.push_back("soaplite");
  if (f == rpc::Family::xmlrpc) s.insert(s.end(), {"frontier", "python-xmlrpc"});
  return s;
}

// Why `server` leaves `operation` out, or "" when it serves it: the scripting servers implement
// the scripting comparison's operations and a few more; Frontier::RPC cannot set a fault's message.
std::string not_served(const std::string& server, const std::string& operation) {
  if (server != "soaplite" && server != "frontier" && server != "python-xmlrpc") return "";
  if (server == "frontier" && operation == "fail")
    return "not expressible (Frontier::RPC's fault message is its own)";
  for (const char* op : {"add", "concat", "echoArray", "fail", "getChain"}) {
    if (operation == op) return "";
  }
  return "not expressible (not implemented by that server)";
}

// A server stack that serves one family per process (started with --family).
bool one_family_per_server(const std::string& stack) {
  return stack == "gsoap" || stack == "jaxws" || stack == "axis";
}

// A client stack that takes a pair's every call in one run (`--then` between calls): a JVM
// client starts in about a second, too slow to start once per cell.
bool batch_client(const std::string& stack) { return stack == "jaxws" || stack == "axis"; }

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
  static const std::string ours;  // our client runs in-process
  if (stack == "gsoap") return server ? programs_.gsoap_server : programs_.gsoap_client;
  if (stack == "xmlrpc-c") return server ? programs_.xmlrpc_c_server : programs_.xmlrpc_c_client;
  if (stack == "soaplite") return server ? programs_.soaplite_server : ours;
  if (stack == "frontier") return server ? programs_.frontier_server : ours;
  if (stack == "python-xmlrpc") return server ? programs_.python_xmlrpc_server : ours;
  if (stack == "axis") return server ? programs_.axis_server : programs_.axis_client;
  if (stack == "jaxws") return server ? programs_.jaxws_server : programs_.jaxws_client;
  return server ? programs_.soapbench_server : ours;
}

const peers::PeerProcess* Matrix::server(const std::string& stack, const std::string& family,
                                         std::string& error) {
  // soapbench serves every family on one port; gSOAP, JAX-WS and Axis one family per server.
  const std::string key = one_family_per_server(stack) ? stack + " " + family : stack;
  std::unique_ptr<peers::PeerProcess>& p = up_[key];
  if (p) return p.get();
  std::vector<std::string> args{"--address", "127.0.0.1", "--port",
                                "0",         "--corpus",  corpus_.dir().string()};
  if (stack == "soapbench") args.insert(args.begin(), "serve");
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
  if (client == "soapbench")
    return interop::soapbench_answer(url, f, call.request, timeout_, error);
  std::vector<std::string> args{"--url", url};
  if (client == "gsoap") args.insert(args.end(), {"--family", std::string(rpc::family_name(f))});
  if (client == "xmlrpc-c")
    args.insert(args.end(), {"--timeout-ms", std::to_string(timeout_.count())});
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
    if (stack != "soapbench" && program(stack, is_server).empty()) {
      cells_.push_back({client, server, family, "*", "off", stack + " not built"});
      return;
    }
  }
  std::string error;
  const peers::PeerProcess* p = this->server(server, family, error);
  const std::uint64_t ulps = client == "xmlrpc-c" || server == "xmlrpc-c" ? kMaxDriftUlps : 0;
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
  // gSOAP speaks SOAP, xmlrpc-c XML-RPC: they never meet.
  if (rpc::is_soap(f))
    cells_.push_back({"xmlrpc-c", "gsoap", family, "*", "off", "no common protocol"});
  if (f == rpc::Family::xmlrpc)
    cells_.push_back({"gsoap", "xmlrpc-c", family, "*", "off", "no common protocol"});
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
  for (auto it = up_.begin(); it != up_.end();) {  // gSOAP, JAX-WS, Axis: this family only
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
    if (f != rpc::Family::jsonrpc) rows.push_back(rpc::is_soap(f) ? "xmlrpc-c" : "gsoap");
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

}  // namespace

void add_interop_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "interop",
      "The interop matrix: every client stack (soapbench, gSOAP, xmlrpc-c, JAX-WS, Apache Axis) "
      "against every server stack speaking the family (those and the servers SOAP::Lite, "
      "Frontier::RPC, Python's xmlrpc.server), every operation checked against the contract; a "
      "malformed "
      "request to each server must get its fault. Exit 1 when a cell fails");
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
  cmd->add_option("--gsoap-server", programs.gsoap_server, "gsoap_server program")
      ->capture_default_str();
  cmd->add_option("--gsoap-client", programs.gsoap_client, "gsoap_client program")
      ->capture_default_str();
  cmd->add_option("--xmlrpc-c-server", programs.xmlrpc_c_server, "xmlrpc_c_server program")
      ->capture_default_str();
  cmd->add_option("--xmlrpc-c-client", programs.xmlrpc_c_client, "xmlrpc_c_client program")
      ->capture_default_str();
  cmd->add_option("--soaplite-server", programs.soaplite_server, "soaplite_server.pl program")
      ->capture_default_str();
  cmd->add_option("--frontier-server", programs.frontier_server, "frontier_server.pl program")
      ->capture_default_str();
  cmd->add_option("--python-xmlrpc-server", programs.python_xmlrpc_server,
                  "python_xmlrpc_server.py program")
      ->capture_default_str();
  cmd->add_option("--axis-server", programs.axis_server, "axis_server program (peers/java)")
      ->capture_default_str();
  cmd->add_option("--jaxws-server", programs.jaxws_server, "jaxws_server program (peers/java)")
      ->capture_default_str();
  cmd->add_option("--jaxws-client", programs.jaxws_client, "jaxws_client program (peers/java)")
      ->capture_default_str();
  cmd->add_option("--axis-client", programs.axis_client, "axis_client program (peers/java)")
      ->capture_default_str();
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
