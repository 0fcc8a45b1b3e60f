#include "codecs/xml_decoder.h"

#include <optional>
#include <string>

#include "codecs/xml_namespaces.h"

namespace sb::rpc {

XmlDecoder::XmlDecoder(const Contract& contract, Limits limits)
    : limits_(limits), xmlrpc_(session_), soap_(contract, limits, session_) {}

void XmlDecoder::reset(const DecodeContext& context, Message* out) {
  session_.context = context;
  session_.out = out;
  session_.out->clear();
  session_.error = {};
  session_.family = Family::xmlrpc;
  xmlrpc_.reset();
  soap_.reset(context.contract);
  active_ = Active::none;
  depth_ = 0;
  seen_root_ = false;
}

bool XmlDecoder::fail_limits(XmlAttributes attributes) {
  // The same attribute bounds the markup guard applies before slow libraries, so every adapter
  // rejects the same messages at the decode level.
  if (attributes.size() > limits_.max_attributes) {
    return session_.fail(fault::parse_error, "more than " + std::to_string(limits_.max_attributes) +
                                                 " attributes on one element");
  }
  return session_.fail(
      fault::parse_error,
      "an attribute value longer than " + std::to_string(limits_.max_attribute_bytes) + " bytes");
}

bool XmlDecoder::open_root(std::string_view qname, XmlAttributes attributes) {
  if (seen_root_) return session_.fail(fault::parse_error, "a second root element");
  seen_root_ = true;
  ++depth_;
  std::string_view prefix;
  const std::string_view local = local_part(qname, &prefix);
  const std::string_view uri = declared_in(attributes, prefix);  // the root's own declarations
  std::optional<Protocol> seen;
  if (local == "Envelope" && uri == ns::soap11_env) {
    seen = Protocol::soap11;
    session_.family = Family::soap11_rpc_literal;  // refined when the style shows
  } else if (local == "Envelope" && uri == ns::soap12_env) {
    seen = Protocol::soap12;
    session_.family = Family::soap12_doc_literal;
  } else if (uri.empty() && (local == "methodCall" || local == "methodResponse")) {
    seen = Protocol::xmlrpc;
    session_.family = Family::xmlrpc;
  } else {
    return session_.fail(fault::parse_error,
                         "not a SOAP envelope or XML-RPC message (root element <" +
                             std::string(local) + "> in namespace '" + std::string(uri) + "')");
  }
  const std::optional<Protocol>& expected = session_.context.protocol;
  if (expected && *expected != *seen) {
    return session_.fail(fault::parse_error, "expected a " + std::string(protocol_name(*expected)) +
                                                 " message, got " +
                                                 std::string(protocol_name(*seen)));
  }
  if (*seen == Protocol::xmlrpc) {
    active_ = Active::xmlrpc;
    xmlrpc_.open_root(local);
  } else {
    active_ = Active::soap;
    soap_.open_envelope(attributes);
  }
  return true;
}

bool XmlDecoder::fail_unbalanced() {
  return session_.fail(fault::parse_error, "unbalanced end tag");
}

bool XmlDecoder::finish() {
  if (session_.error.failed()) return false;
  // The root element closed without error: its decoder saw a whole message.
  if (!seen_root_ || depth_ != 0) return session_.fail(fault::parse_error, "incomplete message");
  switch (active_) {
    case Active::soap:
      return soap_.finish();
    case Active::xmlrpc:
      return xmlrpc_.finish();
    case Active::none:
      break;
  }
  return false;  // unreachable: seen_root_ without an error chose a decoder
}

}  // namespace sb::rpc
