// XmlDecoder: the XML event sink of the `decode` level, for XML-RPC and SOAP 1.1/1.2 in all
// three styles. A small root: it detects the family from the root element and forwards every
// event to the protocol's decoder (XmlRpcDecoder or SoapDecoder) with a switch, so dispatch
// stays static. Written once against core/events.h, so every XML adapter drives the same
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
#include "core/events.h"

namespace sb::rpc {

class XmlDecoder {
 public:
  explicit XmlDecoder(const Contract& contract = service_contract(), Limits limits = {});
  // The protocol decoders hold a reference to session_: not copyable or movable.
  XmlDecoder(const XmlDecoder&) = delete;
  XmlDecoder& operator=(const XmlDecoder&) = delete;

  // Prepares to decode one message into `out` (cleared here).
  void reset(const DecodeContext& context, Message* out);

  // Events (core/events.h). Each returns false once an error is recorded.
  // An element opens: the root chooses the decoder, the others are forwarded to it.
  bool start_element(std::string_view qname, XmlAttributes attributes);
  // Character data: forwarded inside the root element, ignored outside.
  bool text(std::string_view chars);
  // An element closes: forwarded to the chosen decoder.
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

  // Records which attribute bound `attributes` exceed.
  bool fail_limits(XmlAttributes attributes);
  // Detects the family from the root element (the first only) and opens it in its decoder.
  bool open_root(std::string_view qname, XmlAttributes attributes);
  // An unbalanced end tag.
  bool fail_unbalanced();

  Limits limits_;                 // attribute bounds (the decoders keep the rest)
  XmlDecodeSession session_;      // context, output, family and error, shared
  XmlRpcDecoder xmlrpc_;          // decodes XML-RPC messages
  SoapDecoder soap_;              // decodes SOAP messages
  Active active_ = Active::none;  // the decoder chosen by the root element
  std::size_t depth_ = 0;         // elements open
  bool seen_root_ = false;        // a root element was opened
};

// The events are inline: an adapter's call lands in the chosen decoder directly, as before
// the split (one out-of-line call per event).
inline bool XmlDecoder::start_element(std::string_view qname, XmlAttributes attributes) {
  if (session_.error.failed()) return false;
  if (attributes.size() > limits_.max_attributes) return fail_limits(attributes);
  for (const XmlAttribute& a : attributes) {
    if (a.value.size() > limits_.max_attribute_bytes) return fail_limits(attributes);
  }
  if (depth_ == 0) return open_root(qname, attributes);
  ++depth_;
  switch (active_) {
    case Active::soap:
      return soap_.start_element(qname, attributes);
    case Active::xmlrpc:
      return xmlrpc_.start_element(qname);
    case Active::none:
      break;
  }
  return false;  // unreachable: a failed root recorded an error
}

inline bool XmlDecoder::text(std::string_view chars) {
  if (session_.error.failed()) return false;
  if (depth_ == 0) return true;  // outside the root element
  switch (active_) {
    case Active::soap:
      return soap_.text(chars);
    case Active::xmlrpc:
      return xmlrpc_.text(chars);
    case Active::none:
      break;
  }
  return false;  // unreachable: a failed root recorded an error
}

inline bool XmlDecoder::end_element(std::string_view qname) {
  if (session_.error.failed()) return false;
  if (depth_ == 0) return fail_unbalanced();
  --depth_;
  switch (active_) {
    case Active::soap:
      return soap_.end_element(qname);
    case Active::xmlrpc:
      return xmlrpc_.end_element();
    case Active::none:
      break;
  }
  return false;  // unreachable: a failed root recorded an error
}

static_assert(XmlSink<XmlDecoder>);

}  // namespace sb::rpc
