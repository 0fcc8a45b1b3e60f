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
// serves served_schema(kSoapEncodingQuery): the WSDL imports SOAP-ENC from there, so that a
// consumer never has to fetch http://schemas.xmlsoap.org/soap/encoding/ from the internet.
inline constexpr std::string_view kSoapEncodingQuery = "xsd=soap-encoding";

// The schema the server serves at "/soap?" + query, or empty: kSoapEncodingQuery gives the part
// of the SOAP 1.1 encoding schema (namespace ns::soap11_enc) the WSDL's types use (soapenc:Array,
// soapenc:arrayType, the attributes of arrays and multiRefs); "xsd=soap-encoding-items", which
// that one imports, the model group of soapenc:Array (see wsdl.cpp for why it lives apart).
std::string_view served_schema(std::string_view query);

}  // namespace sb::rpc
