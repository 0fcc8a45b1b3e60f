// soapbench wsdl: the WSDL the server publishes at GET /soap?wsdl, without running the server;
// with --check, what the suite can type from a user's WSDL (harness/wsdl_file.h).
#include <fmt/core.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "codecs/service_contract.h"
#include "codecs/wsdl.h"
#include "harness/wsdl_file.h"

namespace sb::cli {

namespace {

// Prints what load_wsdl made of `files`; exit status 1 when an operation was refused.
int check(const std::vector<std::string>& files) {
  rpc::WsdlReport report;
  try {
    load_wsdl(files, report);
  } catch (const std::exception& e) {
    fmt::print(stderr, "soapbench: wsdl: {}\n", e.what());
    return 1;
  }
  fmt::print("{} operation{} typed, {} refused\n", report.operations.size(),
             report.operations.size() == 1 ? "" : "s", report.refused.size());
  for (const std::string& line : report.operations) fmt::print("  {}\n", line);
  for (const std::string& line : report.refused) fmt::print("refused: {}\n", line);
  for (const std::string& line : report.notes) fmt::print("note: {}\n", line);
  return report.refused.empty() ? 0 : 1;
}

}  // namespace

void add_wsdl_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "wsdl", "Print the service's WSDL 1.1 document, or --check what a WSDL of yours types");
  // Static: CLI11 writes the option into it while parsing, the callback reads it afterwards.
  static std::string base_url = "http://127.0.0.1:8080";
  static std::vector<std::string> check_files;
  cmd->add_option("--base-url", base_url, "Server address the ports point at (+ /soap)")
      ->capture_default_str();
  cmd->add_option("--check", check_files,
                  "WSDL 1.1 files: list each SOAP operation with the types its messages decode "
                  "by, or why it cannot be typed (exit 1 then)")
      ->expected(1, -1);
  cmd->callback([] {
    if (!check_files.empty()) {
      if (const int code = check(check_files); code != 0) throw ExitCode{code};
      return;
    }
    fmt::print("{}", rpc::generate_wsdl(rpc::service_contract(), base_url));
  });
}

}  // namespace sb::cli
