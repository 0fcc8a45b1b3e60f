// soapbench wsdl: the WSDL the server publishes at GET /soap?wsdl, without running the server;
// with --check, what the suite can type from a user's WSDL (harness/wsdl_file.h).
#include <fmt/core.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/repeatable_option.h"
#include "codecs/service_contract.h"
#include "codecs/wsdl.h"
#include "harness/wsdl_file.h"

namespace sb::cli {

namespace {

// Prints what load_wsdl made of `files`; exit status 1 when an operation was refused or none
// was typed (a WSDL with no SOAP operation, or a file that is not the service's: nothing of it
// can type a message, which a script checking a WSDL must see).
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
  if (report.operations.empty()) {
    fmt::print(stderr, "soapbench: wsdl: no SOAP operation typed\n");
    return 1;
  }
  return report.refused.empty() ? 0 : 1;
}

}  // namespace

void add_wsdl_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "wsdl", "Print the service's WSDL 1.1 document, or --check what a WSDL of yours types");
  // Static: CLI11 writes the option into it while parsing, the callback reads it afterwards.
  static std::string base_url = "http://127.0.0.1:8080";
  static bool check_wanted = false;
  static std::vector<std::string> files;
  cmd->add_option("--base-url", base_url, "Server address the ports point at (+ /soap)")
      ->capture_default_str();
  // A flag, the files positional: `wsdl --check a.wsdl b.wsdl` as before, and no option can
  // take a file for its value or a file for an option's.
  cmd->add_flag("--check", check_wanted,
                "Read the WSDL 1.1 files given: list each "
                "SOAP operation with the types its messages decode by, or why it cannot be typed "
                "(exit 1 then, and when no operation is typed)");
  cmd->add_option("files", files, "WSDL files for --check");
  cmd->callback([] {
    if (check_wanted) {
      if (files.empty()) throw CLI::ValidationError("--check", "names no WSDL file");
      if (const int code = check(files); code != 0) throw ExitCode{code};
      return;
    }
    if (!files.empty()) throw CLI::ValidationError("files", "WSDL files are read by --check");
    fmt::print("{}", rpc::generate_wsdl(rpc::service_contract(), base_url));
  });
}

}  // namespace sb::cli
