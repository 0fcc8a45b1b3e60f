// soapbench call: one RPC (or --repeat N; with --batch N each a JSON-RPC 2.0 batch of N copies)
// through RpcClient; prints the response's canonical JSON and, with --timing, a JSON line with
// the client-side phases and the wire bytes. With --wsdl, an operation of the user's own
// service, typed and bound as its WSDL 1.1 says.
#include <fmt/core.h>

#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/repeatable_option.h"
#include "cli/target_options.h"
#include "client/http_client.h"
#include "codecs/canonical_json.h"
#include "codecs/family.h"
#include "codecs/wsdl_reader.h"
#include "core/limits.h"
#include "harness/call_args.h"
#include "harness/encoders.h"
#include "harness/wsdl_file.h"

namespace sb::cli {

namespace {

using rpc::Value;

// `call --wsdl`: the user's contract and the operation's binding, read from the WSDL.
struct WsdlTarget {
  rpc::Contract contract;              // the WSDL's operations
  const rpc::Operation* op = nullptr;  // the one called
};

// Prints `soapbench: call: <message>` and ends the command with exit status 1 (a usage error,
// as every command's bad flags).
[[noreturn]] void call_usage_error(const std::string& message) {
  fmt::print(stderr, "soapbench: call: {}\n", message);
  throw ExitCode{1};
}

// The family our encoders write for the operation's WSDL binding, or nullopt with `error`.
std::optional<rpc::Family> wsdl_binding_family(const rpc::Operation& op, std::string& error) {
  const rpc::Operation::Binding& b = op.binding;
  const bool rpc = b.style == "rpc";
  const bool encoded = b.use == "encoded";
  if (b.soap_version == "1.2" && !rpc && !encoded) return rpc::Family::soap12_doc_literal;
  if (b.soap_version == "1.1" && rpc) {
    return encoded ? rpc::Family::soap11_rpc_encoded : rpc::Family::soap11_rpc_literal;
  }
  if (b.soap_version == "1.1" && !encoded) return rpc::Family::soap11_doc_literal;
  error = fmt::format(
      "{}: SOAP {} {}/{} binding: soapbench writes SOAP 1.1 rpc/encoded, "
      "rpc/literal, document/literal and SOAP 1.2 document/literal",
      op.name, b.soap_version, b.style, b.use);
  return std::nullopt;
}

// The WSDL's contract and the operation `method`; exits 1 naming the problem.
void load_wsdl_target(const std::vector<std::string>& paths, const std::string& method,
                      WsdlTarget& target) {
  rpc::WsdlReport report;
  try {
    target.contract = load_wsdl(paths, report);
  } catch (const std::exception& e) {
    call_usage_error(e.what());
  }
  target.op = target.contract.find(method);
  if (target.op != nullptr) return;
  if (const std::string_view why = target.contract.refusal(method); !why.empty()) {
    call_usage_error(
        fmt::format("{}: the WSDL's operation is outside what soapbench reads: {}", method, why));
  }
  std::string names;
  for (const rpc::Operation& op : target.contract.operations()) {
    names += (names.empty() ? "" : ", ") + std::string(op.name);
  }
  call_usage_error(fmt::format("no operation {} in the WSDL (its operations: {})", method,
                               names.empty() ? "none that soapbench reads" : names));
}

// "a: int, b: string?": the operation's params, for argument errors.
std::string wsdl_signature(const rpc::Operation& op) {
  std::string s;
  for (const rpc::Param& p : op.params) {
    s += (s.empty() ? "" : ", ") + std::string(p.name) + ": " + rpc::describe_type(*p.type) +
         (p.optional ? "?" : "");
  }
  return std::string(op.name) + "(" + s + ")";
}

// The call's params from ARGS, typed by the WSDL; exits 1 when there are too many or too few
// or one is not of its param's type (checked by writing the request once).
std::vector<rpc::Value> wsdl_call_params(const WsdlTarget& t, rpc::Family family,
                                         const std::vector<std::string>& args) {
  const rpc::Operation& op = *t.op;
  std::size_t required = 0;
  for (const rpc::Param& p : op.params) required += p.optional ? 0 : 1;
  if (args.size() > op.params.size() || args.size() < required) {
    call_usage_error(fmt::format(
        "{} takes {} argument{}, got {}: {}", op.name,
        required == op.params.size() ? std::to_string(required)
                                     : fmt::format("{} to {}", required, op.params.size()),
        op.params.size() == 1 ? "" : "s", args.size(), wsdl_signature(op)));
  }
  std::string error;
  rpc::Message m;
  m.kind = rpc::MessageKind::call;
  m.method = std::string(op.name);
  m.params = typed_call_params(m.method, args, error, &t.contract);
  std::string body;
  Encoder direct(*find_encoder("direct"));
  if (error.empty()) direct.encode(m, family, body, error, {}, t.contract);
  if (!error.empty())
    call_usage_error(fmt::format("{}: {}: {}", op.name, error, wsdl_signature(op)));
  return std::move(m.params);
}

// Configures `config` and `request` for `call --wsdl`: family, URL (--url, else the binding's
// soap:address), contract, params.
void prepare_wsdl_call(const std::vector<std::string>& args, WsdlTarget& t, ClientConfig& config,
                       rpc::Message& request) {
  std::string error;
  const std::optional<rpc::Family> family = wsdl_binding_family(*t.op, error);
  if (!family) call_usage_error(error);
  if (config.url.empty()) config.url = std::string(t.op->binding.address);
  if (config.url.empty()) {
    call_usage_error(
        fmt::format("{}: the WSDL gives its binding no soap:address: give --url", t.op->name));
  }
  config.family = *family;
  config.contract = &t.contract;
  request.params = wsdl_call_params(t, *family, args);
}

// Configures `config` and `request` for a call of our own contract (--url, --protocol).
void prepare_contract_call(const std::string& protocol, const std::string& style,
                           const std::vector<std::string>& args, ClientConfig& config,
                           rpc::Message& request) {
  if (config.url.empty() || protocol.empty()) {
    call_usage_error(std::string(config.url.empty() ? "--url" : "--protocol") +
                     " is required (or --wsdl FILE)");
  }
  std::string error;
  const std::optional<rpc::Family> family = family_of(protocol, style, error);
  if (!family) call_usage_error(error);
  config.family = *family;
  request.params = typed_call_params(request.method, args, error);
  if (!error.empty()) {
    fmt::print(stderr, "soapbench: call {}: {}\n", request.method, error);
    throw ExitCode{1};
  }
}

// The one --timing line: a JSON object, so scripts can read it.
std::string timing_line(const CallResult& r) {
  return fmt::format(
      "{{\"timing\":{{\"encode_ns\":{},\"decode_ns\":{},\"total_ns\":{}}},"
      "\"wire\":{{\"sent\":{},\"received\":{}}},\"http_status\":{},\"connected\":{},"
      "\"tls_resumed\":{}}}",
      r.timing.encode_ns, r.timing.decode_ns, r.timing.total_ns, r.wire.sent, r.wire.received,
      r.http_status, r.connected, r.tls_resumed);
}

// Whether the answer is a fault or, a batch, holds one.
bool has_fault(const rpc::Message& m) {
  if (m.kind == rpc::MessageKind::fault) return true;
  for (const rpc::Message& answer : m.batch) {
    if (answer.kind == rpc::MessageKind::fault) return true;
  }
  return false;
}

// Makes the call `repeat` times (each a JSON-RPC batch of `batch` copies of it when batch > 0),
// printing each response (and --timing line); exits 1 when a call fails, 2 when the last
// response is or holds a fault.
void run_calls(const ClientConfig& config, const rpc::Message& request, int repeat, int batch,
               bool timing) {
  RpcClient client(config);
  const std::vector<BatchMember> members(static_cast<std::size_t>(batch), BatchMember{request});
  int exit_code = 0;
  for (int i = 0; i < repeat; ++i) {
    CallResult r = batch > 0 ? client.call_batch(members) : client.call(request);
    if (!r.ok) {
      fmt::print(stderr, "soapbench: call {} at {}: {}\n", request.method, config.url, r.error);
      throw ExitCode{1};
    }
    fmt::print("{}\n", rpc::to_canonical_json(r.response));
    if (timing) fmt::print("{}\n", timing_line(r));
    exit_code = has_fault(r.response) ? 2 : 0;
  }
  std::fflush(stdout);
  if (exit_code != 0) throw ExitCode{exit_code};
}

}  // namespace

void add_call_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "call",
      "Make one RPC against a server of the contract (soapbench serve, a peer, a service at "
      "its own path), or an operation of a WSDL (--wsdl), and print the response's canonical "
      "JSON: call [OPTIONS] METHOD [ARGS...]");
  // Static: CLI11 writes the options while parsing, the callback reads them afterwards.
  static ClientConfig config;
  static std::string protocol;
  static std::string style;
  static bool no_keep_alive = false;
  static int repeat = 1;
  static bool timing = false;
  static int batch = 0;
  static std::string method;
  static std::vector<std::string> args;
  static std::vector<std::string> wsdl;
  add_target_options(cmd, config.url, protocol, style);
  // With --wsdl the WSDL names the protocol and style, and its soap:address the URL.
  cmd->get_option("--url")->required(false);
  cmd->get_option("--protocol")->required(false);
  add_repeatable_option(cmd, "--wsdl", wsdl,
                        "WSDL 1.1 file of the service called (more: files it does not import): "
                        "the operation's binding (SOAP version, style, use), SOAPAction and "
                        "types come from it, the URL from its soap:address unless --url; not "
                        "with --protocol/--style")
      ->excludes("--protocol")
      ->excludes("--style");
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
  cmd->add_option("--batch", batch,
                  "JSON-RPC: send the call N times as one JSON-RPC 2.0 batch (ids 1..N) and print "
                  "the batch of answers, in the calls' order")
      ->check(CLI::Range(1, static_cast<int>(Limits{}.max_members)));
  cmd->add_flag("--timing", timing,
                "After each response, a JSON line: client phases (ns), wire bytes, connection");
  cmd->add_option("method", method, "Operation name (docs/service.md, or the WSDL's)")->required();
  // ARGS are taken as extras, not as a vector positional: CLI11 splits a vector value written
  // "[a,b]" into its items (breaking JSON arrays) and reads "-1" as an unknown option.
  cmd->allow_extras();
  cmd->footer(
      "ARGS: the operation's parameters as JSON values, typed by the contract: 2, 1.5, "
      "\"text\", [1,2], {\"id\":1,...}; a dateTime or base64 param takes its text form. "
      "With --wsdl, typed by the operation's input parts (rpc) or its wrapper element's children "
      "(document), in order.");
  cmd->callback([cmd] {
    args = cmd->remaining();
    for (const std::string& a : args) {
      if (a.starts_with("--")) {  // a negative number has one dash; two mean a mistyped option
        fmt::print(stderr, "soapbench: call: unknown option {}\n", a);
        throw ExitCode{1};
      }
    }
    config.keep_alive = !no_keep_alive;
    rpc::Message request;
    request.kind = rpc::MessageKind::call;
    request.method = method;
    static WsdlTarget target;  // the client keeps a pointer to its contract
    if (!wsdl.empty()) {
      load_wsdl_target(wsdl, method, target);
      prepare_wsdl_call(args, target, config, request);
    } else {
      prepare_contract_call(protocol, style, args, config, request);
    }

    if (batch > 0 && config.family != rpc::Family::jsonrpc) {
      call_usage_error("--batch: a batch is a JSON-RPC 2.0 request (--protocol jsonrpc)");
    }
    run_calls(config, request, repeat, batch, timing);
  });
}

}  // namespace sb::cli
