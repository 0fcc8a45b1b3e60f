// soapbench call: one RPC (or --repeat N) through RpcClient; prints the response's canonical JSON
// and, with --timing, a JSON line with the client-side phases and the wire bytes.
#include <fmt/core.h>

#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/target_options.h"
#include "client/http_client.h"
#include "codecs/canonical_json.h"
#include "codecs/family.h"
#include "harness/call_args.h"

namespace sb::cli {

namespace {

using rpc::Value;

// The one --timing line: a JSON object, so scripts can read it.
std::string timing_line(const CallResult& r) {
  return fmt::format(
      "{{\"timing\":{{\"encode_ns\":{},\"decode_ns\":{},\"total_ns\":{}}},"
      "\"wire\":{{\"sent\":{},\"received\":{}}},\"http_status\":{},\"connected\":{},"
      "\"tls_resumed\":{}}}",
      r.timing.encode_ns, r.timing.decode_ns, r.timing.total_ns, r.wire.sent, r.wire.received,
      r.http_status, r.connected, r.tls_resumed);
}

}  // namespace

void add_call_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "call",
      "Make one RPC against a server of the contract (soapbench serve, a peer, a service at "
      "its own path) and print the response's canonical JSON: call [OPTIONS] METHOD [ARGS...]");
  // Static: CLI11 writes the options while parsing, the callback reads them afterwards.
  static ClientConfig config;
  static std::string protocol;
  static std::string style;
  static bool no_keep_alive = false;
  static int repeat = 1;
  static bool timing = false;
  static std::string method;
  static std::vector<std::string> args;
  add_target_options(cmd, config.url, protocol, style);
  cmd->add_option("--parser", config.parser,
                  "Adapter decoding the response (jsonrpc: a JSON one, else rapidjson/dom)")
      ->capture_default_str();
  cmd->add_option("--encoder", config.encoder, "Encoder writing the request (harness/encoders.h)")
      ->capture_default_str();
  cmd->add_option("--server-parser", config.server_parser,
                  "Sent as X-Parser: the server's adapter");
  cmd->add_flag("--no-keep-alive", no_keep_alive, "A new connection per call");
  cmd->add_option("--repeat", repeat, "Make the call N times (one output line per call)")
      ->check(CLI::Range(1, 1'000'000))
      ->capture_default_str();
  cmd->add_flag("--timing", timing,
                "After each response, a JSON line: client phases (ns), wire bytes, connection");
  cmd->add_option("method", method, "Operation name (docs/service.md)")->required();
  // ARGS are taken as extras, not as a vector positional: CLI11 splits a vector value written
  // "[a,b]" into its items (breaking JSON arrays) and reads "-1" as an unknown option.
  cmd->allow_extras();
  cmd->footer(
      "ARGS: the operation's parameters as JSON values, typed by the contract: 2, 1.5, "
      "\"text\", [1,2], {\"id\":1,...}; a dateTime or base64 param takes its text form.");
  cmd->callback([cmd] {
    args = cmd->remaining();
    for (const std::string& a : args) {
      if (a.starts_with("--")) {  // a negative number has one dash; two mean a mistyped option
        fmt::print(stderr, "soapbench: call: unknown option {}\n", a);
        throw ExitCode{1};
      }
    }
    std::string error;
    const std::optional<rpc::Family> family = family_of(protocol, style, error);
    if (!family) {
      fmt::print(stderr, "soapbench: call: {}\n", error);
      throw ExitCode{1};
    }
    config.family = *family;
    config.keep_alive = !no_keep_alive;

    rpc::Message request;
    request.kind = rpc::MessageKind::call;
    request.method = method;
    request.params = typed_call_params(method, args, error);
    if (!error.empty()) {
      fmt::print(stderr, "soapbench: call {}: {}\n", method, error);
      throw ExitCode{1};
    }

    RpcClient client(config);
    int exit_code = 0;
    for (int i = 0; i < repeat; ++i) {
      CallResult r = client.call(request);
      if (!r.ok) {
        fmt::print(stderr, "soapbench: call {} at {}: {}\n", method, config.url, r.error);
        throw ExitCode{1};
      }
      fmt::print("{}\n", rpc::to_canonical_json(r.response));
      if (timing) fmt::print("{}\n", timing_line(r));
      exit_code = r.response.kind == rpc::MessageKind::fault ? 2 : 0;
    }
    std::fflush(stdout);
    if (exit_code != 0) throw ExitCode{exit_code};
  });
}

}  // namespace sb::cli
