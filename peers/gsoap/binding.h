// One gSOAP-generated binding of the soapbench service, behind a plain interface: soapcpp2 runs
// once per binding (binding_*.h) into its own C++ namespace (enc, rlit, doc), and binding.cpp,
// compiled once per namespace, fills this table. The SOAP families map onto them in family.h.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/value.h"

struct soap;

namespace sb::gsoap {

// One operation of the contract through the generated code.
struct Operation {
  const char* name;  // contract name, e.g. "getRate"
  // Client: calls the operation at url with params typed by the contract (the generated
  // soap_call_*); on SOAP_OK fills result. Returns the gSOAP error code.
  int (*call)(soap* s, const char* url, const std::vector<rpc::Value>& params, rpc::Value& result);
  // Reads a whole request message from memory into the generated request struct, as soap_serve
  // does (context.h read_message); when params is not null, converts it to the contract's values.
  // Returns the gSOAP error code.
  int (*read_call)(soap* s, std::string_view message, std::vector<rpc::Value>* params);
  // Reads a whole response message into the generated response struct, as the client stub does;
  // when result is not null, converts it.
  int (*read_response)(soap* s, std::string_view message, rpc::Value* result);
};

// A generated binding: its operations and server entry point.
struct Binding {
  std::string_view name;                  // "enc", "rlit" or "doc" (the soapcpp2 -q namespace)
  std::span<const Operation> operations;  // every operation of the contract
  int (*serve)(soap* s);                  // the generated soap_serve (keep-alive loop)
  // Reads a getChain response message (the corpus document) into generated types held by s, for
  // the server's getChain to return; s must stay alive while the server runs.
  int (*load_chain)(soap* s, std::string_view message);
};

const Binding& rpc_encoded_binding();  // soapcpp2 -qenc: binding_rpc_encoded.h
const Binding& rpc_literal_binding();  // soapcpp2 -qrlit: binding_rpc_literal.h
const Binding& doc_literal_binding();  // soapcpp2 -qdoc: binding_doc_literal.h

// The operation named `name` of b, or nullptr.
inline const Operation* find_operation(const Binding& b, std::string_view name) {
  for (const Operation& op : b.operations) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

}  // namespace sb::gsoap
