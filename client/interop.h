// The parts of `soapbench interop`'s cells (docs/peers.md): the calls, one per operation of the
// contract; our client and a peer's client program answering one; the verdict against the
// expected answer (harness/answer_check.h); and the malformed request each server must fault.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "codecs/family.h"
#include "codecs/value.h"
#include "harness/corpus.h"

namespace sb::interop {

// One call of the matrix.
struct Call {
  std::string operation;          // the contract's operation
  std::vector<std::string> args;  // its params as command-line JSON values (harness/call_args.h)
  rpc::Message request;           // the same params typed by the contract, as clients send them
};

// The operations `--only representative` runs (the unit test's cells).
inline constexpr const char* kRepresentative[] = {"add", "complex"};

// One call per operation of the contract: the corpus's first seed JSON-RPC call of each;
// `representative`: kRepresentative only. Throws std::runtime_error when one is missing.
std::vector<Call> calls(const Corpus& corpus, bool representative);

// What a cell found.
struct Verdict {
  std::string status;  // "ok", "fail" or "fault-ok"
  std::string detail;  // why it failed, the fault received, or a tolerated drift
};

// Judges `answer` (canonical JSON; empty when the call failed and `error` says why) against
// `expected`, doubles within `max_ulps`; `now` by its shape only (the answer is the server's
// clock).
Verdict judge(const std::string& operation, const std::string& answer, const std::string& error,
              const rpc::Message& expected, std::uint64_t max_ulps);

// Our client (RpcClient, default adapters, as `soapbench call` runs it) calling `request` at
// `url` in `family`: the answer's canonical JSON, or "" and `error`.
std::string soapbench_answer(const std::string& url, rpc::Family family,
                             const rpc::Message& request, std::chrono::milliseconds timeout,
                             std::string& error);

// A peer's client program `path args` run to its end: the first line it printed (canonical
// JSON), or "" and `error`.
std::string child_answer(const std::string& path, const std::vector<std::string>& args,
                         std::chrono::milliseconds timeout, std::string& error);

// add(2, 3) written for `family` with its 3 turned into `two`, POSTed to `url`: fault-ok when the
// server answers with its protocol's fault (SOAP Fault, XML-RPC fault, JSON-RPC error).
Verdict malformed_request(const std::string& url, rpc::Family family,
                          std::chrono::milliseconds timeout);

}  // namespace sb::interop
