// A user's WSDL 1.1 + XML Schema read into the same Contract our built-in service is
// (codecs/service_contract.h), so the decoders type its literal messages with no second path.
// The writer of our own WSDL is codecs/wsdl.h; docs/your-messages.md lists the subset.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "codecs/service_contract.h"
#include "codecs/xml_tree.h"

namespace sb::rpc {

// A WSDL that cannot be read at all (not WSDL 1.1, no SOAP binding, an import that fails).
class WsdlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads the document at `location` (a wsdl:import location, an xsd:import/include
// schemaLocation) named in the document whose path is `from`; throws WsdlError with one line.
// The tree must stay valid until read_wsdl returns.
using WsdlLoader =
    std::function<const XmlNode&(const std::string& from, const std::string& location)>;

// What read_wsdl found, one line each: for `soapbench wsdl --check` and compare's warnings.
struct WsdlReport {
  std::vector<std::string> operations;  // typed operations: "NAME  STYLE  call <E>(…) -> …"
  std::vector<std::string> refused;     // "NAME: why": operations outside the supported subset
  std::vector<std::string> notes;       // bindings skipped, lenient readings, duplicates
};

// The operations of every SOAP 1.1 and 1.2 binding of the WSDL 1.1 documents `roots` (read from
// `paths`, parallel), typed by their schemas: sequence, all, choice, element refs, nillable,
// minOccurs/maxOccurs (repeated elements are arrays), named and anonymous simple types and their
// restrictions (typed by their base; facets are not checked), unions of one kind or of a kind and
// string, complexContent extension, SOAP-ENC arrays. An operation that needs anything else is
// refused with the construct named (Contract::refusal), never guessed. The first binding that
// defines a Body element wins. Throws WsdlError when nothing can be read.
Contract read_wsdl(const std::vector<const XmlNode*>& roots, const std::vector<std::string>& paths,
                   const WsdlLoader& load, WsdlReport& report);

// How `soapbench wsdl --check` writes a type: "int", "Person", "ArrayOfInt (int[])", "string[]".
std::string describe_type(const Type& t);

}  // namespace sb::rpc
