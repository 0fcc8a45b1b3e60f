// soapbench: the command line. Each subcommand lives in its own file; main only wires them.
#include <fmt/core.h>
#include <pthread.h>
#include <CLI/CLI.hpp>

#include <csignal>

#include "cli/commands.h"
#include "sb_version.h"

int main(int argc, char** argv) {
  // Output into a closed pipe (`soapbench list -v | head -5`) ends the process quietly with
  // SIGPIPE (status 141), as Unix tools do. Without this the write fails with EPIPE instead, fmt
  // throws and the process aborts: Poco's Foundation library blocks SIGPIPE in a static
  // initializer, and a parent may leave it ignored (both survive exec). Sockets are unaffected:
  // Asio sends with MSG_NOSIGNAL and reports EPIPE as an error code. Before any thread starts,
  // so every thread, and every child started, inherits it.
  std::signal(SIGPIPE, SIG_DFL);
  sigset_t pipe_signal;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_UNBLOCK, &pipe_signal, nullptr);
  CLI::App app{"soapbench: what the XML/JSON parser costs inside SOAP, XML-RPC and JSON-RPC calls"};
  app.set_version_flag("--version",
                       std::string("soapbench ") + SB_VERSION + " (git " + SB_GIT_SHA + ")");
  app.require_subcommand(0, 1);
  sb::cli::add_list_command(app);
  sb::cli::add_digest_command(app);
  sb::cli::add_decode_command(app);
  sb::cli::add_conformance_command(app);
  sb::cli::add_wsdl_command(app);
  sb::cli::add_call_command(app);
  sb::cli::add_serve_command(app);
  sb::cli::add_interop_command(app);
  sb::cli::add_load_command(app);
  sb::cli::add_record_command(app);
  sb::cli::add_compare_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // Bad flags: one line, exit 1 (docs/building.md), not CLI11's two lines and codes.
    fmt::print(stderr, "soapbench: {}\n", e.what());
    return 1;
  } catch (const sb::cli::ExitCode& e) {
    return e.code;
  }
  if (app.get_subcommands().empty()) fmt::print("{}", app.help());
  return 0;
}
