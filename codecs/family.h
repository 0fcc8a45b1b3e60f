// Protocol families (docs/service.md "Wire formats") and the protocol names the CLI uses.
#pragma once

#include <optional>
#include <string_view>

namespace sb::rpc {

enum class Family {
  xmlrpc,
  soap11_rpc_encoded,
  soap11_rpc_literal,
  soap11_doc_literal,
  soap12_doc_literal,
  jsonrpc,
};

// What --protocol names: a family up to the SOAP style, which decoders detect themselves.
enum class Protocol { xmlrpc, soap11, soap12, jsonrpc };

// Corpus names: "xmlrpc", "soap11-rpc-encoded", …, "jsonrpc".
std::string_view family_name(Family f);
std::optional<Family> family_from_name(std::string_view name);
// "xmlrpc", "soap11", "soap12", "jsonrpc".
std::string_view protocol_name(Protocol p);
std::optional<Protocol> protocol_from_name(std::string_view name);
Protocol protocol_of(Family f);
// Every family, corpus order.
inline constexpr Family kAllFamilies[] = {Family::xmlrpc,
                                          Family::soap11_rpc_encoded,
                                          Family::soap11_rpc_literal,
                                          Family::soap11_doc_literal,
                                          Family::soap12_doc_literal,
                                          Family::jsonrpc};
inline bool is_xml(Family f) { return f != Family::jsonrpc; }
inline bool is_soap(Family f) { return f != Family::jsonrpc && f != Family::xmlrpc; }

}  // namespace sb::rpc
