// XML Schema's built-in simple types (and SOAP-ENC's copies of them) as the value model reads
// them: written once for the schema-less SOAP decoding (xsi:type, codecs/soap_decoder.cpp) and
// for a user's WSDL (codecs/wsdl_reader.cpp).
#pragma once

#include <string_view>

#include "codecs/service_contract.h"

namespace sb::rpc {

// Whether `uri` is XML Schema's namespace (2001, or the 1999/2000 drafts rpc/encoded still uses).
bool is_xsd_namespace(std::string_view uri);

// The type of the XML Schema built-in named `local` (in an XML Schema namespace, or SOAP-ENC's,
// which redeclares them), or nullptr when there is none by that name or it is xsd:anyType /
// xsd:anySimpleType (no type at all). int, short, byte, unsignedShort, unsignedByte: int;
// double, float: double; boolean; dateTime; base64Binary (SOAP-ENC base64); every other simple
// type, long, unsignedInt, integer and decimal included, is read as its text: the value model's
// integer is 32 bits and a double would round a decimal (docs/service.md, docs/your-messages.md).
const Type* xsd_builtin(std::string_view local);

// True for xsd:anyType and xsd:anySimpleType.
bool is_xsd_any(std::string_view local);

}  // namespace sb::rpc
