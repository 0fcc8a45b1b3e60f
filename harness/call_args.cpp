#include "harness/call_args.h"

#include <memory>

#include "codecs/canonical_json.h"
#include "parsers/registry.h"

namespace sb {

std::vector<rpc::Value> typed_call_params(const std::string& method,
                                          const std::vector<std::string>& args, std::string& error,
                                          const rpc::Contract* contract) {
  std::unique_ptr<Adapter> json = make_adapter(kDefaultJsonAdapter);
  std::string call = "{\"jsonrpc\":\"2.0\",\"method\":";
  rpc::append_json_string(call, method);
  call += ",\"params\":[";
  MessageBuffer buffer;
  for (std::size_t i = 0; i < args.size(); ++i) {
    buffer.assign(args[i]);
    if (const Status s = json->parse(buffer); !s.ok()) {
      error = "argument " + std::to_string(i + 1) + " is not JSON: " + s.describe();
      return {};
    }
    call += (i == 0 ? "" : ",") + args[i];
  }
  buffer.assign(call + "],\"id\":1}");
  rpc::Message m;
  DecodeReport report;
  rpc::DecodeContext context;
  context.contract = contract;
  if (const Status s = json->decode(buffer, context, m, report); !s.ok()) {
    error = s.reason();
    return {};
  }
  return std::move(m.params);
}

}  // namespace sb
