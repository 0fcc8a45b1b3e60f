// The client side of soapbench.idl: a call of the contract made through omniORB's generated
// stubs, its answer as the suite's message (corba_client and stacks_bench's corba rows).
#pragma once

#include "codecs/value.h"
#include "soapbench.hh"

namespace sb::corba {

// Makes `request` (a call of the contract, params typed by it) on `service`; its answer, a
// fault for soapbench::Fault. getChain's result is the passed-through document as a string
// (chain_message decodes it). Throws std::invalid_argument for an operation soapbench.idl
// lacks; CORBA system exceptions (transport errors, timeouts) pass through.
rpc::Message call(soapbench::Service_ptr service, const rpc::Message& request);

// A getChain response holding the passed-through document: the document (a JSON-RPC response)
// decoded by the default JSON adapter; a fault with code -32700 when it does not decode. Other
// messages are returned unchanged.
rpc::Message chain_message(rpc::Message m);

}  // namespace sb::corba
