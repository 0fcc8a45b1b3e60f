// callcount's rows (docs/results.md "callcount"): which calls it counts, and the test-only planted
// changes (--plant) its gate is tested with.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/family.h"

namespace sb::bench {

// One counted call: a variant, family, adapter (the same on client and server) and corpus call.
struct CallRow {
  std::string variant;  // keepalive (one connection for every call) or newconn (one per call)
  rpc::Family family;   // what client and server speak
  std::string adapter;  // registry name, client and server
  std::string call;     // roundtrip_bench's call name (getRate, respond.7500B, ...)
  std::string stem;     // the corpus call's file stem (getRate.call, ...)

  // <variant>/<family>/<adapter>/<call>, the adapter written as a name field (pugixml-dom).
  std::string id() const;
  // callcount/<side>/<variant>/<family>/<adapter>/<call> (bench/benchmark_names.json).
  std::string name(std::string_view side) const;
  bool keep_alive() const { return variant == "keepalive"; }
};

// Every row, in order: each family's seed calls (getRate, add, complex, respond.7500B) kept
// alive with the family's default adapter; each family's getRate with a new connection per call
// (accept, socket options, close: per-connection costs); getRate kept alive by every other adapter
// whose digest counts (as roundtrip_bench's rows), XML adapters over soap11-rpc-encoded and JSON
// ones over jsonrpc.
std::vector<CallRow> callcount_rows();

// The planted changes, each real code reached only through --plant=NAME (the gate's tests):
// name -> what it adds per call, in the order of Plants' bits.
const std::vector<std::pair<std::string, std::string>>& plant_names();

// What a set of plants does: on the server's thread once per request (after encoding, before the
// response is written), and to each request body the client writes. Without plants a request
// costs one test of a flag; with some, a few more (no lookups by name per request).
class Plants {
 public:
  // Adds a plant by name; false when there is no such plant.
  bool add(const std::string& name);
  // Runs the server plants (write, alloc, lock, sleep, spin).
  void on_server_request() const;
  // The client's body rewrite for the client plants (copy, space, spin); empty when none.
  std::function<void(std::string&)> body_rewrite() const;

 private:
  enum Bit : unsigned {
    kServerWrite = 1,
    kServerAlloc = 2,
    kServerLock = 4,
    kServerSleep = 8,
    kServerSpin = 16,
    kClientCopy = 32,
    kClientSpace = 64,
    kClientSpin = 128,
  };
  static constexpr unsigned kServer = 31;  // the server plants' bits
  unsigned bits_ = 0;                      // the plants in force
};

}  // namespace sb::bench
