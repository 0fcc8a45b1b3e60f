// `soapbench compare PATH...` (cli/compare_command.cpp parses the options into CompareOptions):
// the user's own messages, checked for equal work across adapters without a manifest
// (harness/equal_work.h), timed as parse_bench times the corpus (the same benchmark bodies,
// Google Benchmark, repetitions, random interleaving), ranked with the report's statistics
// (measure/ranking.h), written as Google Benchmark JSON where tools/results looks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/equal_work.h"
#include "harness/message_files.h"

namespace sb::bench {

struct CompareOptions {
  std::vector<std::string> paths;    // files and folders
  std::vector<std::string> parsers;  // adapter names; empty: every adapter of each file's format
  std::vector<Level> levels;         // empty: every level that applies
  std::vector<std::string> wsdl;     // WSDL files typing SOAP literal messages
  double budget = 120;               // seconds the whole command may take (measure/
                                     // compare_budget.h) when min_time is automatic
  double min_time = 0;               // seconds per repetition; 0: derived from the budget
  int repetitions = 5;               // repetitions of every benchmark (5 is the fewest that can
                                     // pass the report's p <= 0.01)
  long iterations = 0;               // exactly N iterations, no repetitions (callgrind runs)
  bool icount = false;               // count instructions under callgrind instead of timing
  std::string json;                  // Google Benchmark JSON: "" the default file, "-" none
  bool list = false;                 // list what would be compared, run nothing
  bool pin = true;                   // pin to one CPU, as parse_bench does
  MessageScanOptions scan;           // --max-files, --max-file-bytes
  std::string self;                  // this executable (for --icount's callgrind run)
};

// Runs the comparison; the process exit status (0 once anything was compared; 1 when nothing
// could be, on bad options, or when a benchmark failed its check).
int run_compare(const CompareOptions& options);

// The default --json file: compare.json in the working folder, as a profiler writes its output
// where it runs (a user's messages are rarely inside soapbench's tree, and its build folder is
// no place for them); `tools/results save FILE` keeps it with the suite's results.
std::string default_compare_json();

}  // namespace sb::bench
