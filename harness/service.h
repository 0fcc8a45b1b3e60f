// The service behind `soapbench serve`: validates a decoded call against the contract and
// computes the response by the operation's rule (codecs/service_rules.h; docs/service.md).
// Protocol-free: codecs decode and encode around it.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "codecs/service_contract.h"
#include "codecs/value.h"

namespace sb {

// What dispatching one call produced.
struct DispatchResult {
  rpc::Message response;               // a response or a fault
  std::chrono::milliseconds delay{0};  // respond(…, delay): wait this long before answering
};

class Service {
 public:
  explicit Service(const rpc::Contract& contract = rpc::service_contract());

  // Runs one call. Unknown methods, wrong parameter counts or types give protocol faults
  // (fault::method_not_found, fault::invalid_params); `fail` gives fault 4.
  DispatchResult dispatch(const rpc::Message& call) const;

 private:
  const rpc::Contract& contract_;  // operations and types
};

// A fault message.
rpc::Message make_fault(int code, std::string message);

// Checks call params against the operation's types (XML-RPC and untyped JSON are typed only
// by their own syntax); converts ints to doubles where a double is due. Empty when valid.
std::string check_params(const rpc::Operation& op, std::vector<rpc::Value>& params);

}  // namespace sb
