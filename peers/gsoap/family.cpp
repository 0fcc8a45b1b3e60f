#include "peers/gsoap/family.h"

#include <stdsoap2.h>

#include <string>

// The runtime library (libgsoap++) reads this global table when a context starts; every context
// here is given its family's table (soap_set_namespaces) before use.
SOAP_NMAC struct Namespace namespaces[] = {
    {"SOAP-ENV", "http://schemas.xmlsoap.org/soap/envelope/", "http://www.w3.org/*/soap-envelope",
     nullptr},
    {"SOAP-ENC", "http://schemas.xmlsoap.org/soap/encoding/", "http://www.w3.org/*/soap-encoding",
     nullptr},
    {"xsi", "http://www.w3.org/2001/XMLSchema-instance", "http://www.w3.org/*/XMLSchema-instance",
     nullptr},
    {"xsd", "http://www.w3.org/2001/XMLSchema", "http://www.w3.org/*/XMLSchema", nullptr},
    {"ex", "urn:demo1:exchange", nullptr, nullptr},
    {"ns", "urn:soapbench", nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr}};

namespace sb::gsoap {

namespace {

// SOAP 1.2: the same table with the SOAP 1.2 envelope and encoding first (what gSOAP writes);
// like the 1.1 table it reads either version (the pattern column), as soapcpp2's tables do.
const Namespace kSoap12[] = {
    {"SOAP-ENV", "http://www.w3.org/2003/05/soap-envelope",
     "http://schemas.xmlsoap.org/soap/envelope/", nullptr},
    {"SOAP-ENC", "http://www.w3.org/2003/05/soap-encoding",
     "http://schemas.xmlsoap.org/soap/encoding/", nullptr},
    {"xsi", "http://www.w3.org/2001/XMLSchema-instance", "http://www.w3.org/*/XMLSchema-instance",
     nullptr},
    {"xsd", "http://www.w3.org/2001/XMLSchema", "http://www.w3.org/*/XMLSchema", nullptr},
    {"ex", "urn:demo1:exchange", nullptr, nullptr},
    {"ns", "urn:soapbench", nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr}};

// Document/literal writes the wrapper in the default namespace (<add xmlns="urn:soapbench">), as
// the corpus does: a prefixed wrapper without children (a call of boolean, now, getChain) cannot
// be told from rpc/literal, and `soapbench serve` answers it in rpc/literal.
const Family kFamilies[] = {
    {"soap11-rpc-encoded", rpc_encoded_binding, namespaces, 0},
    {"soap11-rpc-literal", rpc_literal_binding, namespaces, 0},
    {"soap11-doc-literal", doc_literal_binding, namespaces, SOAP_XML_DEFAULTNS},
    {"soap12-doc-literal", doc_literal_binding, kSoap12, SOAP_XML_DEFAULTNS},
};

}  // namespace

std::span<const Family> families() { return kFamilies; }

const Family* find_family(std::string_view name) {
  for (const Family& f : kFamilies) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::string family_names() {
  std::string out;
  for (const Family& f : kFamilies) out += (out.empty() ? "" : ", ") + std::string(f.name);
  return out;
}

}  // namespace sb::gsoap
