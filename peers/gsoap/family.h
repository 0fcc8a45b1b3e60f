// The SOAP families the gSOAP peer speaks: each a generated binding and a namespace table (the
// table's SOAP-ENV namespace makes gSOAP write SOAP 1.1 or SOAP 1.2).
#pragma once

#include <span>
#include <string_view>

#include "peers/gsoap/binding.h"

struct Namespace;

namespace sb::gsoap {

struct Family {
  std::string_view name;        // the corpus family, e.g. "soap11-rpc-encoded"
  const Binding& (*binding)();  // the generated code that speaks it
  const Namespace* namespaces;  // gSOAP's namespace table for it
  int output_mode;              // soap_set_omode flags it adds (SOAP_XML_DEFAULTNS)
};

// soap11-rpc-encoded, soap11-rpc-literal, soap11-doc-literal, soap12-doc-literal.
std::span<const Family> families();

// The family named `name`, or nullptr.
const Family* find_family(std::string_view name);

// "a, b, c": the family names, for help texts and errors.
std::string family_names();

}  // namespace sb::gsoap
