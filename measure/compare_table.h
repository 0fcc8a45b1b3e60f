// The terminal output of `soapbench compare`: who is left out of which message and why (before
// timing), then per message and level the adapters by median time with µs [interval], MB/s,
// allocations, peak heap and the ranking word (measure/ranking.h), and a summary over messages.
#pragma once

#include <map>
#include <string>

#include "measure/compare_plan.h"
#include "measure/summary_reporter.h"

namespace sb::bench {

// One line per adapter left out of a message (with the level and the reason), per level not
// applicable, per flagged work; on stderr.
void print_left_out(const ComparePlan& plan);

// The table of a finished run (`results` by benchmark name), on stdout.
void print_compare_table(const ComparePlan& plan, const std::map<std::string, RunResult>& results);

}  // namespace sb::bench
