// A user's WSDL files read into a Contract (codecs/wsdl_reader.h): the files and the local
// documents they import are read from disk (never from the network) and parsed with
// parsers/xml_tree_reader.h. For `soapbench compare --wsdl`, `wsdl --check` and `call --wsdl`.
#pragma once

#include <string>
#include <vector>

#include "codecs/service_contract.h"
#include "codecs/wsdl_reader.h"

namespace sb {

// The contract of the WSDL files `paths` (their operations together). Throws std::runtime_error
// with one line naming the file and the problem when one cannot be read at all.
rpc::Contract load_wsdl(const std::vector<std::string>& paths, rpc::WsdlReport& report);

}  // namespace sb
