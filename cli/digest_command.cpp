// soapbench digest: the walk-level Digest of each file, one JSON line per file.
#include <fmt/core.h>

#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/report_error.h"
#include "harness/corpus.h"
#include "parsers/registry.h"

namespace sb::cli {

void add_digest_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "digest", "Print each file's Digest (docs/corpus.md) as produced by one adapter's walk");
  static std::string parser;
  static std::vector<std::string> files;
  static Limits limits;
  cmd->add_option("--parser", parser, "Adapter name (see `soapbench list`)")->required();
  cmd->add_option("--max-depth", limits.max_depth, "Deepest nesting accepted")
      ->default_val(limits.max_depth);
  cmd->add_flag("--allow-doctype", limits.allow_doctype,
                "Let a DOCTYPE through to the library (rejected by default, as SOAP requires)");
  cmd->add_option("files", files, "Message files (.gz is inflated)")->required();
  cmd->callback([] {
    std::unique_ptr<Adapter> adapter = make_adapter(parser, limits);
    if (!adapter)
      throw CLI::ValidationError("--parser",
                                 "no adapter named '" + parser + "' (see soapbench list)");
    int exit_code = 0;
    MessageBuffer buffer;
    for (const std::string& file : files) {
      std::string bytes;
      try {
        bytes = read_message_file(file);
      } catch (const std::exception& e) {
        fmt::print(stderr, "soapbench: {}\n", e.what());
        exit_code = 1;
        continue;
      }
      buffer.assign(bytes);
      Digest digest;
      Status s = adapter->walk(buffer, digest);
      if (!s.ok()) {
        report_error(file, parser, bytes, s);
        exit_code = 1;
        continue;
      }
      fmt::print("{}\n", digest.to_json());
    }
    if (exit_code != 0) throw ExitCode{exit_code};
  });
}

}  // namespace sb::cli
