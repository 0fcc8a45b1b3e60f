// The id of a JSON-RPC request, read from the raw body without a full parse: the JSON-RPC decoder
// drops "id", but a response must echo it as the client wrote it; and the members of a batch,
// each answered (and its id read) on its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

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

// The items of the top-level JSON array `json` (a JSON-RPC 2.0 batch, its members or answers),
// each as its bytes without the whitespace around it, in order; nullopt when `json` is not an
// array or its structure (brackets, commas, strings) is broken, trailing bytes included. Not a
// validator: what an item holds is its decoder's to judge.
std::optional<std::vector<std::string_view>> json_array_items(std::string_view json);

// Whether the first byte of `json` after whitespace opens an array (a JSON-RPC batch).
bool json_is_array(std::string_view json);

}  // namespace sb::rpc
