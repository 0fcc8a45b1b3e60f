// Processing instructions in a message. XML-RPC allows them; SOAP forbids them (SOAP 1.1
// Section 3, SOAP 1.2 Part 1 Section 5: a receiver should fault). The XML event interface does
// not report PIs (core/events.h), so the decode level finds them in the bytes, before any
// library reads the message: every adapter then refuses a SOAP message with a PI alike.
#pragma once

#include <cstddef>
#include <string_view>

#include "codecs/decode.h"

namespace sb::rpc {

// Why a SOAP message with a PI is refused (one line).
inline constexpr std::string_view kSoapPiRefusal =
    "a SOAP message must not contain processing instructions (SOAP 1.1 Section 3, SOAP 1.2 "
    "Part 1 Section 5)";

// Offset of the first processing instruction other than the XML declaration (comments and
// CDATA sections skipped), or npos. Linear; a memchr pass when the message holds no "<?".
std::size_t find_processing_instruction(std::string_view xml);

// Whether the root element is named Envelope (any prefix): a SOAP message, for a caller that
// has no protocol yet (the decoder checks the namespace later).
bool root_is_envelope(std::string_view xml);

// Offset of a PI that makes this a refused SOAP message (SOAP by the context's protocol, else
// by its root element), or npos when it has none or is not SOAP.
std::size_t forbidden_processing_instruction(std::string_view xml, const DecodeContext& context);

}  // namespace sb::rpc
