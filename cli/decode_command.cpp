// soapbench decode: the canonical JSON of each message (docs/service.md), one line per file.
#include <fmt/core.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/repeatable_option.h"
#include "cli/report_error.h"
#include "codecs/canonical_json.h"
#include "harness/corpus.h"
#include "harness/wsdl_file.h"
#include "parsers/registry.h"

namespace sb::cli {

namespace {

// XML-RPC and JSON-RPC responses do not name their method: take it from --method, else from
// the corpus manifest when the file is a corpus file.
std::string method_for(const std::string& file, const std::string& method_option,
                       const Corpus* corpus) {
  if (!method_option.empty() || corpus == nullptr) return method_option;
  std::error_code ec;
  const auto rel = std::filesystem::relative(std::filesystem::absolute(file), corpus->dir(), ec);
  if (ec) return {};
  const CorpusEntry* e = corpus->find(rel.generic_string());
  return e ? e->operation : std::string();
}

}  // namespace

void add_decode_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "decode", "Decode each message with one adapter and print its canonical JSON, one line each");
  static std::string parser;
  static std::string protocol;
  static std::string method;
  static std::vector<std::string> files;
  static std::vector<std::string> wsdl;
  static Limits limits;
  cmd->add_option("--parser", parser, "Adapter name (see `soapbench list`)")->required();
  cmd->add_option("--protocol", protocol, "Require this protocol instead of detecting it")
      ->check(CLI::IsMember({"xmlrpc", "soap11", "soap12", "jsonrpc"}));
  cmd->add_option("--method", method,
                  "Method of XML-RPC/JSON-RPC responses (default: from the corpus manifest)");
  add_repeatable_option(
      cmd, "--wsdl", wsdl,
      "WSDL 1.1 file typing SOAP literal messages instead of the built-in service");
  cmd->add_option("--max-depth", limits.max_depth, "Deepest nesting accepted")
      ->default_val(limits.max_depth);
  cmd->add_option("files", files, "Message files (.gz is inflated)")->required();
  cmd->callback([] {
    std::unique_ptr<Adapter> adapter = make_adapter(parser, limits);
    if (!adapter) {
      throw CLI::ValidationError("--parser",
                                 "no adapter named '" + parser + "' (see soapbench list)");
    }
    std::optional<rpc::Contract> contract;
    if (!wsdl.empty()) {
      rpc::WsdlReport report;
      try {
        contract = load_wsdl(wsdl, report);
      } catch (const std::exception& e) {
        fmt::print(stderr, "soapbench: decode: {}\n", e.what());
        throw ExitCode{1};
      }
      for (const std::string& r : report.refused) fmt::print(stderr, "wsdl: refused: {}\n", r);
    }
    std::optional<Corpus> corpus;
    try {
      corpus = Corpus::load(default_corpus_dir());
    } catch (const std::exception&) {
      // No corpus: responses without --method decode with an empty method.
    }
    int exit_code = 0;
    MessageBuffer buffer;
    rpc::Message message;
    for (const std::string& file : files) {
      std::string bytes;
      try {
        bytes = read_message_file(file);
      } catch (const std::exception& e) {
        fmt::print(stderr, "soapbench: {}\n", e.what());
        exit_code = 1;
        continue;
      }
      rpc::DecodeContext context;
      if (!protocol.empty()) context.protocol = rpc::protocol_from_name(protocol);
      context.method = method_for(file, method, corpus ? &*corpus : nullptr);
      context.contract = contract ? &*contract : nullptr;
      context.batch = true;
      buffer.assign(bytes);
      DecodeReport report;
      Status s = adapter->decode(buffer, context, message, report);
      if (!s.ok()) {
        report_error(file, parser, bytes, s);
        exit_code = 1;
        continue;
      }
      fmt::print("{}\n", rpc::to_canonical_json(message));
    }
    if (exit_code != 0) throw ExitCode{exit_code};
  });
}

}  // namespace sb::cli
