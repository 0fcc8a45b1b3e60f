#include "codecs/family.h"

namespace sb::rpc {

std::string_view family_name(Family f) {
  switch (f) {
    case Family::xmlrpc:
      return "xmlrpc";
    case Family::soap11_rpc_encoded:
      return "soap11-rpc-encoded";
    case Family::soap11_rpc_literal:
      return "soap11-rpc-literal";
    case Family::soap11_doc_literal:
      return "soap11-doc-literal";
    case Family::soap12_doc_literal:
      return "soap12-doc-literal";
    case Family::jsonrpc:
      return "jsonrpc";
  }
  return "?";
}

std::optional<Family> family_from_name(std::string_view name) {
  for (Family f : kAllFamilies) {
    if (family_name(f) == name) return f;
  }
  return std::nullopt;
}

std::string_view protocol_name(Protocol p) {
  switch (p) {
    case Protocol::xmlrpc:
      return "xmlrpc";
    case Protocol::soap11:
      return "soap11";
    case Protocol::soap12:
      return "soap12";
    case Protocol::jsonrpc:
      return "jsonrpc";
  }
  return "?";
}

std::optional<Protocol> protocol_from_name(std::string_view name) {
  for (Protocol p : {Protocol::xmlrpc, Protocol::soap11, Protocol::soap12, Protocol::jsonrpc}) {
    if (protocol_name(p) == name) return p;
  }
  return std::nullopt;
}

Protocol protocol_of(Family f) {
  switch (f) {
    case Family::xmlrpc:
      return Protocol::xmlrpc;
    case Family::soap12_doc_literal:
      return Protocol::soap12;
    case Family::jsonrpc:
      return Protocol::jsonrpc;
    default:
      return Protocol::soap11;
  }
}

}  // namespace sb::rpc
