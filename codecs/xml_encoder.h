// encode_xml: the protocol logic of every XML family (docs/service.md "Wire formats"), written once
// over the XmlWriter call sequence. XML-RPC needs no contract; the SOAP families type their values
// by the service contract (xsi:type names, struct member types, the void result).
#pragma once

#include <string>

#include "codecs/family.h"
#include "codecs/service_contract.h"
#include "codecs/value.h"
#include "codecs/xml_writer.h"

namespace sb::rpc {

// Writes m as a message of the XML family f through w, into out (replaced). Returns false with a
// one-line reason in error when m cannot be written faithfully: NaN/infinity in XML-RPC, text XML
// cannot carry, an unknown method or a value that does not match the contract (SOAP), or a writer
// failure. Defined for Writer = DirectXmlWriter (statically dispatched) and Writer = XmlWriter
// (library writers, one virtual call per event); other instantiations do not link.
template <class Writer>
bool encode_xml(const Message& m, Family f, Writer& w, std::string& out, std::string& error,
                const Contract& contract = service_contract());

extern template bool encode_xml<DirectXmlWriter>(const Message&, Family, DirectXmlWriter&,
                                                 std::string&, std::string&, const Contract&);
extern template bool encode_xml<XmlWriter>(const Message&, Family, XmlWriter&, std::string&,
                                           std::string&, const Contract&);

}  // namespace sb::rpc
