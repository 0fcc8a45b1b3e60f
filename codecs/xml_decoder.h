// XmlDecoder: the XML event sink of the `decode` level, for XML-RPC and SOAP 1.1/1.2 in all
// three styles. A small root: it detects the family from the root element and forwards every
// event to the protocol's decoder (XmlRpcDecoder or SoapDecoder) with a switch, so dispatch
// stays static. Written once against parsers/events.h, so every XML adapter drives the same
// codec (docs/architecture.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "codecs/decode.h"
#include "codecs/soap_decoder.h"
#include "codecs/value.h"
#include "codecs/xml_decode_session.h"
#include "codecs/xmlrpc_decoder.h"
#include "parsers/events.h"

namespace sb::rpc {

class XmlDecoder {
 public:
  explicit XmlDecoder(const Contract& contract = service_contract(), DecodeLimits limits = {});
  // The protocol decoders hold a reference to session_: not copyable or movable.
  XmlDecoder(const XmlDecoder&) = delete;
  XmlDecoder& operator=(const XmlDecoder&) = delete;

  // Prepares to decode one message into `out` (cleared here).
  void reset(const DecodeContext& context, Message* out);

  // Events (parsers/events.h). Each returns false once an error is recorded.
  bool start_element(std::string_view qname, XmlAttributes attributes);
  bool text(std::string_view chars);
  bool end_element(std::string_view qname);

  // Called after the parser finished without error: resolves multi-references and checks
  // that a whole message was seen. False on error.
  bool finish();

  // The first error recorded.
  const DecodeError& error() const { return session_.error; }
  // The family seen (valid once the operation element or XML-RPC root was read).
  Family family() const { return session_.family; }

 private:
  // Which protocol decoder receives the events.
  enum class Active : std::uint8_t { none, xmlrpc, soap };

  // Checks the attribute bounds every element must meet.
  bool within_limits(XmlAttributes attributes);
  // Detects the family from the root element and opens it in the chosen decoder.
  bool open_root(std::string_view qname, XmlAttributes attributes);

  DecodeLimits limits_;           // attribute bounds (the decoders keep the rest)
  XmlDecodeSession session_;      // context, output, family and error, shared
  XmlRpcDecoder xmlrpc_;          // decodes XML-RPC messages
  SoapDecoder soap_;              // decodes SOAP messages
  Active active_ = Active::none;  // the decoder chosen by the root element
  std::size_t depth_ = 0;         // elements open
  bool seen_root_ = false;        // a root element was opened
};

static_assert(XmlSink<XmlDecoder>);

}  // namespace sb::rpc
