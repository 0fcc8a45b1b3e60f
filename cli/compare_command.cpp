// soapbench compare PATH...: the parsers on your own messages (measure/compare_run.h does the
// work; this file only reads the options).
#include <unistd.h>

#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/repeatable_option.h"
#include "measure/compare_run.h"

namespace sb::cli {

namespace {

// This executable, for --icount's run of itself under callgrind.
std::string self_path() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string("soapbench");
}

}  // namespace

void add_compare_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "compare",
      "Compare the parsers on your own messages (files, folders, .gz): equal work checked "
      "across adapters, then timed (or --icount) with repetitions and ranked");
  // Static: CLI11 writes the options while parsing, the callback reads them afterwards.
  static bench::CompareOptions o;
  static std::vector<std::string> levels;
  cmd->add_option("paths", o.paths,
                  "Message files (.xml, .json, any .gz) and folders (their *.xml, *.json, *.gz, "
                  "or the entries of their manifest.json)")
      ->required();
  add_repeatable_option(cmd, "--parser", o.parsers,
                        "Adapter to compare (default: every adapter of each message's format)");
  add_repeatable_option(cmd, "--level", levels, "parse, walk or decode (default: all that apply)")
      ->check(CLI::IsMember({"parse", "walk", "decode"}));
  add_repeatable_option(cmd, "--wsdl", o.wsdl,
                        "WSDL 1.1 file typing SOAP literal messages (`soapbench wsdl --check "
                        "FILE` says what it types)");
  cmd->add_option("--budget", o.budget,
                  "Seconds the whole command may take (reading, checking, timing): sets the "
                  "minimum time per repetition, and what does not fit is cut, said in a line")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--min-time", o.min_time,
                  "Minimum seconds per repetition (instead of --budget, which then bounds "
                  "nothing: more is more precise)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--repetitions", o.repetitions,
                  "Repetitions of every benchmark, randomly interleaved (5 is the fewest a "
                  "ranking word can pass)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  cmd->add_flag("--icount", o.icount,
                "Count instructions per message under callgrind instead of timing (valgrind)");
  cmd->add_option("--iterations", o.iterations,
                  "Exactly N iterations per benchmark, no repetitions (--icount's run; 10 there)")
      ->check(CLI::Range(1L, 1000000000L));
  cmd->add_option("--json", o.json,
                  "Google Benchmark JSON to write (default: compare.json in the working folder; "
                  "- for none); `tools/results save FILE` keeps it with the suite's results");
  cmd->add_flag("--list", o.list, "List the messages that would be compared; run nothing");
  cmd->add_flag(
      "--no-pin", [](std::int64_t) { o.pin = false; }, "Do not pin to one CPU");
  cmd->add_option("--max-files", o.scan.max_files,
                  "Compare at most N messages, evenly spaced in path order (0: all)")
      ->capture_default_str();
  cmd->add_option("--max-file-bytes", o.scan.max_bytes,
                  "Refuse larger messages (by size, before reading them)")
      ->capture_default_str();
  cmd->callback([] {
    for (const std::string& l : levels) {
      o.levels.push_back(l == "parse" ? Level::parse : l == "walk" ? Level::walk : Level::decode);
    }
    o.scan.read = !o.list;
    o.self = self_path();
    if (const int code = bench::run_compare(o); code != 0) throw ExitCode{code};
  });
}

}  // namespace sb::cli
