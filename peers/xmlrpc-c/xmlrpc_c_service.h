// The service contract (docs/service.md) as xmlrpc-c methods: every XML-RPC operation with the
// rules of codecs/service_rules.h, on xmlrpc-c's own types. Faults: `fail` → 4; wrong params →
// xmlrpc-c's type fault (-501, its fault class carries only its own codes); an unknown method →
// xmlrpc-c's -506.
#pragma once

#include <xmlrpc-c/registry.hpp>

#include <filesystem>
#include <optional>

namespace sb::peers {

// The registry holding every operation. getChain answers `chain` (the stored document, decoded
// once) or, without one, an internal-error fault.
xmlrpc_c::registryPtr make_registry(const std::optional<xmlrpc_c::value>& chain);

// The corpus's XML-RPC getChain response decoded by xmlrpc-c
// (corpus_dir/xmlrpc/getChain.response.*); throws std::runtime_error when absent or not a response.
xmlrpc_c::value load_chain(const std::filesystem::path& corpus_dir);

}  // namespace sb::peers
