// The params of a call given on a command line (`soapbench call`, the peers' clients): JSON values
// typed by the contract exactly as the server types JSON-RPC params.
#pragma once

#include <string>
#include <vector>

#include "codecs/service_contract.h"
#include "codecs/value.h"

namespace sb {

// ARGS (JSON values) are checked one by one, then spliced into a JSON-RPC call of METHOD that
// the default JSON adapter decodes (codecs/json_decoder.h), typed by `contract` (a user's WSDL;
// nullptr: the service's). Params past the contract's stay untyped; the server judges them. On
// failure returns {} and sets error.
std::vector<rpc::Value> typed_call_params(const std::string& method,
                                          const std::vector<std::string>& args, std::string& error,
                                          const rpc::Contract* contract = nullptr);

}  // namespace sb
