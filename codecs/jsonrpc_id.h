// The id of a JSON-RPC request, read from the raw body without a full parse: the JSON-RPC decoder
// drops "id", but a response must echo it as the client wrote it.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace sb::rpc {

// A JSON-RPC request id as the response must echo it.
struct JsonRpcId {
  bool present = false;                // the request has an "id" member (else: a notification)
  std::string_view raw = "null";       // bytes to write: the request's token, or null if invalid
  std::optional<std::int64_t> number;  // the id when it is an integer the encoder can write
};

// The top-level "id" of a JSON-RPC request body (the last one when the key repeats); raw views
// into body. Not a validator: on malformed JSON the answer is unspecified, but never out of body.
JsonRpcId find_jsonrpc_id(std::string_view body);

// The value bytes of the top-level member `key` of the JSON object `json` (the last one when the
// key repeats, as JSON.parse and Python's json do), or nullopt; bounds-checked like the above.
std::optional<std::string_view> json_top_level_member(std::string_view json, std::string_view key);

}  // namespace sb::rpc
