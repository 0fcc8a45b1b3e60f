// WSDL 1.1 generated from the service contract (docs/service.md): what `GET /soap?wsdl` serves
// and `soapbench wsdl` prints. One document describes all four SOAP families of the corpus.
#pragma once

#include <string>
#include <string_view>

#include "codecs/service_contract.h"

namespace sb::rpc {

// The WSDL 1.1 document for `contract`: XML Schema types, messages, port types, one binding per
// SOAP family (document/literal wrapped 1.1 and 1.2, rpc/literal 1.1, rpc/encoded 1.1) and one
// service whose ports all sit at `base_url` + "/soap" (e.g. "http://127.0.0.1:8080"; a trailing
// '/' is dropped). The server tells the families apart by content type and body, not by address.
std::string generate_wsdl(const Contract& contract, std::string_view base_url);

// The query of the URL (on the WSDL's own address, base_url + "/soap?" + this) where the server
// serves soap_encoding_schema(): the WSDL imports SOAP-ENC from there, so that a consumer never
// has to fetch http://schemas.xmlsoap.org/soap/encoding/ from the internet.
inline constexpr std::string_view kSoapEncodingQuery = "xsd=soap-encoding";

// The part of the SOAP 1.1 encoding schema (namespace ns::soap11_enc) the WSDL's types use:
// soapenc:Array, soapenc:arrayType and the attributes a SOAP-ENC array and a multiRef carry.
std::string_view soap_encoding_schema();

}  // namespace sb::rpc
