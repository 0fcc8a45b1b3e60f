// soapbench list: one line per adapter compiled into this build, tab-separated (a library name
// such as "Qt 6" holds a space), or --json for scripts; --peers: the peer stacks the build
// declares (harness/peer_list.h), which the load tools and tests read as --peers --json.
#include <fmt/core.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.h"
#include "codecs/json_writer.h"
#include "harness/peer_list.h"
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

// One peer as a JSON object: every declared field (docs/peers.md "Declaring a peer"), its
// programs' paths in this build ("" when not built; client null when it has none), and an absent
// text or number as null.
void peer_json(rpc::DirectJsonWriter& w, const Peer& p) {
  auto text = [&w](std::string_view key, std::string_view value, bool null_when_empty) {
    w.key(key);
    if (value.empty() && null_when_empty) {
      w.null_value();
    } else {
      w.string_value(value);
    }
  };
  auto strings = [&w](std::string_view key, const std::vector<std::string>& values) {
    w.key(key);
    w.start_array();
    for (const std::string& v : values) w.string_value(v);
    w.end_array();
  };
  auto flag = [&w](std::string_view key, bool value) {
    w.key(key);
    w.bool_value(value);
  };
  w.start_object();
  text("name", p.name, false);
  text("label", p.label, false);
  strings("families", p.families);
  flag("built", p.built);
  text("server", p.server, false);
  w.key("client");
  p.has_client ? w.string_value(p.client) : w.null_value();
  flag("batch_client", p.batch_client);
  flag("one_family", p.one_family);
  flag("jvm", p.jvm);
  w.key("drift_ulps");
  w.int_value(static_cast<std::int64_t>(p.drift_ulps));
  strings("operations", p.operations);
  w.key("unexpressible");
  w.start_object();
  for (const PeerUnexpressible& u : p.unexpressible) text(u.operation, u.why, false);
  w.end_object();
  strings("no_common_protocol", p.no_common_protocol);
  flag("load", p.load);
  text("parser", p.parser, true);
  w.key("cpu_target");
  p.cpu_target > 0 ? w.double_value(p.cpu_target) : w.null_value();
  text("closes", p.closes, true);
  text("protocol", p.protocol, true);
  text("transport", p.transport, true);
  w.end_object();
}

// Every declared peer as a JSON array, in declaration order.
std::string peers_json() {
  rpc::DirectJsonWriter w;
  w.start_array();
  for (const Peer& p : peer_list()) peer_json(w, p);
  w.end_array();
  std::string out;
  if (!w.finish(out)) throw std::runtime_error("list --peers --json: " + std::string(w.error()));
  return out;
}

// "a,b" of a list of names.
std::string joined(const std::vector<std::string>& values) {
  std::string out;
  for (const std::string& v : values) out += (out.empty() ? "" : ",") + v;
  return out;
}

// The peers, one tab-separated line each.
void print_peers() {
  fmt::print("NAME\tLABEL\tFAMILIES\tBUILT\tSERVER\tCLIENT\n");
  for (const Peer& p : peer_list()) {
    fmt::print("{}\t{}\t{}\t{}\t{}\t{}\n", p.name, p.label, joined(p.families),
               p.built ? "yes" : "no", p.server.empty() ? "-" : p.server,
               p.client.empty() ? "-" : p.client);
  }
}

}  // namespace

void add_list_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "list",
      "List the parser adapters in this build, or with --peers the peer stacks it declares "
      "(tab-separated columns, or --json)");
  static bool verbose = false;
  static bool json = false;
  static bool peers = false;
  cmd->add_flag("-v,--verbose", verbose, "Also print each adapter's library mode and notes");
  cmd->add_flag("--json", json, "One JSON array of every adapter's facts (mode and notes too)");
  cmd->add_flag("--peers", peers,
                "The peer stacks instead (docs/peers.md \"Declaring a peer\"): their declarations "
                "and this build's programs");
  cmd->callback([] {
    if (peers) {
      json ? fmt::print("{}\n", peers_json()) : print_peers();
      return;
    }
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
