// callcount's server side: one RpcServer per adapter counted (as roundtrip_bench: no X-Parser
// header on the wire), each with one I/O thread, and the window on that thread that counts one
// row's requests.
#pragma once

#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "bench/callcount_rows.h"
#include "bench/callcount_window.h"
#include "server/http_server.h"

namespace sb::bench {

class CallcountServers {
 public:
  // Plants run on the serving thread for every request; both must outlive the servers.
  CallcountServers(std::filesystem::path corpus_dir, const Plants& plants)
      : corpus_dir_(std::move(corpus_dir)), plants_(plants) {}

  // Starts the server a row calls (its threads inherit the calling thread's scheduling policy
  // and CPU); every server is started before the first row.
  void start_for(const CallRow& row);
  // The server a row calls (started by start_for).
  RpcServer& server_for(const CallRow& row);

  // Arms the server window of the next row: it opens at the answer to the `warmup`-th request
  // from now (after encoding, before the write) and closes at the answer to the
  // (`warmup` + `calls`)-th, so it spans exactly `calls` whole request cycles: writing an answer,
  // [closing, accepting,] reading, the head's rules, parsing, dispatch, encoding. Called on the
  // client's thread while no request is in flight.
  void arm(const std::string& name, long warmup, long calls);
  // What the armed window counted, once closed (false while it is not).
  bool take(WindowCounts& counts);

 private:
  // Every request, on the serving thread: the plants, then the window's edges.
  void on_request();

  std::filesystem::path corpus_dir_;                           // getChain documents
  const Plants& plants_;                                       // --plant
  std::map<std::string, std::unique_ptr<RpcServer>> servers_;  // by adapter ("" the defaults)
  std::atomic<long> served_{0};      // requests answered so far, all servers
  std::atomic<long> begin_at_{-1};   // the request whose answer opens the window
  std::atomic<long> end_at_{-1};     // the request whose answer closes it
  std::atomic<bool> closed_{false};  // the window closed: counts_ is final
  std::string name_;                 // the window's name (written before begin_at_)
  CountWindow window_;               // on the serving thread
  WindowCounts counts_;              // what it counted
};

}  // namespace sb::bench
