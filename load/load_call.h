// The call a load generator sends over and over (soapbench load): a corpus call message of one
// family, framed as a keep-alive HTTP/1.1 request, and the correct answer to it.
#pragma once

#include <cstdint>
#include <string>

#include "client/http_request.h"
#include "codecs/family.h"
#include "harness/corpus.h"

namespace sb {

struct LoadCall {
  rpc::Family family = rpc::Family::xmlrpc;  // what the request speaks
  std::string name;                          // corpus call name: "getRate", "respond.2500B"
  std::string operation;                     // the service operation: "getRate", "respond"
  std::string request;                       // head and body, sent as is for every call
  std::size_t body_bytes = 0;                // the corpus message's size
  std::string expected;                      // canonical JSON of the correct answer
  std::uint64_t max_drift_ulps = 0;          // doubles may differ this much (xmlrpc-c drifts)
  int status = 200;                          // the right answer's HTTP status (a replay: recorded)
  bool check_body = true;      // false: only the status is judged (a replayed answer that the
                               // decoders cannot type, or that the service answered differently)
  bool expects_fault = false;  // the right answer is a fault (replayed), equal to `expected`
  bool batch = false;          // a JSON-RPC 2.0 batch: the answer decodes as one (`expected`,
                               // the answers in member order)
};

// The call `name` of `family` from the corpus (file "<family>/<name>.call.*"), addressed to
// `url` (X-Parser: server_parser when not empty); with `batch` > 0 (JSON-RPC only) a JSON-RPC
// 2.0 batch of that many copies, written by the direct encoder with ids 1..batch. Throws
// std::runtime_error saying what is missing (no such file, it does not decode, no correct
// answer known, a batch of another family).
LoadCall make_load_call(const Corpus& corpus, rpc::Family family, const std::string& name,
                        const Url& url, const std::string& server_parser, std::size_t batch = 0);

}  // namespace sb
