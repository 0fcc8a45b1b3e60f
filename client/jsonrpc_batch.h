// JSON-RPC 2.0 batches on the client side (RpcClient::call_batch, `soapbench call --batch`;
// docs/service.md "Batches"): the request array written from its members, and the answer array
// read back into member order, each answer found by its id (a server may answer in any order)
// and decoded as the answer to its own member's method.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/value.h"
#include "harness/encoders.h"
#include "parsers/adapter.h"

namespace sb {

// One member of a batch.
struct BatchMember {
  rpc::Message call;          // a call
  bool notification = false;  // sent without an id: the server answers nothing for it
};

// The batch's body: member i written by `encoder` as a JSON-RPC call with id first_id + i (a
// notification with none), the members joined into one array. False with `error` set (naming
// the member) when one cannot be written.
bool encode_batch(Encoder& encoder, const std::vector<BatchMember>& members, std::int64_t first_id,
                  std::string& body, std::string& error);

// The answer `body` to `members` sent with ids from `first_id`, decoded by `adapter` into `out`:
// a batch of the answers to the members that are not notifications, in member order, or the one
// fault a server answers a batch it refuses as a whole with (an empty body when every member is
// a notification: an empty batch). "" when right, else why not (an answer not JSON or not
// decoding, an id no member has, an answer missing or given twice, an answer to a notification).
std::string decode_batch_answer(Adapter& adapter, std::string_view body,
                                const std::vector<BatchMember>& members, std::int64_t first_id,
                                const rpc::Contract* contract, rpc::Message& out);

}  // namespace sb
