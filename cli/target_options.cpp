#include "cli/target_options.h"

namespace sb::cli {

void add_target_options(CLI::App* cmd, std::string& url, std::string& protocol,
                        std::string& style) {
  cmd->add_option("--url", url,
                  "The endpoint's URL, http(s)://host[:port][/path]; without a path, the "
                  "family's path on soapbench serve (/RPC2, /soap, /jsonrpc)")
      ->required();
  cmd->add_option("--protocol", protocol, "Protocol to speak")
      ->required()
      ->check(CLI::IsMember({"xmlrpc", "soap11", "soap12", "jsonrpc"}));
  cmd->add_option("--style", style, "SOAP style (default doc-literal)")
      ->check(CLI::IsMember({"rpc-encoded", "rpc-literal", "doc-literal"}));
}

std::optional<rpc::Family> family_of(const std::string& protocol, const std::string& style,
                                     std::string& error) {
  if (protocol == "xmlrpc" || protocol == "jsonrpc") {
    if (!style.empty()) {
      error = "--style applies to SOAP only";
      return std::nullopt;
    }
    return protocol == "xmlrpc" ? rpc::Family::xmlrpc : rpc::Family::jsonrpc;
  }
  // Document/literal wrapped by default: the WS-I style, and the only one SOAP 1.2 has here.
  const std::string s = style.empty() ? "doc-literal" : style;
  if (protocol == "soap12") {
    if (s != "doc-literal") {
      error = "SOAP 1.2 is doc-literal only";
      return std::nullopt;
    }
    return rpc::Family::soap12_doc_literal;
  }
  if (s == "rpc-encoded") return rpc::Family::soap11_rpc_encoded;
  if (s == "rpc-literal") return rpc::Family::soap11_rpc_literal;
  return rpc::Family::soap11_doc_literal;
}

}  // namespace sb::cli
