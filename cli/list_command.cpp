// soapbench list: one line per adapter compiled into this build.
#include <fmt/core.h>

#include "cli/commands.h"
#include "parsers/registry.h"

namespace sb::cli {

namespace {

// "utf8 entities ns insitu reuse" style flag words, "-" where a property is absent.
std::string flag_words(const AdapterInfo& i) {
  std::string out;
  auto add = [&out](bool on, const char* word) {
    if (!out.empty()) out += ',';
    out += on ? word : std::string("no-") + word;
  };
  add(i.validates_utf8, "utf8-check");
  add(i.expands_entities, i.format == Format::xml ? "entities" : "escapes");
  if (i.format == Format::xml) add(i.processes_namespaces, "namespaces");
  add(i.modifies_input, "insitu");
  add(i.reuses_state, "reuse");
  if (i.format == Format::xml && !i.keeps_whitespace_text) out += ",drops-whitespace-text";
  if (i.fastest_mode) out += ",fastest-mode";
  if (i.decode_markup_guard) out += ",decode-markup-guard";
  if (i.digest_exempt) out += ",digest-exempt";
  return out;
}

}  // namespace

void add_list_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("list", "List the parser adapters in this build");
  static bool verbose = false;
  cmd->add_flag("-v,--verbose", verbose, "Also print each adapter's library mode and notes");
  cmd->callback([] {
    fmt::print("{:<23} {:<13} {:<8} {:<6} {:<6} {}\n", "NAME", "LIBRARY", "VERSION", "FORMAT",
               "MODEL", "FLAGS");
    for (const AdapterEntry& e : adapters()) {
      const AdapterInfo& i = e.info();
      fmt::print("{:<23} {:<13} {:<8} {:<6} {:<6} {}\n", i.name, i.library, i.version,
                 format_name(i.format), model_name(i.model), flag_words(i));
      if (verbose) fmt::print("    mode: {}\n    notes: {}\n", i.mode, i.notes);
    }
  });
}

}  // namespace sb::cli
