// encode_json: JSON-RPC 2.0 messages (docs/service.md "jsonrpc"), written once over the JsonWriter
// call sequence. Values carry their own kind, so no contract is needed: dateTime and base64 become
// strings, which the decoder types back by the contract.
#pragma once

#include <cstdint>
#include <string>

#include "codecs/json_writer.h"
#include "codecs/value.h"

namespace sb::rpc {

// Envelope details the message itself does not hold.
struct JsonRpcOptions {
  std::int64_t id = 1;        // "id" of requests and of the responses that answer them
  bool notification = false;  // a call written without "id": a notification, never answered
};

// Writes m as a JSON-RPC 2.0 request, response or error response through w, into out (replaced).
// Returns false with a one-line reason in error for NaN/infinity, malformed UTF-8, a call without
// a method, or a writer failure. Defined for Writer = DirectJsonWriter (statically dispatched) and
// Writer = JsonWriter (library writers); other instantiations do not link.
template <class Writer>
bool encode_json(const Message& m, Writer& w, std::string& out, std::string& error,
                 const JsonRpcOptions& options = {});

extern template bool encode_json<DirectJsonWriter>(const Message&, DirectJsonWriter&, std::string&,
                                                   std::string&, const JsonRpcOptions&);
extern template bool encode_json<JsonWriter>(const Message&, JsonWriter&, std::string&,
                                             std::string&, const JsonRpcOptions&);

}  // namespace sb::rpc
