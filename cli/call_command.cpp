// soapbench call: one RPC (or --repeat N) through RpcClient; prints the response's canonical JSON
// and, with --timing, a JSON line with the client-side phases and the wire bytes.
#include <fmt/core.h>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "codecs/base64.h"
#include "codecs/canonical_json.h"
#include "codecs/family.h"
#include "codecs/scalars.h"
#include "codecs/service_contract.h"
#include "harness/http_client.h"

namespace sb::cli {

namespace {

using rpc::Kind;
using rpc::Value;

// Converts one parsed JSON argument to a Value of type t (nullptr: untyped, by JSON syntax).
// A string where a dateTime or base64 is due is its text form; {"$dateTime": …} and
// {"$base64": …} (the canonical forms) are accepted anywhere. Empty error on success.
Value to_value(const rapidjson::Value& j, const rpc::Type* t, const std::string& where,
               std::string& error) {
  auto mismatch = [&](std::string_view want) {
    error = where + ": expected " + std::string(want);
    return Value();
  };
  auto text = [](const rapidjson::Value& s) {
    return std::string(s.GetString(), s.GetStringLength());
  };
  if (j.IsNull()) return Value();
  // The canonical wrappers {"$dateTime": "…"} / {"$base64": "…"}.
  if (j.IsObject() && j.MemberCount() == 1 && j.MemberBegin()->value.IsString()) {
    const std::string key = text(j.MemberBegin()->name);
    const std::string s = text(j.MemberBegin()->value);
    if (key == "$dateTime" && (t == nullptr || t->kind == Kind::datetime)) {
      std::optional<std::string> d = rpc::parse_datetime(s);
      return d ? Value::datetime(*d) : mismatch("a dateTime YYYY-MM-DDThh:mm:ss");
    }
    if (key == "$base64" && (t == nullptr || t->kind == Kind::base64)) {
      std::optional<std::string> b = rpc::base64_decode(s);
      return b ? Value::base64(*b) : mismatch("standard base64");
    }
  }
  if (t == nullptr) {
    if (j.IsBool()) return Value::boolean(j.GetBool());
    if (j.IsInt()) return Value::integer(j.GetInt());
    if (j.IsNumber()) return Value::floating(j.GetDouble());
    if (j.IsString()) return Value::string(text(j));
    if (j.IsArray()) {
      Value a = Value::array();
      for (rapidjson::SizeType i = 0; i < j.Size(); ++i) {
        a.push(to_value(j[i], nullptr, where + "[" + std::to_string(i) + "]", error));
        if (!error.empty()) return Value();
      }
      return a;
    }
    Value s = Value::structure();
    for (auto m = j.MemberBegin(); m != j.MemberEnd(); ++m) {
      const std::string name = text(m->name);
      s.add_member(name, to_value(m->value, nullptr, where + "." + name, error));
      if (!error.empty()) return Value();
    }
    return s;
  }
  switch (t->kind) {
    case Kind::boolean:
      return j.IsBool() ? Value::boolean(j.GetBool()) : mismatch("a boolean");
    case Kind::integer:
      return j.IsInt() ? Value::integer(j.GetInt()) : mismatch("a 32-bit integer");
    case Kind::floating:
      return j.IsNumber() ? Value::floating(j.GetDouble()) : mismatch("a number");
    case Kind::string:
      return j.IsString() ? Value::string(text(j)) : mismatch("a string");
    case Kind::datetime: {
      if (!j.IsString()) return mismatch("a dateTime string");
      std::optional<std::string> d = rpc::parse_datetime(text(j));
      return d ? Value::datetime(*d) : mismatch("a dateTime YYYY-MM-DDThh:mm:ss");
    }
    case Kind::base64: {
      if (!j.IsString()) return mismatch("a base64 string");
      std::optional<std::string> b = rpc::base64_decode(text(j));
      return b ? Value::base64(*b) : mismatch("standard base64");
    }
    case Kind::array: {
      if (!j.IsArray()) return mismatch("an array");
      Value a = Value::array();
      for (rapidjson::SizeType i = 0; i < j.Size(); ++i) {
        a.push(to_value(j[i], t->element, where + "[" + std::to_string(i) + "]", error));
        if (!error.empty()) return Value();
      }
      return a;
    }
    case Kind::structure: {
      if (!j.IsObject()) return mismatch("an object (" + std::string(t->name) + ")");
      // Members in the contract's order (the order is part of the type), whatever the JSON's.
      Value s = Value::structure();
      for (const rpc::Member& m : t->structure->members) {
        auto it = j.FindMember(rapidjson::StringRef(m.name.data(), m.name.size()));
        if (it == j.MemberEnd()) continue;
        const std::string name(m.name);
        s.add_member(name, to_value(it->value, m.type, where + "." + name, error));
        if (!error.empty()) return Value();
      }
      if (s.items().size() != j.MemberCount()) {
        error = where + ": members other than those of " + std::string(t->name);
        return Value();
      }
      return s;
    }
    default:
      return mismatch("no value");
  }
}

// The family --protocol and --style name, or an error.
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
      "Make one RPC against a soapbench server and print the response's canonical JSON: call "
      "[OPTIONS] METHOD [ARGS...]");
  // Static: CLI11 writes the options while parsing, the callback reads them afterwards.
  static ClientConfig config;
  static std::string protocol;
  static std::string style;
  static bool no_keep_alive = false;
  static int repeat = 1;
  static bool timing = false;
  static std::string method;
  static std::vector<std::string> args;
  cmd->add_option("--url", config.url, "Server base URL, http://host:port or https://host:port")
      ->required();
  cmd->add_option("--protocol", protocol, "Protocol to speak")
      ->required()
      ->check(CLI::IsMember({"xmlrpc", "soap11", "soap12", "jsonrpc"}));
  cmd->add_option("--style", style, "SOAP style (default doc-literal)")
      ->check(CLI::IsMember({"rpc-encoded", "rpc-literal", "doc-literal"}));
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
    const rpc::Operation* op = rpc::service_contract().find(method);
    for (std::size_t i = 0; i < args.size(); ++i) {
      rapidjson::Document doc;
      doc.Parse<rapidjson::kParseFullPrecisionFlag>(args[i].data(), args[i].size());
      if (doc.HasParseError()) {
        fmt::print(stderr, "soapbench: call {}: argument {} is not JSON: {} (offset {})\n", method,
                   i + 1, rapidjson::GetParseError_En(doc.GetParseError()), doc.GetErrorOffset());
        throw ExitCode{1};
      }
      // Arguments past the contract's params go untyped: the server judges them.
      const bool typed = op != nullptr && i < op->params.size();
      const std::string where =
          typed ? std::string(op->params[i].name) : "argument " + std::to_string(i + 1);
      request.params.push_back(to_value(doc, typed ? op->params[i].type : nullptr, where, error));
      if (!error.empty()) {
        fmt::print(stderr, "soapbench: call {}: {}\n", method, error);
        throw ExitCode{1};
      }
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
