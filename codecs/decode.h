// What every decoder shares: the caller's context and the error it reports.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "codecs/family.h"
#include "codecs/service_contract.h"

namespace sb::rpc {

// What the caller knows about a message before decoding it.
struct DecodeContext {
  std::optional<Protocol> protocol;  // required protocol; nullopt: detect it from the content
  std::string method;                // the method of an XML-RPC / JSON-RPC response, if known
};

// Why decoding failed, with the service fault code a server answers it with.
struct DecodeError {
  int fault_code = 0;   // fault::parse_error, fault::method_not_found, fault::invalid_params, …
  std::string message;  // one line

  bool failed() const { return fault_code != 0; }
};

// Limits on work that the message size alone does not bound.
struct DecodeLimits {
  std::size_t max_reference_expansions = 100000;  // SOAP href/id resolutions per message
  std::size_t max_attributes = 1024;              // attributes on one element (ParseLimits')
  std::size_t max_attribute_bytes = 1u << 20;     // one attribute value (ParseLimits')
};

}  // namespace sb::rpc
