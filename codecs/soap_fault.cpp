// SoapDecoder's faults: SOAP 1.1's Fault (section 4.4: faultcode, faultstring, faultactor, detail,
// unqualified; others namespace-qualified and skipped) and SOAP 1.2's (Part 1 section 5.4: Code,
// Reason, Node, Role, Detail, in that order, in the envelope namespace). The message is the
// faultstring or the first Reason/Text; the code is the integer `code` of a detail entry
// (soapbench's own faults), else 0.
#include <string>

#include "codecs/scalars.h"
#include "codecs/soap_decoder.h"

namespace sb::rpc {

namespace {

// SOAP 1.2's Fault children in their order (Part 1 section 5.4), as bits of fault_parts_.
constexpr std::string_view kSoap12Parts[] = {"Code", "Reason", "Node", "Role", "Detail"};
// SOAP 1.1's, in fault_parts_ too.
constexpr std::string_view kSoap11Parts[] = {"faultcode", "faultstring", "faultactor", "detail"};

int part_of(std::span<const std::string_view> parts, std::string_view local) {
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i] == local) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

bool SoapDecoder::open_fault_part(std::string_view local, std::string_view uri) {
  const bool soap12 = session_.family == Family::soap12_doc_literal;
  if (!soap12 && !uri.empty()) {  // another namespace's own entry: allowed, skipped
    frames_.push_back({Frame::skip});
    return true;
  }
  const int part = soap12 && uri == ns::soap12_env ? part_of(kSoap12Parts, local)
                   : !soap12                       ? part_of(kSoap11Parts, local)
                                                   : -1;
  if (part < 0 && !soap12) {  // another unqualified child (Axis's <faultfactor>): skipped
    frames_.push_back({Frame::skip});
    return true;
  }
  if (part < 0) {
    return session_.unexpected("element <" + std::string(local) + ">",
                               "a SOAP 1.2 Fault (Code, Reason, Node, Role, Detail)");
  }
  const unsigned bit = 1u << part;
  if (soap12 && fault_parts_ >= bit) {  // this one, or a later one, was seen
    return session_.fail(fault::parse_error,
                         "SOAP 1.2 Fault children out of the order Part 1 section 5.4 requires "
                         "(Code, Reason, Node, Role, Detail): <" +
                             std::string(local) + "> after a later one");
  }
  if (fault_parts_ & bit) {
    return session_.fail(fault::parse_error, "<" + std::string(local) + "> twice in a Fault");
  }
  fault_parts_ |= bit;
  Frame frame = Frame::skip;  // faultcode, faultactor, Code, Node, Role
  if (local == "faultstring") {
    frame = Frame::fault_string;
    text_.clear();
  } else if (local == "Reason") {
    frame = Frame::fault_reason;
  } else if (local == "detail" || local == "Detail") {
    frame = Frame::fault_detail;
  }
  frames_.push_back({frame});
  return true;
}

bool SoapDecoder::open_in_fault(const FrameState& parent, std::string_view local,
                                std::string_view uri) {
  Frame frame = Frame::skip;  // other Reason texts, a detail entry's other children
  switch (parent.frame) {
    case Frame::fault:
      return open_fault_part(local, uri);
    case Frame::fault_reason:
      if (local == "Text" && uri == ns::soap12_env && session_.out->fault_message.empty()) {
        frame = Frame::fault_string;
      }
      break;
    case Frame::fault_detail:
      frame = Frame::fault_detail_entry;
      break;
    default:  // fault_detail_entry
      if (local == "code") frame = Frame::fault_detail_code;
      break;
  }
  if (frame == Frame::fault_string || frame == Frame::fault_detail_code) text_.clear();
  frames_.push_back({frame});
  return true;
}

bool SoapDecoder::close_fault() {
  const bool soap12 = session_.family == Family::soap12_doc_literal;
  const unsigned required = 0b11;  // faultcode and faultstring; Code and Reason
  if ((fault_parts_ & required) != required) {
    return session_.fail(fault::parse_error,
                         soap12 ? "a SOAP 1.2 Fault needs env:Code and env:Reason"
                                : "a SOAP 1.1 Fault needs faultcode and faultstring (unqualified)");
  }
  // Another stack's detail may hold a `code` that is no integer: not ours, so no code (0).
  if (const auto code = parse_int32(fault_code_text_)) session_.out->fault_code = *code;
  return true;
}

}  // namespace sb::rpc
