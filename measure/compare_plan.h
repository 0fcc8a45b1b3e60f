// What `soapbench compare` decided before timing: per message, the reference it is checked
// against, the adapters and levels timed, and those left out with the reason. Shared by the run
// (compare_run.cpp), its table (compare_table.h) and its instruction counts (compare_icount.h).
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "codecs/service_contract.h"
#include "harness/corpus.h"
#include "harness/equal_work.h"
#include "harness/message_files.h"
#include "measure/compare_run.h"
#include "parsers/registry.h"

namespace sb::bench {

// One adapter at one level on one message, timed.
struct PlannedBenchmark {
  std::string name;             // "decode/pugixml-dom/soap11-rpc-encoded/orders/po.xml"
  Level level;                  // which level
  const AdapterEntry* adapter;  // which adapter
  std::string flag;             // work differing in a stated way (shown beside its number)
};

// One adapter left out of one level of one message.
struct LeftOut {
  const AdapterEntry* adapter;  // which
  Level level;                  // at which level (parse stands for parse and walk)
  std::string why;              // one line
};

struct PlannedFile {
  MessageFile file;                      // the message
  EqualWork work;                        // what the adapters did with it
  CorpusEntry reference;                 // what the benchmark body checks against
  std::string family;                    // benchmark-name segment: its family, or xml / json
  std::vector<PlannedBenchmark> timed;   // in registration order
  std::vector<LeftOut> left_out;         // adapters not timed, with the reason
  std::vector<std::string> level_notes;  // "decode: not typable: …" (one per level skipped)
  double run_s = 0;  // seconds one adapter's run of one level took on it (the equal-work
                     // check's time over its runs): what measure/compare_budget.h plans with
};

struct ComparePlan {
  std::vector<PlannedFile> files;         // the messages compared
  std::vector<std::string> skipped;       // messages not compared, one line each
  std::optional<rpc::Contract> contract;  // the user's WSDL, when given
  std::vector<std::string> wsdl_notes;    // what the WSDL reader said
  double cpu_share = 1;  // CPU time over wall time of the equal-work check: Google Benchmark's
                         // minimum time is CPU time, so on a busy machine a repetition lasts
                         // longer on the wall (measure/compare_budget.h plans with it)
};

// The plan for `options`: messages read, WSDL loaded, equal work checked (a progress line on
// stderr as it goes; messages not checked by `deadline` are cut, said in `skipped`). Throws
// std::runtime_error on bad options (an unknown adapter, a WSDL that cannot be read).
ComparePlan plan_compare(const CompareOptions& options,
                         std::optional<std::chrono::steady_clock::time_point> deadline = {});

}  // namespace sb::bench
