#include "client/jsonrpc_batch.h"

#include <optional>

#include "codecs/jsonrpc_id.h"
#include "core/message_buffer.h"

namespace sb {

namespace {

// One answer decoded as the answer to a call of `method` (or untyped), "" or why it did not.
std::string decode_one(Adapter& adapter, std::string_view bytes, const std::string& method,
                       const rpc::Contract* contract, rpc::Message& out) {
  MessageBuffer buffer(bytes);
  rpc::DecodeContext context;
  context.protocol = rpc::Protocol::jsonrpc;
  context.method = method;
  context.contract = contract;
  DecodeReport report;
  const Status status = adapter.decode(buffer, context, out, report);
  if (!status.ok()) return status.describe();
  if (out.kind == rpc::MessageKind::call) return "a call, not an answer";
  return "";
}

}  // namespace

bool encode_batch(Encoder& encoder, const std::vector<BatchMember>& members, std::int64_t first_id,
                  std::string& body, std::string& error) {
  body.assign("[");
  std::string one;
  for (std::size_t i = 0; i < members.size(); ++i) {
    rpc::JsonRpcOptions options;
    options.id = first_id + static_cast<std::int64_t>(i);
    options.notification = members[i].notification;
    if (!encoder.encode(members[i].call, rpc::Family::jsonrpc, one, error, options)) {
      error = "batch member " + std::to_string(i + 1) + ": " + error;
      return false;
    }
    if (i > 0) body.push_back(',');
    body += one;
  }
  body.push_back(']');
  return true;
}

std::string decode_batch_answer(Adapter& adapter, std::string_view body,
                                const std::vector<BatchMember>& members, std::int64_t first_id,
                                const rpc::Contract* contract, rpc::Message& out) {
  out.clear();
  out.kind = rpc::MessageKind::batch;
  const bool blank = body.find_first_not_of(" \t\r\n") == std::string_view::npos;
  if (!rpc::json_is_array(body)) {
    if (blank) {
      for (const BatchMember& m : members) {
        if (!m.notification) return "no answer (an empty body) to a batch with calls";
      }
      return "";
    }
    // One answer to the whole batch: the fault of a batch refused as a whole.
    const std::string why = decode_one(adapter, body, "", contract, out);
    if (!why.empty()) return "the answer does not decode: " + why;
    if (out.kind != rpc::MessageKind::fault) return "one answer, not an array, and not a fault";
    return "";
  }
  const std::optional<std::vector<std::string_view>> items = rpc::json_array_items(body);
  if (!items) return "the answer is not a well-formed JSON array";
  std::vector<std::optional<rpc::Message>> answers(members.size());
  for (std::size_t k = 0; k < items->size(); ++k) {
    const std::string_view item = (*items)[k];
    const rpc::JsonRpcId id = rpc::find_jsonrpc_id(item);
    const std::string where = "answer " + std::to_string(k + 1);
    if (!id.number) {
      // An error with id null: the server could not read a member (it names which only so).
      rpc::Message m;
      const std::string why = decode_one(adapter, item, "", contract, m);
      return where + " has no member's id (id " + std::string(id.raw) + ")" +
             (why.empty() && m.kind == rpc::MessageKind::fault ? ": " + m.fault_message : "");
    }
    const std::int64_t i = *id.number - first_id;
    if (i < 0 || i >= static_cast<std::int64_t>(members.size())) {
      return where + " has id " + std::string(id.raw) + ", which no member has";
    }
    const BatchMember& member = members[static_cast<std::size_t>(i)];
    if (member.notification)
      return where + " answers a notification (id " + std::string(id.raw) + ")";
    std::optional<rpc::Message>& slot = answers[static_cast<std::size_t>(i)];
    if (slot) return where + " answers member " + std::to_string(i + 1) + " again";
    slot.emplace();
    const std::string why = decode_one(adapter, item, member.call.method, contract, *slot);
    if (!why.empty()) return where + " does not decode: " + why;
  }
  for (std::size_t i = 0; i < members.size(); ++i) {
    if (members[i].notification) continue;
    if (!answers[i]) return "no answer to member " + std::to_string(i + 1);
    out.batch.push_back(std::move(*answers[i]));
  }
  return "";
}

}  // namespace sb
