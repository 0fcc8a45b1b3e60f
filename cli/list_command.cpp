// soapbench list: one line per adapter compiled into this build, tab-separated (a library name
// such as "Qt 6" holds a space), or --json for scripts.
#include <fmt/core.h>

#include <stdexcept>
#include <string>

#include "cli/commands.h"
#include "codecs/json_writer.h"
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
  // ...which the decode level then restores from the message (parsers/leaf_text.h).
  if (i.decode_restores_text == TextLoss::whitespace_runs) out += ",decode-restores-whitespace";
  if (i.decode_restores_text == TextLoss::runs_and_cdata) out += ",decode-restores-text";
  if (i.fastest_mode) out += ",fastest-mode";
  if (i.decode_markup_guard) out += ",decode-markup-guard";
  if (i.digest_exempt) out += ",digest-exempt";
  return out;
}

// The adapters as a JSON array of objects: name, library, version, format, model, flags (a list
// of the flag words), mode, notes.
std::string adapters_json() {
  rpc::DirectJsonWriter w;
  w.start_array();
  for (const AdapterEntry& e : adapters()) {
    const AdapterInfo& i = e.info();
    w.start_object();
    auto member = [&w](std::string_view key, std::string_view value) {
      w.key(key);
      w.string_value(value);
    };
    member("name", i.name);
    member("library", i.library);
    member("version", i.version);
    member("format", format_name(i.format));
    member("model", model_name(i.model));
    w.key("flags");
    w.start_array();
    const std::string flags = flag_words(i);
    for (std::size_t at = 0; at < flags.size();) {
      const std::size_t comma = std::min(flags.find(',', at), flags.size());
      w.string_value(std::string_view(flags).substr(at, comma - at));
      at = comma + 1;
    }
    w.end_array();
    member("mode", i.mode);
    member("notes", i.notes);
    w.end_object();
  }
  w.end_array();
  std::string out;
  if (!w.finish(out)) throw std::runtime_error("list --json: " + std::string(w.error()));
  return out;
}

}  // namespace

void add_list_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "list", "List the parser adapters in this build (tab-separated columns, or --json)");
  static bool verbose = false;
  static bool json = false;
  cmd->add_flag("-v,--verbose", verbose, "Also print each adapter's library mode and notes");
  cmd->add_flag("--json", json, "One JSON array of every adapter's facts (mode and notes too)");
  cmd->callback([] {
    if (json) {
      fmt::print("{}\n", adapters_json());
      return;
    }
    fmt::print("NAME\tLIBRARY\tVERSION\tFORMAT\tMODEL\tFLAGS\n");
    for (const AdapterEntry& e : adapters()) {
      const AdapterInfo& i = e.info();
      fmt::print("{}\t{}\t{}\t{}\t{}\t{}\n", i.name, i.library, i.version, format_name(i.format),
                 model_name(i.model), flag_words(i));
      if (verbose) fmt::print("    mode: {}\n    notes: {}\n", i.mode, i.notes);
    }
  });
}

}  // namespace sb::cli
