// The options naming a server and what to speak to it, shared by `soapbench call` and
// `soapbench load`: --url, --protocol, --style, and the family they choose.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "codecs/family.h"

namespace sb::cli {

// Adds --url (required), --protocol (required) and --style to `cmd`, written into the strings.
void add_target_options(CLI::App* cmd, std::string& url, std::string& protocol, std::string& style);

// The family --protocol and --style name (SOAP 1.1 defaults to doc-literal), or nullopt with
// `error` set.
std::optional<rpc::Family> family_of(const std::string& protocol, const std::string& style,
                                     std::string& error);

}  // namespace sb::cli
