// The peer stacks this build declares (docs/architecture.md "Adding a peer"): one row per sb_peer()
// call in peers/<stack>/CMakeLists.txt (cmake/peer_list.cmake), in declaration order, generated
// into peer_list.inc and compiled here. `soapbench interop` builds its matrix from these rows,
// `soapbench list --peers` prints them, stacks_bench's peer code finds its programs in them; no
// other code names a stack.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sb {

// An operation a peer's server cannot express, and why (interop's "not expressible" cell).
struct PeerUnexpressible {
  std::string operation;  // the contract's operation
  std::string why;        // e.g. "Frontier::RPC's fault message is its own"
};

// One declared peer (docs/peers.md "Declaring a peer": each field's meaning).
struct Peer {
  std::string name;                     // its name in cells, benchmark names and load ids
  std::string label;                    // how a reader knows it ("Apache Axis")
  std::vector<std::string> families;    // what its server (and client) speak
  bool built = false;                   // its programs were built (else its interop cells are off)
  std::string server;                   // its server program ("" when not built)
  bool has_client = false;              // it has a client program of its own
  std::string client;                   // that program ("" when none or not built)
  bool batch_client = false;            // the client takes a pair's every call in one run (--then)
  bool one_family = false;              // the server serves one family per process (--family F)
  bool jvm = false;                     // runs on the JVM: warmed up (--warmup N) before timing
  std::uint64_t drift_ulps = 0;         // doubles accepted this many ULPs off (interop's check)
  std::vector<std::string> operations;  // what its server implements; empty: every operation
  std::vector<PeerUnexpressible> unexpressible;  // what it cannot express, and why
  std::vector<std::string> no_common_protocol;   // peers its client is shown against, unmet
  bool load = false;      // in the load sweeps (tools/load_bench, tools/server_load)
  std::string parser;     // its server's parser as load results name it ("" when not said)
  double cpu_target = 0;  // tools/server_load's target: ours at most this × its CPU (0: none)
  std::string closes;     // how its server closes every connection ("" when it keeps them)
  std::string protocol;   // its protocol when no family names it (e.g. CORBA)
  std::string transport;  // its transport when not HTTP/1.1 (e.g. GIOP, HTTP/2)

  // Whether its server (and client) speak `family`.
  bool speaks(std::string_view family) const;
  // Why its server leaves `operation` out ("not expressible (...)"), or "" when it serves it.
  std::string not_served(std::string_view operation) const;
};

// Every declared peer, in declaration order.
const std::vector<Peer>& peer_list();

// The declared peer `name`, or nullptr.
const Peer* find_peer(std::string_view name);

// The server program of the declared peer `name` ("" when not built); throws std::logic_error
// when no peer has that name (a peer's own code asking for itself).
const std::string& peer_server(std::string_view name);

}  // namespace sb
