// Standard base64 (RFC 4648 alphabet, padded), as XML-RPC, SOAP and the canonical form use it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace sb::rpc {

// Encodes bytes without line breaks.
std::string base64_encode(std::string_view bytes);
// Decodes text, skipping XML whitespace (line breaks are common in XML-RPC); nullopt when the
// text holds another character, bad padding, or a length that is not a multiple of 4.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace sb::rpc
