// soapbench wsdl: the WSDL the server publishes at GET /soap?wsdl, without running the server.
#include <fmt/core.h>

#include <string>

#include "cli/commands.h"
#include "codecs/service_contract.h"
#include "codecs/wsdl.h"

namespace sb::cli {

void add_wsdl_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("wsdl", "Print the service's WSDL 1.1 document");
  // Static: CLI11 writes the option into it while parsing, the callback reads it afterwards.
  static std::string base_url = "http://127.0.0.1:8080";
  cmd->add_option("--base-url", base_url, "Server address the ports point at (+ /soap)")
      ->capture_default_str();
  cmd->callback([] { fmt::print("{}", rpc::generate_wsdl(rpc::service_contract(), base_url)); });
}

}  // namespace sb::cli
