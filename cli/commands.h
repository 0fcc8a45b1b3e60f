// Subcommand registration: each adds itself to the app and runs from its callback.
#pragma once

#include <CLI/CLI.hpp>

namespace sb::cli {

// Thrown from a subcommand to exit with a code after its own stderr message.
struct ExitCode {
  int code;  // process exit status
};

void add_list_command(CLI::App& app);
void add_digest_command(CLI::App& app);
void add_decode_command(CLI::App& app);
void add_conformance_command(CLI::App& app);
// soapbench wsdl [--base-url URL]: prints the WSDL 1.1 document.
void add_wsdl_command(CLI::App& app);
// soapbench call --url URL --protocol P METHOD [ARGS...]: one RPC through RpcClient.
void add_call_command(CLI::App& app);
// soapbench serve [--port N] [--parser NAME] [--tls] [limits…]: the RPC server until a signal.
void add_serve_command(CLI::App& app);
// soapbench interop [--only representative|all] [--json FILE] [PATHS…]: the interop matrix.
void add_interop_command(CLI::App& app);
// soapbench compare PATH... [--parser NAME] [--level L] [--wsdl FILE] [--icount]: your messages.
void add_compare_command(CLI::App& app);
// soapbench load --url URL --protocol P --call NAME (--connections N,… | --rate R,…): load points.
void add_load_command(CLI::App& app);
// soapbench record --upstream URL --out DIR [--listen ADDR]: the recording reverse proxy.
void add_record_command(CLI::App& app);

}  // namespace sb::cli
