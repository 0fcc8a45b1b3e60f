// What every decoder shares: the caller's context and the error it reports.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "codecs/family.h"
#include "codecs/service_contract.h"
#include "core/limits.h"

namespace sb::rpc {

// What the caller knows about a message before decoding it.
struct DecodeContext {
  std::optional<Protocol> protocol;    // required protocol; nullopt: detect it from the content
  std::string method;                  // the method of an XML-RPC / JSON-RPC response, if known
  const Contract* contract = nullptr;  // types SOAP literal and JSON-RPC values; nullptr: the
                                       // decoder's own (the built-in service), else a user's WSDL
  bool batch = false;  // JSON-RPC: an array of messages decodes as a batch (MessageKind::batch);
                       // the server leaves it off: it splits a batch and decodes each member
                       // alone, to answer each (server/rpc_endpoint.h)
};

// Why decoding failed, with the service fault code a server answers it with.
struct DecodeError {
  int fault_code = 0;   // fault::parse_error, fault::method_not_found, fault::invalid_params, …
  std::string message;  // one line

  bool failed() const { return fault_code != 0; }
};

}  // namespace sb::rpc
